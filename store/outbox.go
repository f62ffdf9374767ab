package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// The durable callbacks outbox (seed 003 "Trusted controller callback
// boundary"). A notification is written once, with a deterministic id, its
// idempotency key, its frozen envelope and the name of its route, and then
// only moves along this state machine:
//
//	pending ──claim──> in_flight ──> accepted
//	   ^                   │    ├──> retryable_failure ──(due or manual retry)──> claim again
//	   │                   │    ├──> permanent_failure   (never retried automatically)
//	   │                   │    └──> uncertain           (never retried automatically)
//	   └── manual retry ───┘ (retryable_failure only)
//	pending, retryable_failure ──withdraw──> withdrawn
//
// A claim is written with pebble.Sync before the send it guards, so a
// crash after the claim leaves an in_flight record whose lease tells a
// restarted daemon that the send may have happened: it is sent again with
// the same idempotency key (transport is at-least-once; the key makes the
// logical notification at-most-once at a receiver that honours it). An
// accepted or uncertain record is never sent again.

// Notification states.
const (
	NtfPending          = "pending"
	NtfInFlight         = "in_flight"
	NtfAccepted         = "accepted"
	NtfRetryable        = "retryable_failure"
	NtfPermanent        = "permanent_failure"
	NtfUncertain        = "uncertain"
	NtfWithdrawn        = "withdrawn"
	ntfInterruptedClaim = "interrupted" // an attempt whose claim expired without an outcome
)

// ErrConflict: the record is not in a state that allows the change (a
// claim of an accepted notification, an outcome for a claim that is not
// the current one, a retry of an uncertain one).
var ErrConflict = errors.New("store: state conflict")

// Attempt is one delivery attempt in a notification's history.
type Attempt struct {
	N     int       `json:"n"`
	Owner string    `json:"owner"` // the claiming daemon instance
	Start time.Time `json:"start"`
	End   time.Time `json:"end,omitzero"`
	// Outcome is "" while the attempt is in flight, else one of accepted,
	// retryable_failure, permanent_failure, uncertain, or "interrupted"
	// when its daemon died before recording an outcome.
	Outcome string `json:"outcome,omitempty"`
	// Detail says why, without secrets: "http 503", "exit 75", "timeout".
	Detail string `json:"detail,omitempty"`
	Manual bool   `json:"manual,omitempty"` // a retry_callback asked for it
}

// Notification is one outbox entry.
type Notification struct {
	V          int    `json:"v"`
	ID         string `json:"id"`      // ntf_...
	Subject    string `json:"subject"` // watch_... or turn_...
	TerminalID string `json:"terminal_id,omitempty"`
	Type       string `json:"type"`  // done, blocked, error, control, progress
	Event      string `json:"event"` // the event identity the id derives from
	// Interaction is the public interaction id of an interaction
	// notification: a manual retry needs it still pending.
	Interaction    string          `json:"interaction,omitempty"`
	IdempotencyKey string          `json:"idempotency_key"`
	Route          string          `json:"route"`
	Envelope       json.RawMessage `json:"envelope"`
	State          string          `json:"state"`
	Attempts       []Attempt       `json:"attempts,omitempty"`
	// NextAt is when a pending or retryable notification is due; zero for
	// a retryable one whose automatic attempts are exhausted.
	NextAt     time.Time `json:"next_at,omitzero"`
	LeaseUntil time.Time `json:"lease_until,omitzero"`
	// ManualRetry: retry_callback requeued it; its next attempt says so.
	ManualRetry bool      `json:"manual_retry,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

const notificationSchema = 1

// Final reports whether no automatic delivery will ever touch n again.
func (n Notification) Final() bool {
	switch n.State {
	case NtfAccepted, NtfPermanent, NtfUncertain, NtfWithdrawn:
		return true
	case NtfRetryable:
		return n.NextAt.IsZero()
	}
	return false
}

// Due reports whether n may be claimed at now: pending or retryable and
// due, or in flight under an expired lease.
func (n Notification) Due(now time.Time) bool {
	switch n.State {
	case NtfPending:
		return !now.Before(n.NextAt)
	case NtfRetryable:
		return !n.NextAt.IsZero() && !now.Before(n.NextAt)
	case NtfInFlight:
		return now.After(n.LeaseUntil)
	}
	return false
}

// Notification reads one notification.
func (s *Store) Notification(id string) (Notification, error) {
	if err := s.lock(); err != nil {
		return Notification{}, err
	}
	defer s.mu.Unlock()
	return s.notification(id)
}

func (s *Store) notification(id string) (Notification, error) {
	return getLocked[Notification](s, outboxKey(id), notificationSchema, "notification "+id)
}

// Notifications lists every notification that fn keeps (nil: all), in id
// order.
func (s *Store) Notifications(fn func(*Notification) bool) ([]Notification, error) {
	return listAs(s, kindOutbox, notificationSchema, fn)
}

// putNotification writes n (schema set) into b.
func putNotification(b *pebble.Batch, n Notification) error {
	n.V = notificationSchema
	v, err := encode(n)
	if err != nil {
		return err
	}
	return b.Set(outboxKey(n.ID), v, nil)
}

// update reads a notification, lets fn change it, and writes it back
// synced. fn returns ErrConflict (wrapped) to refuse.
func (s *Store) updateNotification(id string, fn func(n *Notification) error) (Notification, error) {
	if err := s.lock(); err != nil {
		return Notification{}, err
	}
	defer s.mu.Unlock()
	n, err := s.notification(id)
	if err != nil {
		return Notification{}, err
	}
	if err := fn(&n); err != nil {
		return n, err
	}
	n.Updated = s.opts.Now()
	b := s.db.NewBatch()
	defer b.Close()
	if err := putNotification(b, n); err != nil {
		return n, err
	}
	// Sync: a claim guards a send, an outcome decides whether the
	// notification is ever sent again.
	if err := s.commit(b, pebble.Sync); err != nil {
		return n, fmt.Errorf("store: notification %s: %w", id, err)
	}
	return n, nil
}

// Claim takes a due notification for one delivery attempt by owner (a
// daemon instance) until leaseUntil. The claim is durable (pebble.Sync)
// before Claim returns, so the caller may send. A claim of an in_flight
// record whose lease expired closes its open attempt as interrupted.
func (s *Store) Claim(id, owner string, now, leaseUntil time.Time) (Notification, error) {
	return s.updateNotification(id, func(n *Notification) error {
		if !n.Due(now) {
			return fmt.Errorf("%w: claim %s in state %s", ErrConflict, id, n.State)
		}
		if n.State == NtfInFlight && len(n.Attempts) > 0 {
			a := &n.Attempts[len(n.Attempts)-1]
			if a.Outcome == "" {
				a.Outcome, a.End, a.Detail = ntfInterruptedClaim, now, "lease expired without an outcome"
			}
		}
		n.State, n.LeaseUntil = NtfInFlight, leaseUntil
		n.Attempts = append(n.Attempts, Attempt{N: len(n.Attempts) + 1, Owner: owner, Start: now, Manual: n.ManualRetry})
		n.ManualRetry = false
		return nil
	})
}

// Outcome records the outcome of owner's current attempt. For a
// retryable failure, nextAt is when it is due again (zero: automatic
// attempts are exhausted and only a manual retry sends it again).
func (s *Store) Outcome(id, owner string, attempt int, outcome, detail string, now, nextAt time.Time) (Notification, error) {
	return s.updateNotification(id, func(n *Notification) error {
		if n.State != NtfInFlight || len(n.Attempts) != attempt || n.Attempts[attempt-1].Owner != owner ||
			n.Attempts[attempt-1].Outcome != "" {
			return fmt.Errorf("%w: outcome of %s attempt %d: state %s, %d attempts", ErrConflict, id, attempt, n.State, len(n.Attempts))
		}
		switch outcome {
		case NtfAccepted, NtfPermanent, NtfUncertain:
			nextAt = time.Time{}
		case NtfRetryable:
		default:
			return fmt.Errorf("%w: outcome %q", ErrConflict, outcome)
		}
		a := &n.Attempts[attempt-1]
		a.Outcome, a.Detail, a.End = outcome, detail, now
		n.State, n.NextAt, n.LeaseUntil = outcome, nextAt, time.Time{}
		return nil
	})
}

// Requeue makes a retryable failure pending again at now (retry_callback),
// keeping its envelope, key, route and attempt history. Every other state
// is refused: an accepted one is never replayed, an in-flight one is
// being sent, an uncertain or permanent one must not be retried.
func (s *Store) Requeue(id string, now time.Time) (Notification, error) {
	return s.updateNotification(id, func(n *Notification) error {
		if n.State != NtfRetryable {
			return fmt.Errorf("%w: retry %s in state %s", ErrConflict, id, n.State)
		}
		n.State, n.NextAt, n.ManualRetry = NtfPending, now, true
		return nil
	})
}

// Withdraw withdraws every pending or retryable notification of subject
// (unwatch, close) in one synced batch and returns them. In-flight ones
// cannot be recalled: their outcome stays visible.
func (s *Store) Withdraw(subject string, now time.Time) ([]Notification, error) {
	return s.rewriteNotifications("withdraw "+subject, func(n *Notification) bool {
		if n.Subject != subject || (n.State != NtfPending && n.State != NtfRetryable) {
			return false
		}
		n.State, n.NextAt, n.Updated = NtfWithdrawn, time.Time{}, now
		return true
	})
}

// ReleaseOrphans makes every in_flight notification claimed by another
// owner pending again at now, closing its open attempt as interrupted. The
// daemon calls it at start: it holds the store's lock, so those owners are
// dead, and whether their send happened is unknown; the notification is
// then sent again with the same idempotency key (at-least-once). Accepted
// and uncertain records are untouched: they are never sent again.
func (s *Store) ReleaseOrphans(owner string, now time.Time) ([]Notification, error) {
	return s.rewriteNotifications("release orphans", func(n *Notification) bool {
		if n.State != NtfInFlight || len(n.Attempts) == 0 || n.Attempts[len(n.Attempts)-1].Owner == owner {
			return false
		}
		a := &n.Attempts[len(n.Attempts)-1]
		a.Outcome, a.End, a.Detail = ntfInterruptedClaim, now, "daemon ended before an outcome"
		n.State, n.NextAt, n.LeaseUntil, n.Updated = NtfPending, now, time.Time{}, now
		return true
	})
}

// rewriteNotifications applies change to every notification, writes the
// ones it changed in one synced batch and returns them.
func (s *Store) rewriteNotifications(what string, change func(*Notification) bool) ([]Notification, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out, err := listLocked(s, kindOutbox, notificationSchema, change)
	if err != nil || len(out) == 0 {
		return out, err
	}
	b := s.db.NewBatch()
	defer b.Close()
	for _, n := range out {
		if err := putNotification(b, n); err != nil {
			return nil, err
		}
	}
	if err := s.commit(b, pebble.Sync); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}
