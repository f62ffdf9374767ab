package tasks

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// testHost is a Host over a real store with no terminals: every
// terminal of these tests is gone.
type testHost struct{ st *store.Store }

func (h testHost) Commit(ch store.Change) error {
	_, err := h.st.Apply(ch)
	return err
}

func (h testHost) CommitTasks(ch store.TaskChange) ([]store.Notification, error) {
	added, _, err := h.st.ApplyTasks(ch)
	return added, err
}

func (testHost) Observation(string) (terminal.Observation, bool) {
	return terminal.Observation{}, false
}
func (testHost) TurnSettled(string, string)            {}
func (testHost) Asked(TurnSpec, *contract.Interaction) {}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("AKK_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// newTestManager is a Manager over st with callbacks' routes, and the
// outbox it notifies (not running: a test that wants deliveries runs it).
func newTestManager(t testing.TB, st *store.Store, callbacks outbox.Config) (*Manager, *outbox.Outbox) {
	t.Helper()
	if err := callbacks.Validate(); err != nil { // as supervisor.New does
		t.Fatal(err)
	}
	callbacks.EnsureDefaults()
	ob := outbox.New(outbox.Options{Config: callbacks, Store: st, Logger: testLogger(t), Now: time.Now, Sessions: noSessions{}})
	return New(Options{Callbacks: callbacks, Store: st, Secret: []byte("test secret"), Now: time.Now,
		Logger: testLogger(t), Host: testHost{st}, Outbox: ob}), ob
}

type noSessions struct{}

func (noSessions) SessionOf(string) (outbox.Commander, string) { return nil, "" }
