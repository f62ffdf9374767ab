package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Event is one entry of the append-only history. Seq is given by the store,
// without gaps, in commit order; it is never reused, even after old events
// are trimmed.
type Event struct {
	V          int               `json:"v"`
	Seq        uint64            `json:"seq"`
	Time       time.Time         `json:"time"`
	Type       string            `json:"type"`
	TerminalID string            `json:"terminal_id,omitempty"`
	Attrs      map[string]string `json:"attrs,omitempty"`
}

const eventSchema = 1

// loadEventBounds finds the first kept and the next sequence numbers.
func (s *Store) loadEventBounds() error {
	return s.h.guard(func() error { return s.readError(s.loadEventBounds1()) })
}

func (s *Store) loadEventBounds1() error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix(kindEvent), UpperBound: prefixEnd(kindEvent)})
	if err != nil {
		return fmt.Errorf("store: events: %w", err)
	}
	defer it.Close()
	s.first, s.nextSeq = 1, 1
	if it.First() {
		if s.first, err = parseEventKey(it.Key()); err != nil {
			return err
		}
	}
	if it.Last() {
		last, err := parseEventKey(it.Key())
		if err != nil {
			return err
		}
		s.nextSeq = last + 1
	}
	return nil
}

// LastSeq is the sequence number of the newest event (0: none yet).
func (s *Store) LastSeq() uint64 { return s.lastSeq.Load() }

// Events returns up to limit events with Seq > after, oldest first
// (limit <= 0: all).
func (s *Store) Events(after uint64, limit int) ([]Event, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []Event
	err := s.h.guard(func() error {
		var err error
		out, err = s.events(after, limit)
		return s.readError(err)
	})
	return out, err
}

func (s *Store) events(after uint64, limit int) ([]Event, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: eventKey(after + 1), UpperBound: prefixEnd(kindEvent)})
	if err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	defer it.Close()
	var out []Event
	for it.First(); it.Valid() && (limit <= 0 || len(out) < limit); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("store: events: %w", err)
		}
		var e Event
		if err := decode(v, eventSchema, &e); err != nil {
			return nil, fmt.Errorf("store: %x: %w", it.Key(), err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Change is one atomic write: records to put and events to append. Either
// all of it is in the store after Apply or none.
type Change struct {
	Terminals []Terminal
	Bindings  []Binding
	Events    []Event
	// DeleteTerminals removes terminals (and their bindings).
	DeleteTerminals []string
	// Dispatch records (dispatch.go).
	Reservations []Reservation
	Fences       []Fence
	Turns        []Turn
}

// Empty reports whether c writes nothing.
func (c *Change) Empty() bool {
	return len(c.Terminals)+len(c.Bindings)+len(c.Events)+len(c.DeleteTerminals)+
		len(c.Reservations)+len(c.Fences)+len(c.Turns) == 0
}

// Apply writes c in one synced batch and returns its
// events with their sequence numbers and times. History beyond the
// store's EventLimit is trimmed in the same batch.
//
// Always pebble.Sync: an event a follower has seen must survive a crash,
// a state recorded with its event is what keeps a restarted daemon from
// emitting it again, and a reservation must be on disk before the input
// it guards.
func (s *Store) Apply(c Change) ([]Event, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if c.reserves() {
		if err := s.roomFor(); err != nil {
			return nil, err
		}
	}
	b := s.db.NewBatch()
	defer b.Close()
	var errs []error
	for _, t := range c.Terminals {
		t.V = terminalSchema
		v, err := encode(t)
		errs = append(errs, err, b.Set(terminalKey(t.ID), v, nil))
	}
	for _, bd := range c.Bindings {
		bd.V = bindingSchema
		v, err := encode(bd)
		errs = append(errs, err, b.Set(bindingKey(bd.TerminalID), v, nil))
	}
	for _, id := range c.DeleteTerminals {
		errs = append(errs, b.Delete(terminalKey(id), nil), b.Delete(bindingKey(id), nil))
	}
	errs = append(errs, c.putDispatch(b)...)
	out, errs := putEvents(b, c.Events, s.nextSeq, s.opts.Now(), errs)
	seq := s.nextSeq + uint64(len(out))
	first := s.first
	if keep := uint64(s.opts.EventLimit); seq-first > keep {
		first = seq - keep
		// A steady state trims one or two events per append: point
		// deletes then, a range tombstone only for a big cut.
		if first-s.first <= 64 {
			for q := s.first; q < first; q++ {
				errs = append(errs, b.Delete(eventKey(q), nil))
			}
		} else {
			errs = append(errs, b.DeleteRange(eventKey(s.first), eventKey(first), nil))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("store: apply: %w", err)
	}
	if err := s.commit(b, pebble.Sync); err != nil {
		return nil, fmt.Errorf("store: apply: %w", err)
	}
	s.nextSeq, s.first = seq, first
	s.lastSeq.Store(seq - 1)
	if n := len(c.Reservations); n > 0 {
		s.writeMark(c.Reservations[n-1].ID)
	}
	return out, nil
}

// putEvents adds evs to b with the sequence numbers from seq on (and now
// as the time of those without one), appending b's errors to errs; it
// returns the events as written.
func putEvents(b *pebble.Batch, evs []Event, seq uint64, now time.Time, errs []error) ([]Event, []error) {
	out := make([]Event, len(evs))
	for i, e := range evs {
		e.V, e.Seq = eventSchema, seq+uint64(i)
		if e.Time.IsZero() {
			e.Time = now
		}
		v, err := encode(e)
		errs = append(errs, err, b.Set(eventKey(e.Seq), v, nil))
		out[i] = e
	}
	return out, errs
}

// reserves: c writes a new reservation (one that guards input to come).
func (c *Change) reserves() bool {
	for _, r := range c.Reservations {
		if r.Stage == StageReserved {
			return true
		}
	}
	return false
}
