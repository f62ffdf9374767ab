package supervisor

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// TestTaskOpsNeedATaskID: a conversation id alone is refused by the API
// before any handler (split from TestRecoveryOperations when the tasks
// became their own package: it is the API socket's rule, over the daemon).
func TestTaskOpsNeedATaskID(t *testing.T) {
	lg := testLogger(t)
	st, err := store.Open(t.TempDir(), &store.Options{Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sv, err := New(Config{Logger: lg, Store: st, TmuxSocket: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sock := filepath.Join(t.TempDir(), "akk.sock")
	ln, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- api.Serve(sctx, ln, sv, api.ServerOptions{Logger: lg, UID: -1}) }()
	defer func() { cancel(); <-done }()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	for _, op := range []string{"recover", "renew", "retry_callback", "close", "task_status"} {
		resp, err := hc.Post("http://akk/v1/"+op, "application/json", strings.NewReader(`{"session_id":"ses_abc"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s with a conversation id alone: http %d, want 400", op, resp.StatusCode)
		}
	}
}
