package supervisor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxServerRestart: the tmux server is killed (SIGKILL) while a
// Watch follows a replica at its permission prompt, with the controller's
// status offer taken. Within 2 s list, status and health answer
// tmux_unavailable. A new server then starts on the same socket, whose
// replica's pane has the same pane id (%1) as the old one's: the daemon
// follows it as a new terminal (another id: the server pid is part of
// it), the old terminal id is not found and its offer is refused with
// nothing typed (the new strict replica ends clean), and the new
// terminal's own status-then-approve is accepted.
func TestTmuxServerRestart(t *testing.T) {
	akk, srv, d := replicaStage(t, daemonOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	old := promptOnServer(t, ctx, d, srv, akk)
	if _, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: old.id}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: old.id}); err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(srv.MustRun("display-message", "-p", "#{pid}"))))
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	old.client.Close()
	tmuxtest.Await(t, 2*time.Second, func() string {
		if _, err := d.cl.List(ctx); !api.IsCode(err, api.CodeTmuxUnavailable) {
			return fmt.Sprintf("list: %v", err)
		}
		if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: old.id}); !api.IsCode(err, api.CodeTmuxUnavailable) {
			return fmt.Sprintf("status: %v", err)
		}
		if _, err := d.cl.Health(ctx); !api.IsCode(err, api.CodeTmuxUnavailable) {
			return fmt.Sprintf("health: %v", err)
		}
		return ""
	})
	t.Logf("tmux_unavailable %v after the kill", time.Since(killed).Round(time.Millisecond))

	// A new server on the same socket, its replica in pane %1 again.
	if _, err := srv.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "sh"); err != nil {
		t.Fatal(err)
	}
	srv.MustRun("set-option", "-g", "status", "off")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	started := time.Now()
	now := promptOnServer(t, ctx, d, srv, akk)
	t.Logf("the new server's replica followed %v after it started", time.Since(started).Round(time.Millisecond))
	defer now.client.Close()
	if now.r.c.pane != old.r.c.pane {
		t.Logf("the new replica is in %s, the old one was in %s", now.r.c.pane, old.r.c.pane)
	}
	if now.id == old.id {
		t.Fatalf("the new server's pane %s has the old server's terminal id %s", now.r.c.pane, old.id)
	}
	l, err := d.cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range l.Terminals {
		if row.TerminalID == old.id {
			t.Fatalf("the old server's terminal is listed on the new one: %+v", row)
		}
	}
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: old.id}); !api.IsCode(err, api.CodeNotFound) {
		t.Fatalf("status of the old server's terminal: %v, want not_found", err)
	}
	if res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: old.id}); err == nil && res.Outcome == api.OutcomeAccepted {
		t.Fatalf("the old server's offer was accepted on the new one: %+v", res)
	}
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: now.id}); err != nil {
		t.Fatal(err)
	}
	res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: now.id})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve on the new server: %+v %v", res, err)
	}
	now.r.skipInput()
	now.r.finish(srv) // the strict replica: the refused offer typed nothing
}

// serverPrompt is a strict replica at its permission prompt on one
// server, with the test's control client of that server.
type serverPrompt struct {
	r      *replicaDriver
	client *controlmode.Client
	id     string
}

func promptOnServer(t *testing.T, ctx context.Context, d *daemon, srv *tmuxtest.Server, akk string) serverPrompt {
	t.Helper()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	rc := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "permission-approve"}})[0]
	// The daemon may be still finding the new server: the driver waits
	// for the pane's row.
	tmuxtest.Await(t, 10*time.Second, func() string {
		l, err := d.cl.List(ctx)
		if err != nil {
			return err.Error()
		}
		if _, ok := rowOf(l, rc.pane); !ok {
			return "no row for " + rc.pane
		}
		return ""
	})
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toMarker(0) // the task typed as recorded, to awaiting_approval
	return serverPrompt{r: r, client: client, id: r.row().TerminalID}
}
