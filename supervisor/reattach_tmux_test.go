package supervisor

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
)

// TestTmuxControlClientLost: a managed Turn of a strict Codex replica
// waits at its permission prompt when the daemon's control client ends
// while the session lives on — its tmux -C process killed, a person's
// `detach-client -a`, a `detach-client -t` naming it, the daemon closing
// it itself (an input command that timed out). Each time the
// daemon attaches a new client within 1 s, the pane keeps its terminal
// id and the Turn stays running, and status-then-approve by turn_id is
// accepted and typed exactly once (the replica ends clean).
func TestTmuxControlClientLost(t *testing.T) {
	akk, srv, d := replicaStage(t, daemonOpts{})
	ctx, client := driverClient(t, srv, 2*time.Minute)
	for _, way := range []struct {
		name string
		end  func(t *testing.T, daemonClient *controlmode.Client)
	}{
		{"tmux -C killed", func(t *testing.T, c *controlmode.Client) {
			if !controlClientListed(t, srv, c.PID()) {
				t.Fatalf("the daemon's client (pid %d) is not a listed control client", c.PID())
			}
			if err := syscall.Kill(c.PID(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}},
		{"detach-client -a", func(t *testing.T, _ *controlmode.Client) {
			// A person's "detach every other client", run from the test's
			// own client (its current client).
			if _, err := client.Command(ctx, "detach-client", "-a"); err != nil {
				t.Fatal(err)
			}
		}},
		{"detach-client -t", func(t *testing.T, c *controlmode.Client) {
			srv.MustRun("detach-client", "-t", clientName(t, srv, c.PID()))
		}},
		{"closed by the daemon", func(t *testing.T, c *controlmode.Client) {
			c.Close() // as the transaction does when a tmux command timed out
		}},
	} {
		t.Run(way.name, func(t *testing.T) {
			turnAtPrompt(t, ctx, d, srv, akk, client, func(r *replicaDriver) {
				old := d.sessionClient("main")
				lost := time.Now()
				way.end(t, old)
				awaitReattached(t, d, r, old, time.Second)
				t.Logf("re-attached %v after the loss", time.Since(lost).Round(time.Millisecond))
			})
		})
	}
}

// turnAtPrompt starts a strict Codex replica, sends it its task as a
// managed Turn, plays it to its permission prompt and calls lose there;
// then the Turn must still run, and status-then-approve by turn_id must
// be accepted and typed once.
func turnAtPrompt(t *testing.T, ctx context.Context, d *daemon, srv *tmuxtest.Server, akk string, client *controlmode.Client, lose func(*replicaDriver)) {
	rc := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "permission-approve"}})[0]
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toInput()
	row := awaitRow(t, d.cl, rc.pane, 10*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
			return string(r.ScreenState) + "/" + string(r.Composer)
		}
		return ""
	})
	task := string(r.c.rec.Events[r.next].Data)
	sent, err := d.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: task})
	if err != nil || sent.Outcome != api.OutcomeAccepted || sent.TurnID == "" {
		t.Fatalf("send: %+v %v", sent, err)
	}
	r.skipInput() // the task
	r.skipInput() // its Enter
	// To the prompt, as the test's own client sees it, then as the daemon
	// lists it: no barrier of the test's through a client that a fault
	// may be ending.
	d0 := r.d
	r.d = nil
	r.toMarker(0)
	r.d = d0
	awaitRow(t, d.cl, rc.pane, 10*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenAwaitingApproval {
			return string(r.ScreenState)
		}
		return ""
	})
	before := r.monitor()
	lose(r)
	// The same follower, with its identity and Turn: a follower built
	// afresh reads the process again, and a Turn monitor fails a Turn
	// whose incarnation it cannot see (the CI run that failed a Turn).
	if m := r.monitor(); m != before {
		t.Fatalf("the pane has a new follower after the client's loss")
	}
	if v := before.View(); v.ActiveTurn != sent.TurnID || v.ID != row.TerminalID {
		t.Fatalf("the follower after the client's loss: turn %q terminal %s", v.ActiveTurn, v.ID)
	}
	if turn, err := d.st.Turn(sent.TurnID); err != nil || turnSettled(turn.State) {
		t.Fatalf("the Turn after the client's loss: %+v %v", turn, err)
	}
	if now := r.row(); now.TerminalID != row.TerminalID || now.ScreenState != contract.ScreenAwaitingApproval {
		t.Fatalf("the row after the client's loss: %s %s, want %s awaiting_approval", now.TerminalID, now.ScreenState, row.TerminalID)
	}
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID}); err != nil {
		t.Fatal(err)
	}
	res, err := d.cl.Approve(ctx, api.ApproveRequest{TurnID: sent.TurnID})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve after the client's loss: %+v %v", res, err)
	}
	if turn, err := d.st.Turn(sent.TurnID); err != nil || turn.State == store.TurnFailed {
		t.Errorf("the Turn after the approve: %+v %v", turn, err)
	}
	r.skipInput() // akk typed the approval
	r.finish(srv) // the strict replica: nothing more, nothing twice (its exit then ends the Turn)
}

func turnSettled(state string) bool {
	switch state {
	case store.TurnFailed, store.TurnCancelled, store.TurnUncertain, store.TurnClosed, store.TurnDone:
		return true
	}
	return false
}

// awaitReattached waits (at most within) until the session "main" has a
// live client other than old and the replica's pane follows it again.
func awaitReattached(t *testing.T, d *daemon, r *replicaDriver, old *controlmode.Client, within time.Duration) {
	t.Helper()
	pane, _ := controlmode.ParsePaneID(r.c.pane)
	tmuxtest.Await(t, within, func() string {
		c := d.sessionClient("main")
		switch {
		case c == nil || c == old:
			return "the session is not re-attached"
		case c.Err() != nil:
			return "the new client ended: " + c.Err().Error()
		}
		m := d.sv.monitor(pane)
		switch {
		case m == nil:
			return "the pane is not followed"
		case m.Lost() || m.Client() != c:
			return "the pane does not follow the new client"
		}
		if v := m.View(); v.Stale {
			return "the pane's screen is stale: " + v.StaleCause
		}
		return ""
	})
}

// sessionClient is the daemon's control client of the named session.
func (d *daemon) sessionClient(name string) *controlmode.Client {
	d.sv.mu.Lock()
	defer d.sv.mu.Unlock()
	for _, se := range d.sv.sessions {
		if se.name == name {
			return se.client
		}
	}
	return nil
}

// controlClientListed reports whether tmux lists pid as a control client.
func controlClientListed(t testing.TB, srv *tmuxtest.Server, pid int) bool {
	for _, l := range strings.Split(strings.TrimSpace(string(srv.MustRun("list-clients", "-F", "#{client_pid} #{client_control_mode}"))), "\n") {
		if l == strconv.Itoa(pid)+" 1" {
			return true
		}
	}
	return false
}

// clientName is tmux's name of the client whose process is pid.
func clientName(t testing.TB, srv *tmuxtest.Server, pid int) string {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(string(srv.MustRun("list-clients", "-F", "#{client_pid} #{client_name}"))), "\n") {
		if p, name, ok := strings.Cut(l, " "); ok && p == strconv.Itoa(pid) {
			return name
		}
	}
	t.Fatalf("no client with pid %d", pid)
	return ""
}

// TestTmuxControlClientExitCrash (crash tier: -tags akkfault) arms the
// fault point tmux.exit_at_prompt: as the daemon sees the managed Turn's
// permission prompt, tmux itself ends the session's control client with
// %exit (detach-client through it), as in the CI run whose Turn failed.
// The daemon re-attaches, the Turn stays running, and status-then-approve
// is accepted and typed once.
func TestTmuxControlClientExitCrash(t *testing.T) {
	requireFaultHook(t)
	t.Setenv("AKK_FAULT", FaultExitAtPrompt) // the in-process daemon's own fault point
	akk, srv, d := replicaStage(t, daemonOpts{})
	ctx, client := driverClient(t, srv, time.Minute)
	var first *controlmode.Client
	tmuxtest.Await(t, 10*time.Second, tmuxtest.Until("the daemon's client", func() bool {
		first = d.sessionClient("main")
		return first != nil
	}))
	turnAtPrompt(t, ctx, d, srv, akk, client, func(r *replicaDriver) {
		tmuxtest.Await(t, 10*time.Second, tmuxtest.Until("the fault point", d.sv.faultFired.Load))
		awaitReattached(t, d, r, first, time.Second)
		var exit *controlmode.ExitError
		if !errors.As(first.Err(), &exit) || exit.NoExit {
			t.Fatalf("the first client ended with %v, want tmux's %%exit", first.Err())
		}
	})
}
