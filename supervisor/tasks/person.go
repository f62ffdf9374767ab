package tasks

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
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

// followed reports whether a Watch or Turn follows the terminal.
func (t *Manager) followed(terminalID string) bool {
	for _, w := range t.watches {
		if w.rec.TerminalID == terminalID {
			return true
		}
	}
	for _, tr := range t.turns {
		if tr.spec.TerminalID == terminalID {
			return true
		}
	}
	return false
}

// personObserved folds an observation of a terminal into its notices.
func (t *Manager) personObserved(o terminal.Observation) {
	subject := o.TerminalID
	if len(t.personRoutes) == 0 {
		return
	}
	if t.followed(subject) {
		// Whoever follows it tells the person. What it told stays told
		// when it stops following: the prompt and the block on screen
		// then are not news.
		delete(t.held, subject)
		t.quiet[subject] = ""
		if o.Interaction != nil {
			t.quiet[subject] = o.Interaction.InteractionID
		}
		t.blockSeen(subject, o, func(*api.Blocked, string) {})
		if s := t.blocks[subject]; s != nil {
			s.resetAt = time.Time{}
		}
		return
	}
	if q, ok := t.quiet[subject]; ok {
		if o.Interaction != nil && o.Interaction.InteractionID == q {
			return
		}
		delete(t.quiet, subject)
	}
	t.interactionSeen(subject, o, func(in *contract.Interaction, at time.Time) {
		event := api.CallbackInteractionManual
		if in.State == contract.StatePending {
			event = api.CallbackInteractionRequired
		}
		env := personEnvelope(subject, api.CallbackBlocked, event, "", at)
		env.Interaction = in
		t.notes.notify(env, "interaction:"+in.InteractionID, t.personRoutes, store.TaskChange{})
	})
	t.blockSeen(subject, o, t.personBlock(subject))
}

// personBlock is the notices of a terminal's blocks: the block, then its
// printed reset when it comes.
func (t *Manager) personBlock(terminalID string) func(b *api.Blocked, event string) {
	return func(b *api.Blocked, event string) {
		env := personEnvelope(terminalID, api.CallbackBlocked, api.CallbackAgentBlocked, b.Reason, t.now())
		if strings.HasPrefix(event, "limit_reset:") {
			env = personEnvelope(terminalID, api.CallbackProgress, api.CallbackLimitReset, b.Reason, t.now())
		}
		env.Blocked = b
		t.notes.notify(env, event, t.personRoutes, store.TaskChange{})
	}
}

// personTimers runs the held interactions and printed resets of the
// terminals' own notices; it returns when to look again.
func (t *Manager) personTimers(now time.Time) time.Time {
	var next time.Time
	soonest := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	for subject := range t.held {
		if isTerminal(subject) {
			soonest(t.heldTimer(subject, now))
		}
	}
	for subject := range t.blocks {
		if isTerminal(subject) {
			soonest(t.resetTimer(subject, now, t.personBlock(subject)))
		}
	}
	return next
}

// isTerminal: a subject that is a terminal (a person's notice), not a
// Watch or a Turn.
func isTerminal(subject string) bool { return strings.HasPrefix(subject, "term_") }

func personEnvelope(terminalID, typ, event, reason string, now time.Time) api.CallbackEnvelope {
	return api.CallbackEnvelope{Type: typ, Event: event, Reason: reason, TaskKind: TaskTerminal, TerminalID: terminalID, Time: now}
}
