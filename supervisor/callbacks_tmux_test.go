package supervisor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/ptyclient"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestTmuxCallbackRoute: the tmux route shows a notification on the real
// clients attached to the pane's session, and only there. Without an
// attached client nobody saw it: a permanent failure, never retried. The
// notifications are enqueued directly (the monitors that enqueue them are
// tested on replicas and live agents): this test is about the route.
func TestTmuxCallbackRoute(t *testing.T) {
	tmuxtest.RequireTmux(t)
	const w, h = 100, 30
	srv := tmuxtest.Start(t, w, h, "sh")
	srv.MustRun("set-option", "-g", "status", "on")
	srv.MustRun("new-session", "-d", "-s", "other", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh")
	d := startDaemon(t, srv, daemonOpts{callbacks: outbox.Config{
		Routes: []outbox.RouteConfig{{Name: "screen", Kind: outbox.RouteTmux, Timeout: 5 * time.Second}}}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pane := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", "main", "#{pane_id}")))
	var tid string
	tmuxtest.Await(t, 15*time.Second, func() string {
		l, err := d.cl.List(ctx)
		if err != nil {
			return err.Error()
		}
		r, ok := rowOf(l, pane)
		if !ok || r.TerminalID == "" {
			return "no row for " + pane
		}
		tid = r.TerminalID
		return ""
	})
	enqueue := func(watchID string) store.Notification {
		env := api.CallbackEnvelope{Type: api.CallbackDone, Event: api.CallbackStablyIdle, TaskKind: tasks.TaskWatch,
			WatchID: watchID, TerminalID: tid, Confidence: api.ConfidenceBestEffort, Time: time.Now()}
		added, err := d.sv.tasks.Enqueue(env, "settled", []string{"screen"})
		if err != nil || len(added) != 1 {
			t.Fatalf("enqueue: %v %v", added, err)
		}
		return added[0]
	}

	// Nobody attached: permanent, one attempt.
	n := hooktest.AwaitFinal(t, d.st, enqueue("watch_nobodythere").ID, 15*time.Second)
	if n.State != store.NtfPermanent || len(n.Attempts) != 1 {
		t.Errorf("no client: %s after %d attempts (%+v)", n.State, len(n.Attempts), n.Attempts)
	}

	mine := ptyclient.Attach(t, srv, "main", w, h)
	theirs := ptyclient.Attach(t, srv, "other", w, h)
	start := time.Now()
	n = hooktest.AwaitFinal(t, d.st, enqueue("watch_someonesees").ID, 15*time.Second)
	if n.State != store.NtfAccepted || len(n.Attempts) != 1 || n.Attempts[0].Detail != "1 clients" {
		t.Fatalf("attached client: %s %+v", n.State, n.Attempts)
	}
	want := "akk: done watch_someonesees (settled)"
	tmuxtest.Await(t, 10*time.Second, func() string {
		if !strings.Contains(mine.Text(), want) {
			return "the client of the pane's session does not show " + want + ":\n" + mine.Text()
		}
		return ""
	})
	t.Logf("figure: shown on the client %v after enqueue", time.Since(start).Round(time.Millisecond))
	if strings.Contains(theirs.Text(), "akk:") {
		t.Errorf("a client of another session shows the message:\n%s", theirs.Text())
	}
}
