package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The high-water mark: pebble v2 has no WAL recovery mode. It replays a
// WAL up to its first bad record and opens without a word, so a record
// damaged in the middle of the WAL loses every write after it, synced or
// not (a reservation already settled comes back open). The store keeps,
// beside pebble, a small synced file naming the newest reservation and
// the event sequence after it, written after each commit that holds a
// reservation. At open, a store whose events end before the mark, or
// that lacks the mark's reservation, lost a tail it had synced: Open
// reports it (Store.Lost) and gives out sequence numbers after the mark,
// so a follower never sees a number twice.

const markName = "akk.mark"

type mark struct {
	V           int    `json:"v"`
	Seq         uint64 `json:"seq"`         // the last event's sequence after the commit
	Reservation string `json:"reservation"` // the newest reservation written
}

// Lost describes writes a store had synced and no longer has.
type Lost struct {
	// FromSeq..ToSeq are the events missing at the end of the history
	// (0, 0: none missing, the reservation is).
	FromSeq, ToSeq uint64
	// Reservation is the newest reservation written, when it is gone.
	Reservation string
}

// String says what was lost, for a log line and akk doctor.
func (l Lost) String() string {
	s := "the store lost writes it had synced (a damaged WAL record: pebble replays a WAL only up to it)"
	if l.ToSeq > 0 {
		s += fmt.Sprintf(": events %d..%d", l.FromSeq, l.ToSeq)
	}
	if l.Reservation != "" {
		s += "; reservation " + l.Reservation + " and any after it (its input may have landed: look at the pane)"
	}
	return s
}

// writeMark records the mark after a synced commit with reservations. A
// failed mark is logged, not returned: the commit it follows is durable.
func (s *Store) writeMark(reservation string) {
	b, _ := json.Marshal(mark{V: 1, Seq: s.nextSeq - 1, Reservation: reservation})
	path := filepath.Join(s.dir, markName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err == nil {
		_, err = f.Write(append(b, '\n'))
		err = errors.Join(err, f.Sync(), f.Close())
	}
	if err != nil {
		s.opts.Logger.Warn("store: write the high-water mark", "err", err)
	}
}

// readMark reads the mark (zero when none, or unreadable: a torn mark
// proves nothing).
func readMark(dir string) mark {
	var m mark
	b, err := os.ReadFile(filepath.Join(dir, markName))
	if err != nil || json.Unmarshal(b, &m) != nil {
		return mark{}
	}
	return m
}

// checkMark compares the store with its mark after open.
func (s *Store) checkMark() (*Lost, error) {
	m := readMark(s.dir)
	if m.V == 0 {
		return nil, nil
	}
	var lost Lost
	if last := s.nextSeq - 1; m.Seq > last {
		lost.FromSeq, lost.ToSeq = last+1, m.Seq
		s.nextSeq = m.Seq + 1
	}
	if m.Reservation != "" {
		_, err := s.get(reservationKey(m.Reservation))
		switch {
		case errors.Is(err, ErrNotFound):
			lost.Reservation = m.Reservation
		case err != nil:
			return nil, err
		}
	}
	if lost == (Lost{}) {
		return nil, nil
	}
	return &lost, nil
}
