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

// Manager runs the managed Turn monitors, the Terminal Watches and the
// person's notices (its followers, follower.go) in one goroutine, fed by
// the pane monitors' passes and the binder's evidence; what it notifies
// goes to its Scheduler.
//
// Its locks keep the daemon's order (supervisor/doc.go, "Lock order"):
// opMu before any terminal lock, mu a leaf.
type Manager struct {
	secret []byte                      // derives watch ids
	routes func(owner string) []string // the routes of an owner's new Watches and Turns
	// personRoutes get the notices of terminals no Watch or Turn follows
	// (person.go).
	personRoutes []string
	wake         chan struct{}

	mu  sync.Mutex // a leaf lock: guards the queues
	obs []terminal.Observation
	evs []boundEvidence

	opMu sync.Mutex // serialises processing with the operations: guards kit
	// kit is the followers and what they use: the commit path, each
	// terminal's latest observation, the ledger (follower.go).
	kit kit
}

// maxQueued bounds each queue; a pane that outpaces the task goroutine
// loses its oldest observations (the next pass brings the state again).
const maxQueued = 4096

// New makes a Manager (its Config with defaults) whose ledger is the
// store's Turn records; Run runs it.
func New(o Options) *Manager {
	o.Config.ensureDefaults()
	lg := o.Logger.With("component", "tasks")
	return &Manager{secret: o.Secret, routes: o.Callbacks.RoutesFor, personRoutes: o.Callbacks.PersonRoutes(),
		wake: make(chan struct{}, 1),
		kit: kit{cfg: o.Config, now: o.Now, host: o.Host, st: o.Store, lg: lg,
			notes:  &notifier{host: o.Host, out: o.Outbox, secret: o.Secret, lg: lg},
			last:   lastSeen{},
			fs:     newFollowers(),
			ledger: storeLedger{st: o.Store, host: o.Host}}}
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
			wait = max(next.Sub(t.kit.now()), time.Millisecond)
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

// load brings the active Watches and the ledger's open Turns back after a
// restart. What a Turn's agent wrote while no daemon ran is read now: the
// binder's stream starts at the file's end.
func (t *Manager) load() error {
	ws, err := t.kit.st.Watches()
	if err != nil {
		return err
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	for _, w := range ws {
		if w.State == WatchActive {
			t.kit.fs.watches[w.ID] = &watchState{rec: w, outAt: t.kit.now()}
		}
	}
	if t.kit.ledger == nil {
		return nil
	}
	specs, err := t.kit.ledger.OpenTurns()
	if err != nil {
		return err
	}
	for _, sp := range specs {
		t.monitor(sp).catchUp(&t.kit)
	}
	return nil
}

// process is the one pass over the followers: it drains the queues,
// hands each observation and each event of a bound file to the followers
// of its terminal, runs every follower's timers and the alerts come due,
// and returns when it next has something to check.
func (t *Manager) process() time.Time {
	t.mu.Lock()
	obs, evs := t.obs, t.evs
	t.obs, t.evs = nil, nil
	t.mu.Unlock()
	t.opMu.Lock()
	defer t.opMu.Unlock()
	k := &t.kit
	for _, o := range obs {
		k.last[o.TerminalID] = o
		if len(t.personRoutes) > 0 {
			k.fs.person(o.TerminalID, t.personRoutes)
		}
		for f := range k.fs.on(o.TerminalID) {
			f.observed(k, o)
		}
	}
	for _, e := range evs {
		for f := range k.fs.on(e.terminalID) {
			f.evidence(k, e)
		}
	}
	now := k.now()
	var next time.Time
	for f := range k.fs.all() {
		next = soonest(next, f.due(k, now))
		if k.fs.has(f) {
			next = soonest(next, k.remind(f, now))
		}
	}
	return next
}
