package tasks

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// A person hears of every agent that needs them, not only of those a
// controller follows: an agent the person started in a pane asks
// permission, and the desktop (or terminal, or phone) says which one and
// what it asks. The person routes (outbox.Config.PersonRoutes) get a
// terminal's interactions and blocks while no Watch or Turn follows the
// terminal; one that does already sends them its events (RoutesFor adds
// the person routes to every Watch and Turn), and a second notice would
// say the same thing twice. The subject is the terminal: the store
// enqueues each (terminal, interaction) and each distinct block once,
// across restarts too. Notices carry no authority: the person answers in
// the pane, the popup or the web page, through a fresh status.

// TaskTerminal is the task kind of a person's notice about a terminal no
// Watch or Turn follows.
const TaskTerminal = "terminal"

// personState is the person's notices of one terminal, a follower: what
// it told of the terminal's screen while no Watch or Turn followed it.
type personState struct {
	terminalID string
	routes     []string // the person routes
	seen       alerts
	// hushed: a Watch or Turn followed the terminal when last seen, with
	// quiet on its screen ("" none): that prompt is not the person's news.
	hushed bool
	quiet  string
}

func (p *personState) voice() voice {
	return voice{subject: p.terminalID, routes: p.routes, answers: true, approves: true,
		base: api.CallbackEnvelope{TaskKind: TaskTerminal, TerminalID: p.terminalID}}
}

func (p *personState) alerts() *alerts { return &p.seen }

// observed folds an observation of the terminal into its notices.
func (p *personState) observed(k *kit, o terminal.Observation) {
	if k.fs.follows(p.terminalID) {
		// Whoever follows it tells the person. What it told stays told
		// when it stops following: the prompt and the block on screen
		// then are not news.
		p.seen.hush(o)
		p.hushed, p.quiet = true, ""
		if o.Interaction != nil {
			p.quiet = o.Interaction.InteractionID
		}
		return
	}
	if p.hushed {
		if o.Interaction != nil && o.Interaction.InteractionID == p.quiet {
			return
		}
		p.hushed = false
	}
	k.heed(p, o)
}

// evidence: a person's notices read no file.
func (p *personState) evidence(*kit, boundEvidence) {}

// due: a person's notices have no timers of their own (their held prompt
// and printed reset are alerts).
func (p *personState) due(*kit, time.Time) time.Time { return time.Time{} }
