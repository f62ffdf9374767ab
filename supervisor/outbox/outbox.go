package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
)

// Outbox delivers the store's notifications through the configured
// routes. It is the only writer of claims and outcomes. Its schedule is in
// memory (loaded from the store at start, fed by Schedule); the store
// decides every transition, so a stale schedule entry costs one refused
// claim, never a second send.
type Outbox struct {
	cfg    Config
	st     *store.Store
	now    func() time.Time
	lg     *slog.Logger
	owner  string // this daemon instance (claims name it)
	routes map[string]Route
	wake   chan struct{}

	mu      sync.Mutex // a leaf lock: guards the fields below
	due     map[string]time.Time
	running map[string]bool
	// observers get every recorded outcome (tests, benchmarks).
	observers []func(store.Notification)
}

// leaseSlack is added to a route's timeout for a claim's lease.
const leaseSlack = 30 * time.Second

// Options are an Outbox's dependencies.
type Options struct {
	Config Config // defaults filled by New
	Store  *store.Store
	Logger *slog.Logger
	Now    func() time.Time // nil: time.Now
	// Sessions finds a terminal's tmux session (tmux and terminal routes).
	Sessions Sessions
	// Places names a terminal's agent and place for a person's routes
	// (nil: notices name neither).
	Places Places
}

// New prepares an outbox; Run delivers.
func New(o Options) *Outbox {
	var b [8]byte
	_, _ = rand.Read(b[:])
	o.Config.EnsureDefaults()
	if o.Now == nil {
		o.Now = time.Now
	}
	ob := &Outbox{cfg: o.Config, st: o.Store, now: o.Now, lg: o.Logger.With("component", "callbacks"),
		owner: hex.EncodeToString(b[:]), routes: map[string]Route{}, wake: make(chan struct{}, 1),
		due: map[string]time.Time{}, running: map[string]bool{}}
	for _, r := range ob.cfg.Routes {
		switch r.Kind {
		case RouteCommand:
			ob.routes[r.Name] = commandRoute{cfg: r}
		case RouteWebhook:
			ob.routes[r.Name] = newWebhookRoute(r, o.Places)
		case RouteOpenClaw:
			ob.routes[r.Name] = newOpenClawRoute(r)
		case RouteTmux:
			ob.routes[r.Name] = tmuxRoute{cfg: r, sessions: o.Sessions}
		case RouteDesktop:
			ob.routes[r.Name] = newDesktopRoute(r, o.Places)
		case RouteTerminal:
			ob.routes[r.Name] = terminalRoute{cfg: r, sessions: o.Sessions, places: o.Places}
		}
	}
	return ob
}

// Observe registers fn for every recorded outcome (tests, benchmarks).
func (o *Outbox) Observe(fn func(store.Notification)) {
	o.mu.Lock()
	o.observers = append(o.observers, fn)
	o.mu.Unlock()
}

// Schedule adds notifications to the schedule at their due time.
func (o *Outbox) Schedule(ns ...store.Notification) {
	o.mu.Lock()
	for _, n := range ns {
		if !n.Final() && n.State != store.NtfInFlight {
			// The wall clock, as the store compares (a monotonic reading
			// would call it due while the store does not).
			o.due[n.ID] = n.NextAt.Round(0)
		}
	}
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends; deliveries in flight then finish (each
// bounded by its route's timeout) before run returns, so that their
// outcomes are recorded rather than left to the next start.
func (o *Outbox) Run(ctx context.Context) error {
	now := o.now()
	if _, err := o.st.ReleaseOrphans(o.owner, now); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	open, err := o.st.Notifications(func(n *store.Notification) bool { return !n.Final() })
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	o.Schedule(open...)
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range o.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				o.deliver(ctx, id)
			}
		}()
	}
	defer func() { close(jobs); wg.Wait() }()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next, ok := o.dispatch(ctx, jobs)
		if !ok {
			return nil
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(o.now()), 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-o.wake:
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

// dispatch hands every due notification to a worker and returns the next
// due time (zero: none). ok is false when ctx ended.
func (o *Outbox) dispatch(ctx context.Context, jobs chan<- string) (next time.Time, ok bool) {
	for {
		now := o.now().Round(0)
		id := ""
		next = time.Time{}
		o.mu.Lock()
		for nid, at := range o.due {
			if o.running[nid] {
				continue
			}
			if !at.After(now) {
				id = nid
				break
			}
			if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		if id != "" {
			delete(o.due, id)
			o.running[id] = true
		}
		o.mu.Unlock()
		if id == "" {
			return next, true
		}
		select {
		case jobs <- id:
		case <-ctx.Done():
			return time.Time{}, false
		}
	}
}

// deliver claims one notification, sends it and records the outcome.
func (o *Outbox) deliver(ctx context.Context, id string) {
	defer func() {
		o.mu.Lock()
		delete(o.running, id)
		o.mu.Unlock()
	}()
	if ctx.Err() != nil {
		return // parked: the next start sends it
	}
	now := o.now()
	rc, known := o.cfg.Route(o.routeOf(id))
	lease := now.Add(DefaultRouteTimeout + leaseSlack)
	if known {
		lease = now.Add(rc.Timeout + leaseSlack)
	}
	n, err := o.st.Claim(id, o.owner, now, lease)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) {
			o.lg.Error("claim", "notification", id, "err", err)
			return
		}
		// Not due by the store's reading (another owner's lease, or a
		// due time this clock has not reached: the wall clock stepped
		// back): look again when the store says, never drop it. A
		// dropped one waited for the next start (a Gateway's wake-up
		// never retried after its 8th attempt in a CI run).
		if cur, err := o.st.Notification(id); err == nil {
			o.Schedule(cur)
		}
		return
	}
	fault.Point("outbox.after_claim")
	var d Delivery
	if r := o.routes[n.Route]; r == nil {
		d = Delivery{Outcome: store.NtfPermanent, Detail: "route not configured"}
	} else {
		// The send outlives a stopping daemon (bounded by the route's
		// timeout) so that its outcome is recorded, not guessed.
		d = r.Send(context.WithoutCancel(ctx), &n)
	}
	end := o.now()
	attempt := len(n.Attempts)
	var nextAt time.Time
	if d.Outcome == store.NtfRetryable && attempt < o.cfg.MaxAttempts {
		nextAt = end.Add(max(o.cfg.Backoff(attempt), d.RetryAfter))
	}
	n, err = o.st.Outcome(id, o.owner, attempt, d.Outcome, d.Detail, end, nextAt)
	if err != nil {
		o.lg.Error("record callback outcome", "notification", id, "err", err)
		return
	}
	fault.Point("outbox.after_outcome")
	o.lg.Info("callback", "notification", id, "route", n.Route, "type", n.Type, "event", n.Event,
		"attempt", attempt, "outcome", d.Outcome, "detail", d.Detail)
	if !nextAt.IsZero() {
		o.Schedule(n)
	}
	o.mu.Lock()
	obs := append([]func(store.Notification){}, o.observers...)
	o.mu.Unlock()
	for _, fn := range obs {
		fn(n)
	}
}

// routeOf reads a notification's route name (for the lease length).
func (o *Outbox) routeOf(id string) string {
	n, err := o.st.Notification(id)
	if err != nil {
		return ""
	}
	return n.Route
}
