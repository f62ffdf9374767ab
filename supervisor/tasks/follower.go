package tasks

import (
	"iter"
	"log/slog"
	"strconv"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// A follower follows one terminal for someone: a Watch for its
// controller (watches.go), a managed Turn for its owner (turns.go), or
// the person's notices of a terminal neither follows (person.go).
//
// The Manager's one pass (Manager.process) hands every follower of a
// terminal each observation of it and each event of its bound file, then
// runs every follower's timers. What a follower tells goes out through
// the one commit-and-schedule path (notifier.go); what it tells of the
// prompts and blocks on its screen is one piece of code for all three
// (alerts.go). A follower that ends drops itself from the followers
// before it tells its end; the pass then runs nothing more of it.
type follower interface {
	// voice is whom it tells and how its notifications read.
	voice() voice
	// alerts is what it told of its terminal's prompts and blocks.
	alerts() *alerts
	// observed folds one observation of its terminal.
	observed(k *kit, o terminal.Observation)
	// evidence folds one event of its terminal's bound file, or the file
	// bound afresh (fileBound: it reads again what the file holds).
	evidence(k *kit, e boundEvidence)
	// due runs its timers at now and returns when it must look again
	// (zero: nothing due).
	due(k *kit, now time.Time) time.Time
}

// voice is how a follower's notifications read and whom they reach.
type voice struct {
	// subject names it in the store: a watch_id, a turn_id, or the
	// terminal_id of a person's notices.
	subject string
	routes  []string
	// base is its envelopes' identity: task kind, ids, confidence.
	base api.CallbackEnvelope
	// round: a Turn that answers continued names its later rounds' events
	// apart, so that they are not taken for an earlier round's (their ids
	// derive from the name).
	round int
	// answers: a pending prompt wakes it as interaction_required (its
	// controller may answer it); approves: a permission too. Any other
	// prompt is interaction_manual_required (a person answers in the
	// pane).
	answers, approves bool
	// ownInterrupts: an interrupt akk caused itself is no news to it (a
	// Turn's own end says it).
	ownInterrupts bool
}

// envelope is the callback envelope of one of its notifications.
func (v voice) envelope(typ, event, reason string, at time.Time) api.CallbackEnvelope {
	env := v.base
	env.Type, env.Event, env.Reason, env.Time = typ, event, reason, at
	return env
}

// event is the identity the store enqueues a notification under once.
func (v voice) event(name string) string {
	if v.round == 0 {
		return name
	}
	return name + "@" + strconv.Itoa(v.round)
}

// asks is the callback event of a prompt it tells of.
func (v voice) asks(in *contract.Interaction) string {
	if v.answers && in.State == contract.StatePending && (v.approves || in.Kind != contract.KindPermission) {
		return api.CallbackInteractionRequired
	}
	return api.CallbackInteractionManual
}

// kit is what a follower may use while it looks, split by concern: the
// configuration and the clock, the commit path, each terminal's latest
// observation, the followers (to drop itself, or to see who else follows
// its terminal), the host, the Turns' ledger and the store. The Manager
// holds one and lends it under opMu; nothing in it points back to the
// Manager.
type kit struct {
	cfg    Config
	now    func() time.Time
	notes  *notifier
	last   lastSeen
	fs     *followers
	host   Host
	ledger TurnLedger // nil: no managed Turns
	st     *store.Store
	lg     *slog.Logger
}

// say tells one of a follower's events: env, enqueued under the event
// identity name for its routes, written with the records ch changes.
func (k *kit) say(v voice, env api.CallbackEnvelope, name string, ch store.TaskChange) {
	k.notes.notify(env, v.event(name), v.routes, ch)
}

// lastSeen is each terminal's latest observation: what a follower reads
// of its terminal between passes.
type lastSeen map[string]terminal.Observation

// poke asks a terminal's pane for a fresh recognition: a quiet pane runs
// no pass by itself.
func (l lastSeen) poke(terminalID string) {
	if o, ok := l[terminalID]; ok && o.Pane != nil {
		o.Pane.Poke()
	}
}

// followers is everything the Manager follows.
type followers struct {
	watches map[string]*watchState
	turns   map[string]*turnState
	persons map[string]*personState // by terminal_id
}

func newFollowers() *followers {
	return &followers{watches: map[string]*watchState{}, turns: map[string]*turnState{}, persons: map[string]*personState{}}
}

// on yields a terminal's followers in the order a pass visits them: its
// Watches, its Turns, then the person's notices, which tell only what
// none of the others still follows.
func (fs *followers) on(terminalID string) iter.Seq[follower] {
	return func(yield func(follower) bool) {
		for _, w := range fs.watches {
			if w.rec.TerminalID == terminalID && !yield(w) {
				return
			}
		}
		for _, tr := range fs.turns {
			if tr.spec.TerminalID == terminalID && !yield(tr) {
				return
			}
		}
		if p := fs.persons[terminalID]; p != nil {
			yield(p)
		}
	}
}

// all yields every follower, in the same order.
func (fs *followers) all() iter.Seq[follower] {
	return func(yield func(follower) bool) {
		for _, w := range fs.watches {
			if !yield(w) {
				return
			}
		}
		for _, tr := range fs.turns {
			if !yield(tr) {
				return
			}
		}
		for _, p := range fs.persons {
			if !yield(p) {
				return
			}
		}
	}
}

// has says whether f is still followed (it did not end).
func (fs *followers) has(f follower) bool {
	s := f.voice().subject
	return fs.watches[s] == f || fs.turns[s] == f || fs.persons[s] == f
}

// drop stops following a Watch or a Turn.
func (fs *followers) drop(subject string) {
	delete(fs.watches, subject)
	delete(fs.turns, subject)
}

// follows says whether a Watch or a Turn follows the terminal.
func (fs *followers) follows(terminalID string) bool {
	for _, w := range fs.watches {
		if w.rec.TerminalID == terminalID {
			return true
		}
	}
	for _, tr := range fs.turns {
		if tr.spec.TerminalID == terminalID {
			return true
		}
	}
	return false
}

// person is the person's notices of a terminal, made at its first look.
func (fs *followers) person(terminalID string, routes []string) *personState {
	p := fs.persons[terminalID]
	if p == nil {
		p = &personState{terminalID: terminalID, routes: routes}
		fs.persons[terminalID] = p
	}
	return p
}

// soonest is the earlier of two times to look again (zero: none).
func soonest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
