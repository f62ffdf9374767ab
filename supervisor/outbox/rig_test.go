package outbox

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// rig is an outbox running on a store on disk.
type rig struct {
	ob     *Outbox
	st     *store.Store
	cancel context.CancelFunc
	done   chan error
}

func testLogger() *slog.Logger {
	if os.Getenv("AKK_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// newRig opens the store in dir and prepares an outbox on it; start runs
// it.
func newRig(t testing.TB, dir string, cfg Config) *rig {
	t.Helper()
	lg := testLogger()
	st, err := store.Open(dir, &store.Options{Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		st.Close()
		t.Fatal(err)
	}
	r := &rig{ob: New(Options{Config: cfg, Store: st, Logger: lg}), st: st}
	t.Cleanup(r.stop)
	return r
}

func startRig(t testing.TB, dir string, cfg Config) *rig {
	t.Helper()
	r := newRig(t, dir, cfg)
	r.start()
	return r
}

func (r *rig) start() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan error, 1)
	go func() { r.done <- r.ob.Run(ctx) }()
}

func (r *rig) stop() {
	if r.cancel != nil {
		r.cancel()
		<-r.done
		r.cancel = nil
	}
	r.st.Close()
}

// notification is one done notification of a Watch for route, as the task
// monitors freeze it: ids derived from the subject, so that the same
// logical notification enqueued again writes nothing.
func notification(t testing.TB, watchID, route string) store.Notification {
	t.Helper()
	id, key := "ntf_"+watchID+"_"+route, "akk-"+watchID
	env := api.CallbackEnvelope{V: 1, Schema: api.CallbackSchema, Type: api.CallbackDone, Event: api.CallbackStablyIdle,
		TaskKind: "watch", WatchID: watchID, TerminalID: "term_x", Confidence: api.ConfidenceBestEffort,
		NotificationID: id, IdempotencyKey: key, Time: time.Now()}
	body, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return store.Notification{ID: id, Subject: watchID, TerminalID: env.TerminalID, Type: env.Type, Event: "settled",
		IdempotencyKey: key, Route: route, Envelope: body, Created: env.Time}
}

// enqueue writes notifications of a Watch for every route and schedules
// what the store added.
func (r *rig) enqueue(t testing.TB, watchID string, routes ...string) []store.Notification {
	t.Helper()
	var ns []store.Notification
	for _, rt := range routes {
		ns = append(ns, notification(t, watchID, rt))
	}
	added, _, err := r.st.ApplyTasks(store.TaskChange{Notifications: ns})
	if err != nil {
		t.Fatal(err)
	}
	r.ob.Schedule(added...)
	return added
}
