package supervisor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxCommandDeadline: tmux holds a transaction's input command, as
// the trial saw: the pane entered copy-mode just before a send's text
// went, whose `f` opened copy-mode's jump prompt, and tmux answers
// nothing on that control client until the prompt is answered. (The
// barrier refuses a pane already in a mode; this is the race after it.)
// The call ends within its deadline, uncertain and never to be retried;
// the terminal's lock is free and the session's other terminal answers at
// once, through the control client that replaced the stuck one.
func TestTmuxCommandDeadline(t *testing.T) {
	akk, srv := replicaServer(t)
	var modeAt atomic.Pointer[string] // the pane to put in copy-mode at the next send-keys -l
	d := startDaemon(t, srv, daemonOpts{onCommand: func(cmds []controlmode.Cmd) {
		for _, c := range cmds {
			if len(c) > 0 && c[0] == "send-keys" && slices.Contains(c, "-l") {
				if pane := modeAt.Swap(nil); pane != nil {
					// Synchronous: the mode is on before the text's line is queued.
					if _, err := srv.Run("copy-mode", "-t", *pane); err != nil {
						t.Error(err)
					}
				}
			}
		}
	}})
	ctx, client := driverClient(t, srv, 2*time.Minute)
	rcs := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "send"}, {"codex", "0.155.1", "permission-approve"}})
	r := newReplicaDriver(t, ctx, d, client, rcs[0])
	other := newReplicaDriver(t, ctx, d, client, rcs[1])
	r.toInput()
	other.toMarker(0)
	st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	pid := daemonClientPID(t, d)
	modeAt.Store(&rcs[0].pane)

	start := time.Now()
	res, err := d.cl.Send(ctx, api.SendRequest{TerminalID: st.Terminal.TerminalID, Request: "find the file"})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomeUncertain || !res.DoNotRetry || !strings.Contains(res.Reason, api.ReasonTmuxTimeout) {
		t.Fatalf("send with tmux holding its text: %s (%s) do_not_retry=%v, want uncertain (tmux_timeout), do_not_retry", res.Outcome, res.Reason, res.DoNotRetry)
	}
	// Its deadline (5 s) is the whole of it: no wait for ever.
	if took > 15*time.Second {
		t.Errorf("the send took %v", took)
	}
	t.Logf("send ended uncertain after %v", took.Round(time.Millisecond))

	// The other terminal of the session answers, through a new client.
	tmuxtest.Await(t, 10*time.Second, func() string {
		sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		st, err := d.cl.Status(sctx, api.StatusRequest{TerminalID: other.row().TerminalID})
		if err != nil {
			return err.Error()
		}
		if st.Terminal.ScreenState != contract.ScreenAwaitingApproval {
			return "the other terminal shows " + string(st.Terminal.ScreenState)
		}
		return ""
	})
	// The lock is free and the client replaced: the same terminal takes
	// a call (refused: its pane is still in copy-mode).
	tmuxtest.Await(t, 10*time.Second, func() string {
		if now := daemonClientPID(t, d); now == pid {
			return "the stuck control client is still the session's"
		}
		res, err := d.cl.Send(ctx, api.SendRequest{TerminalID: st.Terminal.TerminalID, Request: "hello there"})
		if err != nil {
			return err.Error()
		}
		if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonPaneInMode) {
			return fmt.Sprintf("a send after the timeout: %s (%s), want rejected (pane_in_mode)", res.Outcome, res.Reason)
		}
		return ""
	})
	t.Logf("replaced and answering %v after the send's end", time.Since(start)-took)
	// Copy-mode took the text: the replica got none of it, and ends
	// clean on its recorded inputs once the person leaves the mode.
	srv.MustRun("copy-mode", "-q", "-t", rcs[0].pane)
	r.finish(srv)
	other.finish(srv)
}

// daemonClientPID is the pid of the daemon's control client of its one
// session.
func daemonClientPID(t *testing.T, d *daemon) int {
	t.Helper()
	var pid int
	tmuxtest.Await(t, 5*time.Second, func() string {
		d.sv.mu.Lock()
		defer d.sv.mu.Unlock()
		for _, se := range d.sv.sessions {
			pid = se.client.PID()
			return ""
		}
		return "no session attached"
	})
	return pid
}
