package tasks

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// What hooks cannot see (issue: blocked states): an agent that stopped on
// an API error or a limit wakes the owner of its Turn or Watch once per
// distinct block (agent_blocked, with the screen's facts), and once more
// when the reset time that screen printed has come (limit_reset). akk
// never types there; the controller resumes with a fresh status and a
// normal send, a Watch never does. Both wake-ups go to the subject's
// routes, which hold every person route (outbox.Config.RoutesFor).

// blockState is what a subject (a turn_id or watch_id) saw of its
// terminal's current block.
type blockState struct {
	key     string // the block's facts, as notified
	b       *api.Blocked
	resetAt time.Time // the printed reset to wake at; zero when none, or sent
}

// blockSeen folds an observation into subject's block: fire sends the
// agent_blocked wake-up of a block not seen before (its event names the
// facts, so a restart that sees it again sends nothing twice). A screen
// that is no longer blocked forgets it: the agent moved on, and a reset
// still due is not announced.
func (t *Manager) blockSeen(subject string, o terminal.Observation, fire func(b *api.Blocked, event string)) {
	b := o.Blocked
	if o.Screen != contract.ScreenBlocked || b == nil {
		delete(t.blocks, subject)
		return
	}
	key := b.Reason + "|" + b.ResetsAtShown + "|" + b.ResetsAt.UTC().Format(time.RFC3339)
	if s := t.blocks[subject]; s != nil && s.key == key {
		return
	}
	s := &blockState{key: key, b: b.Clone(), resetAt: b.ResetsAt}
	t.blocks[subject] = s
	fire(s.b, "blocked:"+key)
}

// resetTimer sends subject's limit_reset wake-up once the printed reset
// time has come, and returns when to look again (zero: nothing due).
func (t *Manager) resetTimer(subject string, now time.Time, fire func(b *api.Blocked, event string)) time.Time {
	s := t.blocks[subject]
	if s == nil || s.resetAt.IsZero() {
		return time.Time{}
	}
	if now.Before(s.resetAt) {
		return s.resetAt
	}
	at := s.resetAt
	s.resetAt = time.Time{}
	fire(s.b, "limit_reset:"+at.UTC().Format(time.RFC3339))
	return time.Time{}
}

// turnBlock is the wake-ups of a Turn's blocks. An interrupt akk caused
// itself (its cancel, or a reject: Claude Code's No interrupts the turn)
// is no news: the Turn's own end (aborted) says it, and a second wake-up
// would tell the controller's user the same thing twice.
func (t *Manager) turnBlock(tr *turnState) func(b *api.Blocked, event string) {
	return func(b *api.Blocked, event string) {
		if b.Reason == recognizers.BlockedInterrupted && t.akkInterrupted(tr.spec.TurnID) {
			return
		}
		env := tr.envelope(api.CallbackBlocked, api.CallbackAgentBlocked, b.Reason, t.now())
		if strings.HasPrefix(event, "limit_reset:") {
			env = tr.envelope(api.CallbackProgress, api.CallbackLimitReset, b.Reason, t.now())
		}
		env.Blocked = b
		t.notes.notify(env, tr.event(event), tr.spec.Routes, store.TaskChange{})
	}
}

// watchBlock is the wake-ups of a Watch's blocks.
func (t *Manager) watchBlock(w *watchState) func(b *api.Blocked, event string) {
	return func(b *api.Blocked, event string) {
		env := w.envelope(api.CallbackBlocked, api.CallbackAgentBlocked, b.Reason, t.now())
		if strings.HasPrefix(event, "limit_reset:") {
			env = w.envelope(api.CallbackProgress, api.CallbackLimitReset, b.Reason, t.now())
		}
		env.Blocked = b
		t.notes.notify(env, event, w.rec.Routes, store.TaskChange{})
	}
}
