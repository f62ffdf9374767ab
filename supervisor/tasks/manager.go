package tasks

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Task kinds as the contract shows them.
const (
	TaskManagedTurn = "managed_turn"
	TaskWatch       = "watch"
)

// boundEvidence is one watchers event of a terminal's bound file.
type boundEvidence struct {
	terminalID string
	gen        uint64
	ev         evidence.Event
}

// Host is what the tasks need of the daemon: the journal, the followed
// terminals and the person who may be asked.
type Host interface {
	// Commit writes one change (a Turn's end), synced, and wakes the event
	// followers; CommitTasks the same for Watches, Turns and the
	// notifications they freeze, returning the notifications it enqueued.
	Commit(store.Change) error
	CommitTasks(store.TaskChange) ([]store.Notification, error)
	// Observation is a fresh observation of a followed terminal.
	Observation(terminalID string) (terminal.Observation, bool)
	// TurnSettled: a Turn of the terminal settled (it is no longer the
	// terminal's active Turn).
	TurnSettled(terminalID, turnID string)
	// Asked: a managed Turn shows interaction in (nil: none any more, or
	// the Turn ended); a person may be asked (ask.go).
	Asked(spec TurnSpec, in *contract.Interaction)
}

// Options is what a Manager is built from.
type Options struct {
	Config    Config
	Callbacks outbox.Config // the outbox's routes and retry policy
	Store     *store.Store
	Secret    []byte // derives watch and notification ids
	Now       func() time.Time
	Logger    *slog.Logger
	Host      Host
	// Outbox takes what a commit enqueued for delivery: the outbox, which
	// the root builds and runs beside the Manager.
	Outbox Scheduler
}

// Scheduler delivers notifications the store holds (outbox.Outbox).
type Scheduler interface {
	Schedule(ns ...store.Notification)
}

// Manager runs the managed Turn monitors and the Terminal Watches in
// one goroutine, fed by the pane monitors' passes and the binder's
// evidence; what it notifies goes to its Scheduler.
//
// Its locks keep the daemon's order (supervisor/doc.go, "Lock order"):
// opMu before any terminal lock, mu a leaf.
type Manager struct {
	cfg    Config
	st     *store.Store
	secret []byte
	now    func() time.Time
	routes func(owner string) []string // the routes of an owner's new Watches and Turns
	// personRoutes get the notices of terminals no Watch or Turn follows
	// (person.go).
	personRoutes []string
	host         Host
	// notes is the one commit-and-schedule path (notifier.go).
	notes *notifier
	lg    *slog.Logger
	wake  chan struct{}
	// ledger is the managed Turns' durable side (nil: no managed Turns).
	ledger TurnLedger

	mu  sync.Mutex // a leaf lock: guards the queues
	obs []terminal.Observation
	evs []boundEvidence

	opMu    sync.Mutex // serialises processing with the operations: guards the fields below
	watches map[string]*watchState
	turns   map[string]*turnState
	// lastObs is each terminal's latest observation.
	lastObs map[string]terminal.Observation
	// held is each subject's (turn_id, watch_id) manual_required
	// interaction waiting out manualSettle.
	held map[string]*heldInteraction
	// blocks is each subject's block on screen (blocked.go).
	blocks map[string]*blockState
	// quiet is, per terminal, the interaction on screen when a Watch or
	// Turn last followed it ("" none): not a person's news (person.go).
	quiet map[string]string
}

// manualSettle is how long a manual_required interaction must stay on the
// screen before it wakes the controller. Codex draws its approval dialog
// over several frames, and the live tier saw one of them recognized as a
// permission with reason resized_frame 5 ms before the complete,
// actionable prompt: waking for it would be a second wake-up for one
// prompt. A pending (actionable) interaction comes from an exact profile
// match and wakes at once.
const manualSettle = 250 * time.Millisecond

// heldInteraction is a manual_required interaction not yet notified.
type heldInteraction struct {
	terminalID string
	in         *contract.Interaction
	since      time.Time
	fired      bool
	fire       func(in *contract.Interaction, at time.Time)
}

// interactionSeen wakes the controller of subject for the observation's
// interaction: at once when it is pending, after manualSettle of the same
// interaction otherwise (heldTimer fires it on a quiet screen). The store
// enqueues each (subject, interaction) once, whatever calls fire.
func (t *Manager) interactionSeen(subject string, o terminal.Observation, fire func(in *contract.Interaction, at time.Time)) {
	in := o.Interaction
	h := t.held[subject]
	switch {
	case in == nil:
		delete(t.held, subject)
	case in.State == contract.StatePending:
		delete(t.held, subject)
		fire(in, o.At)
	case h == nil || h.in.InteractionID != in.InteractionID:
		t.held[subject] = &heldInteraction{terminalID: o.TerminalID, in: in, since: o.At, fire: fire}
	case !h.fired && o.At.Sub(h.since) >= manualSettle:
		h.fired = true
		fire(in, o.At)
	}
}

// heldTimer fires a held interaction that is still on the screen once its
// settle time passed, and returns when to look again (zero: nothing
// held).
func (t *Manager) heldTimer(subject string, now time.Time) time.Time {
	h := t.held[subject]
	if h == nil || h.fired {
		return time.Time{}
	}
	due := h.since.Add(manualSettle)
	if now.Before(due) {
		return due
	}
	if o, ok := t.lastObs[h.terminalID]; ok && o.Interaction != nil && o.Interaction.InteractionID == h.in.InteractionID {
		h.fired = true
		h.fire(h.in, now)
	}
	return time.Time{}
}

// maxQueued bounds each queue; a pane that outpaces the task goroutine
// loses its oldest observations (the next pass brings the state again).
const maxQueued = 4096

// New makes a Manager (its Config with defaults) whose ledger is the
// store's Turn records; Run runs it.
func New(o Options) *Manager {
	o.Config.ensureDefaults()
	t := &Manager{cfg: o.Config, st: o.Store, secret: o.Secret, now: o.Now, routes: o.Callbacks.RoutesFor, host: o.Host,
		personRoutes: o.Callbacks.PersonRoutes(),
		lg:           o.Logger.With("component", "tasks"),
		wake:         make(chan struct{}, 1), watches: map[string]*watchState{}, turns: map[string]*turnState{},
		lastObs: map[string]terminal.Observation{}, held: map[string]*heldInteraction{}, blocks: map[string]*blockState{},
		quiet: map[string]string{}}
	t.notes = &notifier{host: o.Host, out: o.Outbox, secret: o.Secret, lg: t.lg}
	t.ledger = storeLedger{st: o.Store, host: o.Host}
	return t
}

func (t *Manager) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// Observe queues a pass's observation. It never blocks.
func (t *Manager) Observe(o terminal.Observation) {
	t.mu.Lock()
	if len(t.obs) >= maxQueued {
		t.obs = t.obs[1:]
	}
	t.obs = append(t.obs, o)
	t.mu.Unlock()
	t.poke()
}

// Evidence queues a bound file's event. It never blocks.
func (t *Manager) Evidence(terminalID string, gen uint64, ev evidence.Event) {
	t.mu.Lock()
	if len(t.evs) >= maxQueued {
		t.evs = t.evs[1:]
	}
	t.evs = append(t.evs, boundEvidence{terminalID: terminalID, gen: gen, ev: ev})
	t.mu.Unlock()
	t.poke()
}

// FileBound queues a terminal's file bound afresh: its Turns and exact
// Watches read what the file already holds (catchUp), in order with the
// evidence that follows. It never blocks.
func (t *Manager) FileBound(terminalID, path string) {
	t.Evidence(terminalID, 0, fileBound{where: evidence.Where{Path: path}})
}

// fileBound is FileBound's place in the evidence queue.
type fileBound struct{ where evidence.Where }

func (f fileBound) At() evidence.Where { return f.where }

// Run loads the active Watches and Turns and processes observations,
// evidence and timers until ctx ends.
func (t *Manager) Run(ctx context.Context) error {
	if err := t.load(); err != nil {
		return err
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next := t.process()
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(t.now()), time.Millisecond)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-t.wake:
		case <-timer.C:
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// load brings the active Watches back after a restart.
func (t *Manager) load() error {
	ws, err := t.st.Watches()
	if err != nil {
		return err
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	for _, w := range ws {
		if w.State == WatchActive {
			t.watches[w.ID] = &watchState{rec: w, outAt: t.now()}
		}
	}
	return t.loadTurns()
}

// process drains the queues, runs the timers and returns when it next
// has something to check.
func (t *Manager) process() time.Time {
	t.mu.Lock()
	obs, evs := t.obs, t.evs
	t.obs, t.evs = nil, nil
	t.mu.Unlock()
	t.opMu.Lock()
	defer t.opMu.Unlock()
	for _, o := range obs {
		t.lastObs[o.TerminalID] = o
		for _, w := range t.watches {
			if w.rec.TerminalID == o.TerminalID {
				t.watchObserved(w, o)
			}
		}
		for _, tr := range t.turns {
			if tr.spec.TerminalID == o.TerminalID {
				t.turnObserved(tr, o)
			}
		}
		t.personObserved(o)
	}
	for _, e := range evs {
		if fb, ok := e.ev.(fileBound); ok {
			t.rebound(e.terminalID, fb.where.Path)
			continue
		}
		for _, w := range t.watches {
			if w.rec.TerminalID == e.terminalID && w.rec.Anchor != nil {
				t.watchEvidence(w, e)
			}
		}
		for _, tr := range t.turns {
			if tr.spec.TerminalID == e.terminalID {
				t.turnEvidence(tr, e)
			}
		}
	}
	now := t.now()
	var next time.Time
	soonest := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	for _, w := range t.watches {
		soonest(t.watchTimers(w, now))
		if t.watches[w.rec.ID] == w {
			soonest(t.heldTimer(w.rec.ID, now))
			soonest(t.resetTimer(w.rec.ID, now, t.watchBlock(w)))
		}
	}
	soonest(t.personTimers(now))
	for _, tr := range t.turns {
		soonest(t.turnTimers(tr, now))
		if t.turns[tr.spec.TurnID] == tr {
			soonest(t.heldTimer(tr.spec.TurnID, now))
			soonest(t.resetTimer(tr.spec.TurnID, now, t.turnBlock(tr)))
		}
	}
	return next
}
