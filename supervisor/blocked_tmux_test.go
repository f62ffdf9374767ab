package supervisor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// TestTmuxBlocked: a strict replica of Codex 0.155.1 stopped at its usage
// limit ("try again at 8:01 AM", recorded by the rig) is listed blocked
// with its reason and the printed reset time placed as an instant, is
// offered nothing but a Watch, and the Watch's owner is woken once
// (blocked/agent_blocked) while akk sends the pane nothing: the replica
// ends clean after the test types the rest of its recording.
func TestTmuxBlocked(t *testing.T) {
	requireTmux(t)
	akk := buildAkk(t)
	srv := tmuxtest.Start(t, 120, 40, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	rcv := hooktest.Start(t, "", nil)
	d := startDaemon(t, srv, daemonOpts{callbacks: outbox.Config{Routes: []outbox.RouteConfig{
		{Name: "hook", Kind: outbox.RouteWebhook, URL: rcv.URL}}, BackoffBase: 50 * time.Millisecond}})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	rc := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "api-usage-limit"}})[0]
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toMarker(0)
	row := r.row()
	b := row.Blocked
	if row.ScreenState != api.ScreenBlocked || b == nil || b.Reason != "usage_limit" || b.ResetsAtShown != "8:01 AM" ||
		b.ResetsAt.IsZero() || b.ResetsAt.Before(time.Now()) || b.ResetsAt.After(time.Now().Add(24*time.Hour)) {
		t.Fatalf("the blocked row: %s %+v", row.ScreenState, b)
	}
	for name := range row.AvailableActions {
		if name != "watch" {
			t.Errorf("a blocked agent advertises %s", name)
		}
	}
	task, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	tmuxtest.Await(t, 20*time.Second, func() string {
		got, err := d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: task.WatchID})
		if err != nil {
			return err.Error()
		}
		var blocked []string
		for _, n := range got.Notifications {
			if strings.HasPrefix(n.Event, "blocked:usage_limit") {
				blocked = append(blocked, n.State)
			}
		}
		if len(blocked) != 1 || blocked[0] != "accepted" {
			return fmt.Sprintf("agent_blocked notifications %v (all: %+v)", blocked, got.Notifications)
		}
		return ""
	})
	r.finish(srv)
}
