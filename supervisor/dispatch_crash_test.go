package supervisor

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// TestDispatchCrashChild is the daemon of TestTmuxDispatchCrash: it runs
// only when that test starts this binary again, supervises the test's
// tmux server on the given store and socket until it is killed (by the
// fault hook, at its point of the transaction) or the test ends it.
func TestDispatchCrashChild(t *testing.T) {
	dir := os.Getenv("AKK_CRASH_DISPATCH_STORE")
	if dir == "" {
		t.Skip("started by TestTmuxDispatchCrash only")
	}
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := api.Listen(os.Getenv("AKK_CRASH_DISPATCH_SOCK"))
	if err != nil {
		t.Fatal(err)
	}
	// A live crash run points the child at its agent's files.
	projects, sessions := cmp.Or(os.Getenv("AKK_CRASH_CLAUDE_PROJECTS"), t.TempDir()), cmp.Or(os.Getenv("AKK_CRASH_CODEX_SESSIONS"), t.TempDir())
	// A callback crash run gives the child its routes (outbox.Config as JSON).
	var callbacks outbox.Config
	if cb := os.Getenv("AKK_CRASH_CALLBACKS"); cb != "" {
		if err := json.Unmarshal([]byte(cb), &callbacks); err != nil {
			t.Fatal(err)
		}
	}
	sv, err := New(Config{Store: st, TmuxSocket: os.Getenv("AKK_CRASH_DISPATCH_TMUX"), Listener: ln, AllowReplicas: true,
		Roots: map[string]string{"claude": projects, "codex": sessions}, Logger: testLogger(t), Callbacks: callbacks,
		QualifyDir: os.Getenv("AKK_CRASH_QUALIFY_DIR")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := sv.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestTmuxDispatchCrash kills the daemon (SIGKILL through the fault hook,
// never a timed kill) at each stage of an approve transaction —
// before the reservation, after it, after the input, before the receipt
// — AKK_CRASH_RUNS times each (default 3), each run on a fresh strict
// replica. Each run checks the stage's durable record at kill time, then
// restarts the daemon on the same store and checks that every reservation
// ends done, rejected or uncertain, that an uncertain one is never retried
// (the prompt it may have answered is fenced: a fresh approve is refused
// with zero input), and that nothing is sent twice (the replica, which
// exits on any input it did not record, ends clean).
func TestTmuxDispatchCrash(t *testing.T) {
	requireFaultHook(t)
	akk := tmuxAkk(t)
	runs := 3
	if v := os.Getenv("AKK_CRASH_RUNS"); v != "" {
		runs, _ = strconv.Atoi(v)
	}
	srv := tmuxtest.StartFixed(t, 120, 40, "sh")
	ctx, client := driverClient(t, srv, 30*time.Minute)
	counts := map[string]map[string]int{}
	for _, point := range dispatch.FaultPoints {
		counts[point] = map[string]int{}
		t.Run(point, func(t *testing.T) {
			for run := range runs {
				outcome := crashRun(t, ctx, srv, client, akk, point, run)
				counts[point][outcome]++
				if t.Failed() {
					return
				}
			}
		})
	}
	t.Logf("%d runs per point; after restart: %v", runs, counts)
}

// crashRun is one kill and restart; it returns the reservation's final
// stage after the restart ("none": nothing was reserved).
func crashRun(t *testing.T, ctx context.Context, srv *tmuxtest.Server, client *controlmode.Client, akk, point string, run int) string {
	t.Helper()
	rc := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267", "permission-approve"}})[0]
	c := startCrashChild(t, srv, point)
	r := &replicaDriver{t: t, ctx: ctx, client: client, c: rc, name: fmt.Sprintf("%s run %d", point, run)}
	r.start()
	r.toMarker(0) // the test types the task; the prompt is up
	row := c.awaitRow(t, ctx, rc.pane, contract.ScreenAwaitingApproval)
	if _, err := c.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.cl.Approve(ctx, api.ApproveRequest{TerminalID: row.TerminalID}); err == nil {
		t.Fatalf("%s: the approve returned; the fault hook did not fire", r.name)
	}
	rs := c.killed(t, r.name, point)
	inputLanded := point == dispatch.FaultAfterInput || point == dispatch.FaultBeforeReceipt
	if inputLanded {
		r.skipInput() // akk's "1" reached the replica before the kill
	}
	d, final := c.restartUncertain(t, srv, r.name, rs)
	// A fresh approve: accepted only when nothing was reserved before.
	if !inputLanded {
		if _, _, err := awaitPaneState(ctx, d, rc.pane, contract.ScreenAwaitingApproval); err != nil {
			t.Fatal(err)
		}
		st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID})
		if err != nil {
			t.Fatal(err)
		}
		// A prompt whose answer may have landed shows so (seed 000), with
		// nothing to approve.
		if in := st.Terminal.Interaction; point == dispatch.FaultAfterReserve &&
			(in == nil || in.State != contract.StateResponseUncertain || len(in.Decisions) != 0) {
			t.Fatalf("%s: after an uncertain reservation the prompt shows %+v, want %s", r.name, in, contract.StateResponseUncertain)
		}
		res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: row.TerminalID})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case point == dispatch.FaultBeforeReserve && res.Outcome != api.OutcomeAccepted:
			t.Fatalf("%s: nothing was reserved, yet the fresh approve is %+v", r.name, res)
		case point == dispatch.FaultAfterReserve && res.Outcome == api.OutcomeAccepted:
			t.Fatalf("%s: an uncertain reservation's prompt was answered again", r.name)
		}
		if res.Outcome == api.OutcomeAccepted {
			r.skipInput()
		}
	}
	r.d = d
	r.finish(srv)
	d.stop()
	return final
}

// start follows the replica's pane and releases it.
func (r *replicaDriver) start() {
	r.t.Helper()
	rf, err := followReplica(r.client, r.c.pane)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(rf.Close)
	r.rf = rf
	if err := rf.release(r.ctx, r.c.fifo); err != nil {
		r.t.Fatalf("%s: %v", r.name, err)
	}
}
