package supervisor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// crashChild is a daemon started again from this test binary with one
// fault point armed, on its own store and socket.
type crashChild struct {
	dir, storeDir string
	cmd           *exec.Cmd
	exited        chan error
	out           *syncbuf.Buffer // read while the child writes it
	cl            *api.Client
}

func startCrashChild(t *testing.T, srv *tmuxtest.Server, point string, env ...string) *crashChild {
	t.Helper()
	dir := t.TempDir()
	c := &crashChild{dir: dir, storeDir: filepath.Join(dir, "store"), exited: make(chan error, 1), out: &syncbuf.Buffer{}}
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
	var rs []store.Reservation
	for _, r := range c.atKill(t, name, point) {
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

// atKill waits for the child to die at point (the fault hook's mark says
// where it died) and returns every reservation of its store as the kill
// left it.
func (c *crashChild) atKill(t *testing.T, name, point string) []store.Reservation {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: the daemon did not die", name)
	}
	if mark, _ := os.ReadFile(filepath.Join(c.dir, "mark")); strings.TrimSpace(string(mark)) != point {
		t.Fatalf("%s: killed at %q, not at %s:\n%s", name, mark, point, c.out.String())
	}
	st, err := store.Open(c.storeDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Reservations()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// requireFaultHook skips a crash test in a build without the fault hook
// (the crash tier runs go test -tags akkfault).
func requireFaultHook(t testing.TB) {
	t.Helper()
	if !fault.Enabled {
		t.Skip("needs the fault hook: go test -tags akkfault")
	}
}

// eachAgentCrash runs run as the subtest agent/point for each live agent
// the crash tests kill the daemon beside and each of points.
func eachAgentCrash(t *testing.T, points []string, run func(t *testing.T, agent, version, point string)) {
	requireFaultHook(t)
	for _, a := range [][2]string{{"claude", "2.1.267"}, {"codex", "0.155.1"}} {
		t.Run(a[0], func(t *testing.T) {
			for _, point := range points {
				t.Run(point, func(t *testing.T) { run(t, a[0], a[1], point) })
			}
		})
	}
}

// restartedUncertain is restartUncertain for a live crash run: the
// reservation the kill left open, if any, must end uncertain.
func (c *crashChild) restartedUncertain(t *testing.T, srv *tmuxtest.Server, name string, rs []store.Reservation, o daemonOpts) (*daemon, string) {
	t.Helper()
	d, final := c.restartUncertain(t, srv, name, rs, o)
	if len(rs) > 0 && final != store.StageUncertain {
		t.Fatalf("after the restart the reservation is %s", final)
	}
	return d, final
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
