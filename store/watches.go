package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Watch is a Terminal Watch (seed 003 "User-Selected Terminal Watch"): an
// observation of one exact terminal and process incarnation, read-only,
// with either an exact native task anchor or the terminal's activity.
type Watch struct {
	V          int    `json:"v"`
	ID         string `json:"id"` // watch_...
	TerminalID string `json:"terminal_id"`
	Mode       string `json:"mode"`       // exact_task, terminal_activity
	Confidence string `json:"confidence"` // exact, best_effort
	// State: active, settled, invalidated, expired, stopped.
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	// Incarnation is the process incarnation the Watch observes; a
	// different one invalidates it.
	Incarnation string `json:"incarnation"`
	Agent       string `json:"agent,omitempty"`
	Cwd         string `json:"cwd,omitempty"`
	// Anchor is the native task of an exact_task Watch.
	Anchor   *TaskAnchor `json:"anchor,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`
	// Controller asked for the Watch; Routes are the route names frozen
	// at creation (configuration, never a request's argument).
	Controller string   `json:"controller,omitempty"`
	Routes     []string `json:"routes,omitempty"`
	Revision   uint64   `json:"revision"`
	// SawActivity: a terminal_activity Watch observed working or
	// awaiting_approval in its epoch (it settles only after that).
	SawActivity bool `json:"saw_activity,omitempty"`
	// BindingGen is the terminal's binding generation when a
	// terminal_activity Watch began: a session file that appears or moves
	// after it is activity too (a prompt the agent took, however fast).
	BindingGen   uint64    `json:"binding_generation,omitempty"`
	LastActivity time.Time `json:"last_activity,omitzero"`
	Created      time.Time `json:"created"`
	Deadline     time.Time `json:"deadline"`
	SettledAt    time.Time `json:"settled_at,omitzero"`
}

// TaskAnchor is an exact native task: the bound file's identity, the
// binding generation and the byte boundary the task starts at, and the
// native turn once known. Any drift of these invalidates the Watch.
type TaskAnchor struct {
	Agent      string `json:"agent"`
	SessionID  string `json:"session_id"`
	Path       string `json:"path"`
	FileDev    uint64 `json:"file_dev"`
	FileIno    uint64 `json:"file_ino"`
	Generation uint64 `json:"binding_generation"`
	Start      int64  `json:"start"` // evidence before this offset is the past
	TurnID     string `json:"turn_id,omitempty"`
}

const watchSchema = 1

// Watch reads one Watch.
func (s *Store) Watch(id string) (Watch, error) {
	return getAs[Watch](s, watchKey(id), watchSchema, "watch "+id)
}

// Watches lists every Watch in id order.
func (s *Store) Watches() ([]Watch, error) {
	return listAs[Watch](s, kindWatch, watchSchema, nil)
}

// TaskChange is one atomic write of the monitors: Watches to put, new
// notifications to enqueue and events to append.
type TaskChange struct {
	Watches []Watch
	// Notifications are enqueued only if their id is new: an id derived
	// from the same subject and event is the same logical notification,
	// and a restarted monitor that observes the event again writes nothing.
	Notifications []Notification
	Events        []Event
}

// ApplyTasks writes c in one synced batch and returns the notifications it
// actually enqueued and the events with their sequence numbers.
func (s *Store) ApplyTasks(c TaskChange) (added []Notification, evs []Event, err error) {
	if err := s.lock(); err != nil {
		return nil, nil, err
	}
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	var errs []error
	for _, w := range c.Watches {
		w.V = watchSchema
		v, err := encode(w)
		errs = append(errs, err, b.Set(watchKey(w.ID), v, nil))
	}
	now := s.opts.Now()
	for _, n := range c.Notifications {
		if _, err := s.get(outboxKey(n.ID)); err == nil {
			continue
		} else if !errors.Is(err, ErrNotFound) {
			return nil, nil, err
		}
		if n.State == "" {
			n.State = NtfPending
		}
		if n.Created.IsZero() {
			n.Created = now
		}
		if n.NextAt.IsZero() {
			n.NextAt = n.Created
		}
		n.Updated = now
		errs = append(errs, putNotification(b, n))
		added = append(added, n)
	}
	evs, errs = putEvents(b, c.Events, s.nextSeq, now, errs)
	seq := s.nextSeq + uint64(len(evs))
	if err := errors.Join(errs...); err != nil {
		return nil, nil, fmt.Errorf("store: apply tasks: %w", err)
	}
	// Sync: a notification enqueued here is a promise to deliver it.
	if err := s.commit(b, pebble.Sync); err != nil {
		return nil, nil, fmt.Errorf("store: apply tasks: %w", err)
	}
	s.nextSeq = seq
	s.lastSeq.Store(seq - 1)
	return added, evs, nil
}
