package supervisor

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/fault"
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
		Roots: map[string]string{"claude": projects, "codex": sessions}, Logger: testLogger(t), Callbacks: callbacks})
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
	if !fault.Enabled {
		t.Skip("needs the fault hook: go test -tags akkfault")
	}
	requireTmux(t)
	akk := buildAkk(t)
	runs := 3
	if v := os.Getenv("AKK_CRASH_RUNS"); v != "" {
		runs, _ = strconv.Atoi(v)
	}
	srv := tmuxtest.Start(t, 120, 40, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
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

// crashChild is a daemon started again from this test binary with one
// fault point armed, on its own store and socket.
type crashChild struct {
	dir, storeDir string
	cmd           *exec.Cmd
	exited        chan error
	out           *lockedBuffer // read while the child writes it
	cl            *api.Client
}

func startCrashChild(t *testing.T, srv *tmuxtest.Server, point string, env ...string) *crashChild {
	t.Helper()
	dir := t.TempDir()
	c := &crashChild{dir: dir, storeDir: filepath.Join(dir, "store"), exited: make(chan error, 1), out: &lockedBuffer{}}
	for _, kv := range env { // a store prepared before the child (env wins: the last value of a key)
		if v, ok := strings.CutPrefix(kv, "AKK_CRASH_DISPATCH_STORE="); ok {
			c.storeDir = v
		}
	}
	sock := filepath.Join(dir, "api", api.SocketName)
	c.cmd = exec.Command(os.Args[0], "-test.run", "^TestDispatchCrashChild$", "-test.count=1")
	c.cmd.Env = append(os.Environ(), "AKK_CRASH_DISPATCH_STORE="+c.storeDir, "AKK_CRASH_DISPATCH_SOCK="+sock,
		"AKK_CRASH_DISPATCH_TMUX="+srv.Socket, "AKK_FAULT="+point, "AKK_FAULT_MARK="+filepath.Join(dir, "mark"),
		// The child dies by SIGKILL, before its own t.TempDir cleanup: its
		// temporary directories live under ours, which this test removes.
		"TMPDIR="+dir)
	c.cmd.Env = append(c.cmd.Env, env...)
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	c.cl = api.NewClient(sock)
	t.Cleanup(func() {
		c.cl.Close()
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill() // our own child, by its pid
			<-c.exited
		}
	})
	return c
}

// awaitRow waits for the child daemon to show the pane in screen state.
func (c *crashChild) awaitRow(t *testing.T, ctx context.Context, pane string, state contract.ScreenState) api.Terminal {
	t.Helper()
	return c.awaitRowFunc(t, ctx, pane, func(row api.Terminal) string {
		if row.ScreenState != state {
			return "the child daemon shows " + string(row.ScreenState)
		}
		return ""
	})
}

// awaitRowFunc waits for the child daemon's row of the pane to satisfy
// ok ("" when it does).
func (c *crashChild) awaitRowFunc(t *testing.T, ctx context.Context, pane string, ok func(api.Terminal) string) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 20*time.Second, func() string {
		l, err := c.cl.List(ctx)
		if err != nil {
			if len(c.exited) > 0 {
				return fmt.Sprintf("the child daemon exited: %v\n%s", err, c.out.String())
			}
			return err.Error() + "; the child's log so far:\n" + c.out.String()
		}
		row, _ = rowOf(l, pane)
		return ok(row)
	})
	return row
}

// killed waits for the child to die at point and returns the store's
// reservations at kill time.
func (c *crashChild) killed(t *testing.T, name, point string) []store.Reservation {
	t.Helper()
	return c.killedOp(t, name, point, "")
}

// killedOp is killed counting only the reservations of op ("": every
// one): a store an earlier daemon prepared holds its own.
func (c *crashChild) killedOp(t *testing.T, name, point, op string) []store.Reservation {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: the daemon did not die", name)
	}
	if mark, _ := os.ReadFile(filepath.Join(c.dir, "mark")); strings.TrimSpace(string(mark)) != point {
		t.Fatalf("%s: killed at %q, not at the point:\n%s", name, mark, c.out.String())
	}
	st, err := store.Open(c.storeDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Reservations()
	if err != nil {
		t.Fatal(err)
	}
	var rs []store.Reservation
	for _, r := range all {
		if op == "" || r.Op == op {
			rs = append(rs, r)
		}
	}
	wantStage := map[string]string{dispatch.FaultAfterReserve: store.StageReserved, dispatch.FaultAfterInput: store.StageInputSent,
		dispatch.FaultBeforeReceipt: store.StageInputSent}[point]
	switch {
	case point == dispatch.FaultBeforeReserve && len(rs) != 0:
		t.Fatalf("%s: killed before the reservation, yet %d are stored", name, len(rs))
	case point != dispatch.FaultBeforeReserve && (len(rs) != 1 || rs[0].Stage != wantStage):
		t.Fatalf("%s: at kill time the store holds %+v, want one reservation at %s", name, rs, wantStage)
	}
	return rs
}

// restartUncertain restarts the daemon on the child's store (in this
// process, no fault armed) and waits for the reservation killed in the
// middle, if any, to be settled uncertain. It returns its final stage
// ("none": nothing was reserved).
func (c *crashChild) restartUncertain(t *testing.T, srv *tmuxtest.Server, name string, rs []store.Reservation, opts ...daemonOpts) (*daemon, string) {
	t.Helper()
	var o daemonOpts
	if len(opts) > 0 {
		o = opts[0]
	}
	o.storeDir = c.storeDir
	d := startDaemon(t, srv, o)
	if len(rs) == 0 {
		return d, "none"
	}
	var got store.Reservation
	tmuxtest.Await(t, 20*time.Second, func() string { // the restart settles open reservations before it serves
		var err error
		got, err = d.st.Reservation(rs[0].ID)
		if err != nil || got.Stage != store.StageUncertain {
			return fmt.Sprintf("%s: after restart the reservation is %+v %v, want uncertain", name, got, err)
		}
		return ""
	})
	return d, got.Stage
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

// lockedBuffer is an io.Writer that may be read while exec's copier
// writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
