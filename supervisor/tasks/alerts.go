package tasks

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// What a follower tells of its terminal's screen is the same for a Watch,
// a Turn and a person's notices; only its voice differs (follower.go).
//
// Prompts: each distinct interaction once. A pending (actionable) one
// comes from an exact profile match and wakes at once; a manual_required
// one must stay on the screen for manualSettle first.
//
// Blocks (what hooks cannot see): an agent that stopped on an API error
// or a limit wakes once per distinct block (agent_blocked, with the
// screen's facts), and once more when the reset time that screen printed
// has come (limit_reset). akk never types there; the controller resumes
// with a fresh status and a normal send, a Watch never does. The
// wake-ups go to the follower's routes, which hold every person route
// (outbox.Config.RoutesFor).
//
// The store enqueues each (subject, event) once, whatever tells it, so a
// restart that sees the same prompt or block again sends nothing twice.

// manualSettle is how long a manual_required interaction must stay on the
// screen before it wakes the controller. Codex draws its approval dialog
// over several frames, and the live tier saw one of them recognized as a
// permission with reason resized_frame 5 ms before the complete,
// actionable prompt: waking for it would be a second wake-up for one
// prompt.
const manualSettle = 250 * time.Millisecond

// alerts is what a follower told of its terminal's prompts and blocks.
type alerts struct {
	held  *heldPrompt // a manual_required prompt not yet told
	shown *blockState // the block on screen
}

// heldPrompt is a manual_required interaction waiting out manualSettle.
type heldPrompt struct {
	terminalID string
	in         *contract.Interaction
	since      time.Time
	fired      bool
}

// blockState is the block on a follower's screen, as told.
type blockState struct {
	key     string // the block's facts, as notified
	b       *api.Blocked
	resetAt time.Time // the printed reset to wake at; zero when none, or sent
}

// notice is one thing a follower tells of its screen: a prompt, a block,
// or a block's printed reset come.
type notice struct {
	in    *contract.Interaction // a prompt (nil: a block)
	at    time.Time             // when the prompt was seen
	b     *api.Blocked
	reset bool   // the block's printed reset came
	event string // a block's event identity: its facts, or its reset
}

// prompt folds an observation's interaction: it is news at once when
// pending, after manualSettle of the same interaction otherwise (due
// tells it on a quiet screen).
func (a *alerts) prompt(o terminal.Observation) (notice, bool) {
	in := o.Interaction
	h := a.held
	switch {
	case in == nil:
		a.held = nil
	case in.State == contract.StatePending:
		a.held = nil
		return notice{in: in, at: o.At}, true
	case h == nil || h.in.InteractionID != in.InteractionID:
		a.held = &heldPrompt{terminalID: o.TerminalID, in: in, since: o.At}
	case !h.fired && o.At.Sub(h.since) >= manualSettle:
		h.fired = true
		return notice{in: in, at: o.At}, true
	}
	return notice{}, false
}

// blocked folds an observation's block: a block not seen before is news
// (its event names the facts). A screen that is no longer blocked forgets
// it: the agent moved on, and a reset still due is not announced.
func (a *alerts) blocked(o terminal.Observation) (notice, bool) {
	b := o.Blocked
	if o.Screen != contract.ScreenBlocked || b == nil {
		a.shown = nil
		return notice{}, false
	}
	key := b.Reason + "|" + b.ResetsAtShown + "|" + b.ResetsAt.UTC().Format(time.RFC3339)
	if s := a.shown; s != nil && s.key == key {
		return notice{}, false
	}
	s := &blockState{key: key, b: b.Clone(), resetAt: b.ResetsAt}
	a.shown = s
	return notice{b: s.b, event: "blocked:" + key}, true
}

// hush takes the screen as told by someone else: the prompt held is
// dropped, the block is seen, and its reset is not announced.
func (a *alerts) hush(o terminal.Observation) {
	a.held = nil
	a.blocked(o)
	if a.shown != nil {
		a.shown.resetAt = time.Time{}
	}
}

// due is what came due at now: a held prompt whose settle time passed
// and that the terminal's latest observation still shows, and a block's
// printed reset. It returns when to look again (zero: nothing due).
func (a *alerts) due(now time.Time, last lastSeen) ([]notice, time.Time) {
	var out []notice
	var next time.Time
	if h := a.held; h != nil && !h.fired {
		if due := h.since.Add(manualSettle); now.Before(due) {
			next = due
		} else if o, ok := last[h.terminalID]; ok && o.Interaction != nil && o.Interaction.InteractionID == h.in.InteractionID {
			h.fired = true
			out = append(out, notice{in: h.in, at: now})
		}
	}
	if s := a.shown; s != nil && !s.resetAt.IsZero() {
		if now.Before(s.resetAt) {
			next = soonest(next, s.resetAt)
		} else {
			at := s.resetAt
			s.resetAt = time.Time{}
			out = append(out, notice{b: s.b, reset: true, event: "limit_reset:" + at.UTC().Format(time.RFC3339)})
		}
	}
	return out, next
}

// heed folds an observation into f's alerts and tells what is news: the
// prompt, then the block.
func (k *kit) heed(f follower, o terminal.Observation) {
	if n, ok := f.alerts().prompt(o); ok {
		k.tell(f.voice(), n)
	}
	if n, ok := f.alerts().blocked(o); ok {
		k.tell(f.voice(), n)
	}
}

// remind tells what of f's alerts came due at now and returns when to
// look again.
func (k *kit) remind(f follower, now time.Time) time.Time {
	ns, next := f.alerts().due(now, k.last)
	for _, n := range ns {
		k.tell(f.voice(), n)
	}
	return next
}

// tell sends one notice in v's voice. An interrupt akk caused itself (its
// cancel, or a reject: Claude Code's No interrupts the turn) is no news
// to a Turn: its own end (aborted) says it, and a second wake-up would
// tell the controller's user the same thing twice.
func (k *kit) tell(v voice, n notice) {
	if n.in != nil {
		env := v.envelope(api.CallbackBlocked, v.asks(n.in), "", n.at)
		env.Interaction = n.in
		k.say(v, env, "interaction:"+n.in.InteractionID, store.TaskChange{})
		return
	}
	if v.ownInterrupts && n.b.Reason == recognizers.BlockedInterrupted && k.akkInterrupted(v.subject) {
		return
	}
	env := v.envelope(api.CallbackBlocked, api.CallbackAgentBlocked, n.b.Reason, k.now())
	if n.reset {
		env = v.envelope(api.CallbackProgress, api.CallbackLimitReset, n.b.Reason, k.now())
	}
	env.Blocked = n.b
	k.say(v, env, n.event, store.TaskChange{})
}
