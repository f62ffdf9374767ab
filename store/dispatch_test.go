package store

import (
	"errors"
	"testing"
	"time"
)

func TestDispatchRecordsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, nil)
	now := time.Unix(1700000000, 0).UTC()
	r := Reservation{ID: "rcpt_1", Op: "approve", Controller: "cli:1", TerminalID: "term_a", Choice: "approve_once",
		Stage: StageReserved, Created: now, Updated: now, Fence: "f1"}
	turn := Turn{ID: "turn_1", SessionID: "ses_1", TerminalID: "term_a", State: TurnReserved, RequestHash: "ab", Created: now}
	if _, err := s.Apply(Change{Reservations: []Reservation{r}, Turns: []Turn{turn}}); err != nil {
		t.Fatal(err)
	}
	r.Stage = StageDone
	if _, err := s.Apply(Change{Reservations: []Reservation{r}, Fences: []Fence{{Key: "f1", Reservation: r.ID, TerminalID: "term_a", Created: now}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openT(t, dir, nil)
	got, err := s2.Reservation("rcpt_1")
	if err != nil || got.Stage != StageDone || !got.Final() || got.Choice != "approve_once" {
		t.Fatalf("reservation %+v %v", got, err)
	}
	if _, err := s2.Reservation("rcpt_none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing reservation: %v", err)
	}
	f, ok, err := s2.Fenced("f1")
	if err != nil || !ok || f.Reservation != "rcpt_1" {
		t.Fatalf("fence %+v %v %v", f, ok, err)
	}
	if _, ok, err := s2.Fenced("f2"); ok || err != nil {
		t.Fatalf("unknown fence: %v %v", ok, err)
	}
	ts, err := s2.Turns()
	if err != nil || len(ts) != 1 || ts[0].SessionID != "ses_1" {
		t.Fatalf("turns %+v %v", ts, err)
	}
	rs, err := s2.Reservations()
	if err != nil || len(rs) != 1 {
		t.Fatalf("reservations %+v %v", rs, err)
	}
}
