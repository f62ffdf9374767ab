package store

import (
	"errors"
	"testing"
	"time"
)

func enqueueT(t *testing.T, s *Store, ids ...string) {
	t.Helper()
	var ns []Notification
	for _, id := range ids {
		ns = append(ns, Notification{ID: id, Subject: "watch_a", Type: "done", Event: "settled:" + id,
			IdempotencyKey: "key_" + id, Route: "hook", Envelope: []byte(`{"v":1}`)})
	}
	added, _, err := s.ApplyTasks(TaskChange{Notifications: ns})
	if err != nil || len(added) != len(ids) {
		t.Fatalf("enqueue %v: %d added, %v", ids, len(added), err)
	}
}

// TestOutboxStateMachine walks every transition of the outbox, allowed and
// refused, on a store on disk.
func TestOutboxStateMachine(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lease := t0.Add(time.Minute)
	type step struct {
		op      string // claim, outcome:<state>, requeue, withdraw, claim_at_lease_end
		want    string // state after, or "conflict"
		attempt int
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"accepted once", []step{{"claim", NtfInFlight, 1}, {"outcome:" + NtfAccepted, NtfAccepted, 1},
			{"claim", "conflict", 0}, {"requeue", "conflict", 0}, {"withdraw", NtfAccepted, 0}}},
		{"retryable then accepted", []step{{"claim", NtfInFlight, 1}, {"outcome:" + NtfRetryable, NtfRetryable, 1},
			{"claim", NtfInFlight, 2}, {"outcome:" + NtfAccepted, NtfAccepted, 2}}},
		{"uncertain is never claimed or requeued", []step{{"claim", NtfInFlight, 1}, {"outcome:" + NtfUncertain, NtfUncertain, 1},
			{"claim", "conflict", 0}, {"requeue", "conflict", 0}}},
		{"permanent is never claimed or requeued", []step{{"claim", NtfInFlight, 1}, {"outcome:" + NtfPermanent, NtfPermanent, 1},
			{"claim", "conflict", 0}, {"requeue", "conflict", 0}}},
		{"exhausted retryable requeued by hand", []step{{"claim", NtfInFlight, 1}, {"outcome:exhausted", NtfRetryable, 1},
			{"claim", "conflict", 0}, {"requeue", NtfPending, 0}, {"claim", NtfInFlight, 2}, {"outcome:" + NtfAccepted, NtfAccepted, 2}}},
		{"in flight cannot be withdrawn or claimed before lease end", []step{{"claim", NtfInFlight, 1},
			{"withdraw", NtfInFlight, 0}, {"claim", "conflict", 0}, {"claim_at_lease_end", NtfInFlight, 2}}},
		{"pending withdrawn", []step{{"withdraw", NtfWithdrawn, 0}, {"claim", "conflict", 0}, {"requeue", "conflict", 0}}},
		{"outcome without claim", []step{{"outcome:" + NtfAccepted, "conflict", 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir(), &Options{Now: func() time.Time { return t0 }})
			enqueueT(t, s, "ntf_x")
			for i, st := range tc.steps {
				var n Notification
				var err error
				switch st.op {
				case "claim":
					n, err = s.Claim("ntf_x", "d1", t0, lease)
				case "claim_at_lease_end":
					n, err = s.Claim("ntf_x", "d2", lease.Add(time.Second), lease.Add(time.Hour))
				case "requeue":
					n, err = s.Requeue("ntf_x", t0)
				case "withdraw":
					_, err = s.Withdraw("watch_a", t0)
					n, _ = s.Notification("ntf_x")
				case "outcome:exhausted":
					n, err = s.Outcome("ntf_x", "d1", st.attempt, NtfRetryable, "http 503", t0, time.Time{})
				default:
					n, err = s.Outcome("ntf_x", "d1", st.attempt, st.op[len("outcome:"):], "detail", t0, t0)
				}
				if st.want == "conflict" {
					if !errors.Is(err, ErrConflict) {
						t.Fatalf("step %d %s: err %v, want ErrConflict", i, st.op, err)
					}
					continue
				}
				if err != nil || n.State != st.want {
					t.Fatalf("step %d %s: state %s err %v, want %s", i, st.op, n.State, err, st.want)
				}
				if st.attempt > 0 && len(n.Attempts) != st.attempt {
					t.Fatalf("step %d %s: %d attempts, want %d", i, st.op, len(n.Attempts), st.attempt)
				}
			}
		})
	}
}

// TestOutboxDurableAcrossReopen: ids are enqueued once (a second enqueue of
// the same id writes nothing), and claims, outcomes and the attempt history
// survive a reopen; an expired claim is closed as interrupted.
func TestOutboxDurableAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := Open(dir, &Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	enqueueT(t, s, "ntf_a", "ntf_b")
	again, _, err := s.ApplyTasks(TaskChange{Notifications: []Notification{{ID: "ntf_a", Subject: "watch_a", Route: "other"}}})
	if err != nil || len(again) != 0 {
		t.Fatalf("second enqueue: %d added, %v", len(again), err)
	}
	if _, err := s.Claim("ntf_a", "d1", t0, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim("ntf_b", "d1", t0, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Outcome("ntf_b", "d1", 1, NtfAccepted, "http 200", t0, time.Time{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openT(t, dir, nil)
	a, _ := s.Notification("ntf_a")
	if a.State != NtfInFlight || a.Route != "hook" || len(a.Attempts) != 1 {
		t.Fatalf("after reopen: %+v", a)
	}
	a, err = s.Claim("ntf_a", "d2", t0.Add(2*time.Minute), t0.Add(3*time.Minute))
	if err != nil || len(a.Attempts) != 2 || a.Attempts[0].Outcome != ntfInterruptedClaim || a.IdempotencyKey != "key_ntf_a" {
		t.Fatalf("reclaim: %+v %v", a, err)
	}
	if _, err := s.Claim("ntf_b", "d2", t0.Add(time.Hour), t0.Add(2*time.Hour)); !errors.Is(err, ErrConflict) {
		t.Fatalf("accepted reclaimed: %v", err)
	}
	all, err := s.Notifications(func(n *Notification) bool { return !n.Final() })
	if err != nil || len(all) != 1 || all[0].ID != "ntf_a" {
		t.Fatalf("open notifications %+v %v", all, err)
	}
}

func TestWatchRecords(t *testing.T) {
	s := openT(t, t.TempDir(), nil)
	w := Watch{ID: "watch_1", TerminalID: "term_1", Mode: "exact_task", State: "active",
		Anchor: &TaskAnchor{Agent: "codex", Path: "/r.jsonl", FileIno: 7, Start: 100}}
	_, evs, err := s.ApplyTasks(TaskChange{Watches: []Watch{w}, Events: []Event{{Type: "watch.created", TerminalID: "term_1"}}})
	if err != nil || len(evs) != 1 || evs[0].Seq == 0 {
		t.Fatalf("apply: %v %+v", err, evs)
	}
	got, err := s.Watch("watch_1")
	if err != nil || got.Anchor == nil || got.Anchor.Start != 100 || got.V != watchSchema {
		t.Fatalf("watch %+v %v", got, err)
	}
	if ws, _ := s.Watches(); len(ws) != 1 {
		t.Fatalf("watches %d", len(ws))
	}
	if _, err := s.Watch("watch_2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing watch: %v", err)
	}
	if last, _ := s.Events(0, 0); len(last) != 1 || s.LastSeq() != evs[0].Seq {
		t.Fatalf("events %+v", last)
	}
}
