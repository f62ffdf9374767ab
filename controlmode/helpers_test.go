package controlmode

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"go.uber.org/goleak"
)

// checkLeaks fails the test if goroutines started during it are still
// running after its cleanups (registered first, so it runs last).
func checkLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() {
		if err := goleak.Find(opt); err != nil {
			t.Errorf("goroutines leaked: %v", err)
		}
	})
}

// testLogger writes the client's log lines into the test log.
func testLogger(t testing.TB, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(tlogWriter{t}, &slog.HandlerOptions{Level: level}))
}

type tlogWriter struct{ t testing.TB }

func (w tlogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// startTmux starts an isolated server whose first pane runs cmd.
// Its cleanup kills the server and removes the socket file, which tmux
// 3.3a leaves behind (tmuxtest's Kill would otherwise wait 2 s for it).
func startTmux(t testing.TB, w, h int, cmd string) *tmuxtest.Server {
	t.Helper()
	srv := tmuxtest.Start(t, w, h, cmd)
	t.Cleanup(func() {
		_, _ = srv.Run("kill-server")
		_ = os.Remove(srv.Socket)
	})
	return srv
}

// catClient is the usual fault and client test's start: a leak check, an
// 80x24 server whose pane runs cat, and a client attached to it.
func catClient(t *testing.T) (*tmuxtest.Server, *Client) {
	t.Helper()
	checkLeaks(t)
	srv := startTmux(t, 80, 24, "cat")
	return srv, attach(t, srv)
}

// attach starts a client on srv's session "main", closed in cleanup.
func attach(t testing.TB, srv *tmuxtest.Server, mod ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{Socket: srv.Socket, Session: "main", Env: srv.Env, Logger: testLogger(t, slog.LevelWarn)}
	for _, m := range mod {
		m(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctx3s(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// awaitEvent reads c.Events() until match returns true or 3 s pass.
func awaitEvent(t *testing.T, c *Client, what string, match func(Event) bool) (Event, time.Duration) {
	t.Helper()
	start := time.Now()
	deadline := time.After(3 * time.Second)
	for {
		select {
		case e, ok := <-c.Events():
			if !ok {
				t.Fatalf("events closed while waiting for %s", what)
			}
			if match(e) {
				return e, time.Since(start)
			}
		case <-deadline:
			t.Fatalf("no %s within 3 s", what)
		}
	}
}

// mustPane is the first pane of the session.
func firstPane(t *testing.T, c *Client) PaneInfo {
	t.Helper()
	ps, err := c.Panes(ctx3s(t))
	if err != nil || len(ps) == 0 {
		t.Fatalf("Panes: %v %v", ps, err)
	}
	return ps[0]
}

// ctxTest is a context for a whole test's commands (not a latency bound).
func ctxTest(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
