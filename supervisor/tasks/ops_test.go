package tasks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// memLedger is a TurnLedger over a map: the managed Turns' records belong
// to the dispatch path; the operations only need their states.
type memLedger struct {
	mu    sync.Mutex
	specs map[string]TurnSpec
	state map[string]string
}

func (l *memLedger) OpenTurns() ([]TurnSpec, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []TurnSpec
	for id, sp := range l.specs {
		if l.state[id] == TurnRunning {
			out = append(out, sp)
		}
	}
	return out, nil
}

func (l *memLedger) TurnState(id string) (TurnSpec, string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sp, ok := l.specs[id]
	if !ok {
		return sp, "", store.ErrNotFound
	}
	return sp, l.state[id], nil
}

func (l *memLedger) Promote(id, nativeTurn string, at time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	sp := l.specs[id]
	sp.NativeTurnID = nativeTurn
	l.specs[id] = sp
	return nil
}

func (l *memLedger) SettleTurn(id string, end TurnEnd) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state[id] = end.State
	sp := l.specs[id]
	sp.Reason = end.Reason
	l.specs[id] = sp
	return nil
}

// TestRecoveryOperations runs unwatch, renew, recover, retry_callback and
// close on every state of seed 003's table, refusals included, against a
// store on disk (the API socket's own refusal is TestTaskOpsNeedATaskID).
func TestRecoveryOperations(t *testing.T) {
	lg := testLogger(t)
	st, err := store.Open(t.TempDir(), &store.Options{Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sv, _ := newTestManager(t, st, outbox.Config{Routes: []outbox.RouteConfig{{Name: "a", Kind: outbox.RouteWebhook, URL: "http://127.0.0.1:9/x"},
		{Name: "b", Kind: outbox.RouteWebhook, URL: "http://127.0.0.1:9/y"}}})
	ledger := &memLedger{specs: map[string]TurnSpec{}, state: map[string]string{}}
	sv.SetTurnLedger(ledger)
	now := time.Now()
	watch := func(id, state string, ntfStates ...string) {
		rec := store.Watch{ID: id, TerminalID: "term_gone", Mode: api.WatchTerminalActivity, Confidence: api.ConfidenceBestEffort,
			State: state, Incarnation: "1/1/claude", Created: now, Deadline: now.Add(time.Hour), Routes: []string{"a", "b"}}
		if _, err := sv.kit.notes.commit(store.TaskChange{Watches: []store.Watch{rec}}); err != nil {
			t.Fatal(err)
		}
		if state == WatchActive {
			sv.kit.fs.watches[id] = &watchState{rec: rec}
		}
		seedNotifications(t, sv, id, ntfStates...)
	}
	turn := func(id, state string, ntfStates ...string) {
		ledger.specs[id] = TurnSpec{TurnID: id, TerminalID: "term_gone", Created: now, Reason: state}
		ledger.state[id] = state
		seedNotifications(t, sv, id, ntfStates...)
	}
	watch("watch_active", WatchActive, store.NtfPending)
	watch("watch_settled", WatchSettled, store.NtfRetryable)
	watch("watch_settled2", WatchSettled, store.NtfRetryable, store.NtfRetryable)
	watch("watch_accepted", WatchSettled, store.NtfAccepted, store.NtfUncertain)
	watch("watch_invalid", WatchInvalidated)
	watch("watch_expired", WatchExpired, store.NtfPending)
	watch("watch_stopped", WatchStopped, store.NtfRetryable)
	turn("turn_closed", TurnClosed, store.NtfRetryable)
	turn("turn_done", TurnCompleted, store.NtfRetryable)

	ctx := context.Background()
	type call func() (api.Task, error)
	cases := []struct {
		name      string
		do        call
		wantCode  string // "" : success
		wantState string
	}{
		{"unwatch active", func() (api.Task, error) { return sv.Unwatch(ctx, api.UnwatchRequest{WatchID: "watch_active"}) }, "", WatchStopped},
		{"unwatch unknown", func() (api.Task, error) { return sv.Unwatch(ctx, api.UnwatchRequest{WatchID: "watch_none"}) }, api.CodeNotFound, ""},
		{"renew settled", func() (api.Task, error) { return sv.Renew(ctx, api.RenewRequest{WatchID: "watch_settled"}) }, api.CodeConflict, ""},
		{"renew invalidated", func() (api.Task, error) { return sv.Renew(ctx, api.RenewRequest{WatchID: "watch_invalid"}) }, api.CodeConflict, ""},
		{"renew expired, task gone", func() (api.Task, error) { return sv.Renew(ctx, api.RenewRequest{WatchID: "watch_expired", Minutes: 5}) }, api.CodeConflict, ""},
		{"renew neither id", func() (api.Task, error) { return sv.Renew(ctx, api.RenewRequest{Minutes: 5}) }, api.CodeBadRequest, ""},
		{"renew both ids", func() (api.Task, error) {
			return sv.Renew(ctx, api.RenewRequest{WatchID: "watch_expired", TurnID: "turn_done"})
		}, api.CodeBadRequest, ""},
		{"renew closed turn", func() (api.Task, error) { return sv.Renew(ctx, api.RenewRequest{TurnID: "turn_closed"}) }, api.CodeConflict, ""},
		{"recover stopped", func() (api.Task, error) { return sv.Recover(ctx, api.RecoverRequest{WatchID: "watch_stopped"}) }, api.CodeConflict, ""},
		{"recover expired", func() (api.Task, error) { return sv.Recover(ctx, api.RecoverRequest{WatchID: "watch_expired"}) }, api.CodeConflict, ""},
		{"recover settled", func() (api.Task, error) { return sv.Recover(ctx, api.RecoverRequest{WatchID: "watch_settled"}) }, "", WatchSettled},
		{"recover no id", func() (api.Task, error) { return sv.Recover(ctx, api.RecoverRequest{}) }, api.CodeBadRequest, ""},
		{"recover closed turn", func() (api.Task, error) { return sv.Recover(ctx, api.RecoverRequest{TurnID: "turn_closed"}) }, api.CodeConflict, ""},
		{"retry stopped watch", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: "watch_stopped"})
		}, api.CodeConflict, ""},
		{"retry accepted or uncertain only", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: "watch_accepted"})
		}, api.CodeConflict, ""},
		{"retry two eligible without id", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: "watch_settled2"})
		}, api.CodeConflict, ""},
		{"retry settled watch", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: "watch_settled"})
		}, "", WatchSettled},
		{"retry it again while pending", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: "watch_settled"})
		}, api.CodeConflict, ""},
		{"retry closed turn", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{TurnID: "turn_closed"})
		}, api.CodeConflict, ""},
		{"retry completed turn", func() (api.Task, error) {
			return sv.RetryCallback(ctx, api.RetryCallbackRequest{TurnID: "turn_done"})
		}, "", TurnCompleted},
		{"close a watch id", func() (api.Task, error) { return sv.Close(ctx, api.CloseRequest{}) }, api.CodeBadRequest, ""},
		{"close completed turn", func() (api.Task, error) { return sv.Close(ctx, api.CloseRequest{TurnID: "turn_done"}) }, "", TurnClosed},
		{"close closed turn", func() (api.Task, error) { return sv.Close(ctx, api.CloseRequest{TurnID: "turn_closed"}) }, api.CodeConflict, ""},
		{"close unknown turn", func() (api.Task, error) { return sv.Close(ctx, api.CloseRequest{TurnID: "turn_none"}) }, api.CodeNotFound, ""},
	}
	// A settled Turn's status says why it ended; a running one has no
	// reason yet.
	if task, err := sv.TaskStatus(ctx, api.TaskRequest{TurnID: "turn_done"}); err != nil || task.Reason != TurnCompleted {
		t.Errorf("status of a completed turn: %+v %v, want its reason", task, err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			task, err := tc.do()
			if tc.wantCode != "" {
				if !api.IsCode(err, tc.wantCode) {
					t.Fatalf("err %v, want %s", err, tc.wantCode)
				}
				return
			}
			if err != nil || task.State != tc.wantState || (task.TurnID != "" && task.State != TurnRunning && task.Reason == "") {
				t.Fatalf("task %+v err %v, want state %s", task, err, tc.wantState)
			}
		})
	}
	// Unwatch withdrew what was not dispatched; close did too. Neither
	// enqueued a notification of its own (seed 003's table: an unwatched
	// or closed record dispatches no callbacks; see Unwatch).
	for _, subject := range []string{"watch_active", "turn_done"} {
		ns, _ := st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
		if len(ns) != 1 {
			t.Errorf("%s: %d notifications after unwatch/close, want the 1 seeded", subject, len(ns))
		}
		for _, n := range ns {
			if n.State != store.NtfWithdrawn {
				t.Errorf("%s: notification %s after unwatch/close", subject, n.State)
			}
		}
	}
}

// seedNotifications writes notifications of a subject in given states.
func seedNotifications(t *testing.T, sv *Manager, subject string, states ...string) {
	t.Helper()
	for i, state := range states {
		env := api.CallbackEnvelope{Type: api.CallbackDone, Event: "e", TaskKind: TaskWatch, WatchID: subject, TerminalID: "term_gone", Time: time.Now()}
		if strings.HasPrefix(subject, "turn_") {
			env.TaskKind, env.WatchID, env.TurnID = TaskManagedTurn, "", subject
		}
		ns, err := sv.kit.notes.freeze(env, "event"+string(rune('0'+i)), []string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sv.kit.notes.commit(store.TaskChange{Notifications: ns}); err != nil {
			t.Fatal(err)
		}
		id := ns[0].ID
		if state == store.NtfPending {
			continue
		}
		now := time.Now()
		if _, err := sv.kit.st.Claim(id, "seed", now, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := sv.kit.st.Outcome(id, "seed", 1, state, "seeded", now, time.Time{}); err != nil && !errors.Is(err, store.ErrConflict) {
			t.Fatal(err)
		}
	}
}
