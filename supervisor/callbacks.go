package supervisor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
)

// outbox delivers the store's notifications through the configured
// routes. It is the only writer of claims and outcomes. Its schedule is in
// memory (loaded from the store at start, fed by enqueues); the store
// decides every transition, so a stale schedule entry costs one refused
// claim, never a second send.
type outbox struct {
	s      *Supervisor
	cfg    CallbackConfig
	lg     *slog.Logger
	owner  string // this daemon instance (claims name it)
	routes map[string]sender
	wake   chan struct{}

	mu      sync.Mutex // a leaf lock: guards the fields below
	due     map[string]time.Time
	running map[string]bool
	// observers get every recorded outcome (tests, benchmarks).
	observers []func(store.Notification)
}

// leaseSlack is added to a route's timeout for a claim's lease.
const leaseSlack = 30 * time.Second

func newOutbox(s *Supervisor) *outbox {
	var b [8]byte
	_, _ = rand.Read(b[:])
	o := &outbox{s: s, cfg: s.cfg.Callbacks, lg: s.lg.With("component", "callbacks"), owner: hex.EncodeToString(b[:]),
		routes: map[string]sender{}, wake: make(chan struct{}, 1), due: map[string]time.Time{}, running: map[string]bool{}}
	for _, r := range o.cfg.Routes {
		switch r.Kind {
		case RouteCommand:
			o.routes[r.Name] = commandRoute{cfg: r}
		case RouteWebhook:
			o.routes[r.Name] = newWebhookRoute(r)
		case RouteTmux:
			o.routes[r.Name] = tmuxRoute{cfg: r, s: s}
		}
	}
	return o
}

func (o *outbox) route(name string) (RouteConfig, bool) {
	for _, r := range o.cfg.Routes {
		if r.Name == name {
			return r, true
		}
	}
	return RouteConfig{}, false
}

// observe registers fn for every recorded outcome.
func (o *outbox) observe(fn func(store.Notification)) {
	o.mu.Lock()
	o.observers = append(o.observers, fn)
	o.mu.Unlock()
}

// schedule adds notifications to the schedule at their due time.
func (o *outbox) schedule(ns ...store.Notification) {
	o.mu.Lock()
	for _, n := range ns {
		if !n.Final() && n.State != store.NtfInFlight {
			o.due[n.ID] = n.NextAt
		}
	}
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// run delivers until ctx ends; deliveries in flight then finish (each
// bounded by its route's timeout) before run returns, so that their
// outcomes are recorded rather than left to the next start.
func (o *outbox) run(ctx context.Context) error {
	now := o.s.cfg.Now()
	if _, err := o.s.st.ReleaseOrphans(o.owner, now); err != nil {
		return fmt.Errorf("supervisor: outbox: %w", err)
	}
	open, err := o.s.st.Notifications(func(n *store.Notification) bool { return !n.Final() })
	if err != nil {
		return fmt.Errorf("supervisor: outbox: %w", err)
	}
	o.schedule(open...)
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
			wait = max(next.Sub(o.s.cfg.Now()), 0)
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
func (o *outbox) dispatch(ctx context.Context, jobs chan<- string) (next time.Time, ok bool) {
	for {
		now := o.s.cfg.Now()
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
func (o *outbox) deliver(ctx context.Context, id string) {
	defer func() {
		o.mu.Lock()
		delete(o.running, id)
		o.mu.Unlock()
	}()
	if ctx.Err() != nil {
		return // parked: the next start sends it
	}
	now := o.s.cfg.Now()
	rc, known := o.route(o.routeOf(id))
	lease := now.Add(DefaultRouteTimeout + leaseSlack)
	if known {
		lease = now.Add(rc.Timeout + leaseSlack)
	}
	n, err := o.s.st.Claim(id, o.owner, now, lease)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) {
			o.lg.Error("claim", "notification", id, "err", err)
		}
		return
	}
	fault.Point("outbox.after_claim")
	var d delivery
	if r := o.routes[n.Route]; r == nil {
		d = delivery{store.NtfPermanent, "route not configured"}
	} else {
		// The send outlives a stopping daemon (bounded by the route's
		// timeout) so that its outcome is recorded, not guessed.
		d = r.send(context.WithoutCancel(ctx), &n)
	}
	end := o.s.cfg.Now()
	attempt := len(n.Attempts)
	var nextAt time.Time
	if d.outcome == store.NtfRetryable && attempt < o.cfg.MaxAttempts {
		nextAt = end.Add(o.cfg.backoff(attempt))
	}
	n, err = o.s.st.Outcome(id, o.owner, attempt, d.outcome, d.detail, end, nextAt)
	if err != nil {
		o.lg.Error("record callback outcome", "notification", id, "err", err)
		return
	}
	fault.Point("outbox.after_outcome")
	o.lg.Info("callback", "notification", id, "route", n.Route, "type", n.Type, "event", n.Event,
		"attempt", attempt, "outcome", d.outcome, "detail", d.detail)
	if !nextAt.IsZero() {
		o.schedule(n)
	}
	o.mu.Lock()
	obs := append([]func(store.Notification){}, o.observers...)
	o.mu.Unlock()
	for _, fn := range obs {
		fn(n)
	}
}

// routeOf reads a notification's route name (for the lease length).
func (o *outbox) routeOf(id string) string {
	n, err := o.s.st.Notification(id)
	if err != nil {
		return ""
	}
	return n.Route
}

// notificationIDs derive a logical notification's idempotency key and its
// per-route id from the subject and the event identity: the same event
// observed again (after a restart, by a second pass) derives the same
// ids, and the store enqueues an id once.
func notificationIDs(secret []byte, subject, event, route string) (id, key string) {
	return "ntf_" + derive(secret, "notification", subject, event, route),
		"akk-" + derive(secret, "idempotency", subject, event)
}

// buildNotifications freezes one envelope per route for an event of a
// subject.
func (s *Supervisor) buildNotifications(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	subject := env.WatchID
	if env.TaskKind == taskManagedTurn {
		subject = env.TurnID
	}
	var out []store.Notification
	for _, r := range routes {
		id, key := notificationIDs(s.secret, subject, event, r)
		e := env
		e.V, e.Schema, e.NotificationID, e.IdempotencyKey = 1, api.CallbackSchema, id, key
		body, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("supervisor: envelope: %w", err)
		}
		n := store.Notification{ID: id, Subject: subject, TerminalID: env.TerminalID, Type: env.Type, Event: event,
			IdempotencyKey: key, Route: r, Envelope: body, Created: env.Time}
		if env.Interaction != nil {
			n.Interaction = env.Interaction.InteractionID
		}
		out = append(out, n)
	}
	return out, nil
}

// commitTasks writes a monitors' change with the store writer held, wakes
// the event followers and schedules what was enqueued.
func (s *Supervisor) commitTasks(ch store.TaskChange) ([]store.Notification, error) {
	s.writeMu.Lock()
	added, evs, err := s.st.ApplyTasks(ch)
	if err == nil && len(evs) > 0 {
		s.wakeFollowers()
	}
	s.writeMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("supervisor: record task: %w", err)
	}
	if len(added) > 0 && s.tasks != nil {
		s.tasks.out.schedule(added...)
	}
	return added, nil
}
