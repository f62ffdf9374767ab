package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// procDaemon is `akk attach` as its own process.
type procDaemon struct {
	cmd    *exec.Cmd
	cl     *api.Client
	stderr *syncbuf.Buffer
	done   chan error
}

// attachCmd is the command line of a daemon on srv.
func attachCmd(akk string, srv *tmuxtest.Server, storeDir, sock string) *exec.Cmd {
	cmd := exec.Command(akk, "attach", "-S", srv.Socket, "--store", storeDir, "--socket", sock, "--allow-replicas")
	cmd.Env = srv.Env
	return cmd
}

// startProc starts a daemon process and waits until it answers.
func startProc(t testing.TB, akk string, srv *tmuxtest.Server, storeDir, sock string) *procDaemon {
	t.Helper()
	p := &procDaemon{cmd: attachCmd(akk, srv, storeDir, sock), cl: api.NewClient(sock), stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { p.kill(syscall.SIGTERM); p.cl.Close() })
	tmuxtest.Await(t, 15*time.Second, func() string {
		h, err := p.cl.Health(context.Background())
		if err != nil || h.PID != p.cmd.Process.Pid {
			return fmt.Sprintf("daemon not answering: %v\n%s", err, p.stderr.String())
		}
		return ""
	})
	return p
}

// kill signals the daemon (our own child, by pid) and waits for it.
func (p *procDaemon) kill(sig syscall.Signal) {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// TestTmuxRestartAfterKill9: the daemon is killed with SIGKILL while the
// replicas work, the replicas go on to their next states, and a new daemon
// on the same store rebinds every pane to the same terminal_id and session,
// keeps every event the first one published, duplicates none, and records
// the states reached meanwhile.
func TestTmuxRestartAfterKill9(t *testing.T) {
	akk, srv := replicaServer(t)
	cases := replicaPanes(t, srv, akk, [][3]string{
		{"claude", "2.1.267", "several-questions"},
		{"codex", "0.155.1", "question-digit"},
		{"claude", "2.1.263", "permission-approve"},
	})
	for _, c := range cases {
		c.keepAlive = true
	}
	storeDir, sock := t.TempDir(), filepath.Join(t.TempDir(), "api", api.SocketName)
	a := startProc(t, akk, srv, storeDir, sock)
	evA := followEvents(t, a.cl)
	ctx, client := driverClient(t, srv, 90*time.Second)

	// Drive every replica to its first marker, seen by daemon A; hold it
	// there until A is dead; then let it finish.
	gate := make(chan struct{})
	var atFirst, wg sync.WaitGroup
	last := map[string]contract.ScreenState{} // pane -> last marker state
	var mu sync.Mutex
	for _, c := range cases {
		wg.Add(1)
		atFirst.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			driveReplica(t, ctx, client, c, func(m recordings.Marker, _ time.Time) {
				mu.Lock()
				last[c.pane] = m.State
				mu.Unlock()
				if n++; n == 1 {
					awaitState(t, a.cl, c.pane, m.State)
					atFirst.Done()
					<-gate
				}
			})
		}()
	}
	atFirst.Wait()
	before, err := a.cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.kill(syscall.SIGKILL)
	seenByA, _ := evA.snapshot()
	close(gate)
	wg.Wait()

	b := startProc(t, akk, srv, storeDir, sock)
	for _, c := range cases {
		awaitState(t, b.cl, c.pane, contract.ScreenState(last[c.pane]))
	}
	after, err := b.cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range before.Terminals {
		r2, ok := rowOf(after, r.PaneID)
		if !ok || r2.TerminalID != r.TerminalID || r2.Session != r.Session {
			t.Errorf("pane %s: before the kill %s in %s, after the restart %+v", r.PaneID, r.TerminalID, r.Session, r2)
		}
	}
	var all []api.Event
	if err := b.cl.Events(ctx, 0, false, func(e api.Event) error { all = append(all, e); return nil }); err != nil {
		t.Fatal(err)
	}
	for i, e := range seenByA {
		if i >= len(all) || all[i].Seq != e.Seq || all[i].Type != e.Type || all[i].TerminalID != e.TerminalID ||
			fmt.Sprint(all[i].Attrs) != fmt.Sprint(e.Attrs) {
			t.Fatalf("event %d seen before the kill is not in the store as it was: %+v", e.Seq, e)
		}
	}
	checkEventLog(t, &eventLog{evs: all}, after)
	for _, e := range all {
		if e.Type == api.EventTerminalRemoved {
			t.Errorf("restart removed a terminal: %+v", e)
		}
	}
	t.Logf("%d events before the kill, %d after the restart", len(seenByA), len(all))
}

// awaitState waits until the pane's row shows state.
func awaitState(t *testing.T, cl *api.Client, pane string, state contract.ScreenState) {
	deadline := time.Now().Add(15 * time.Second)
	var row api.Terminal
	for time.Now().Before(deadline) {
		if l, err := cl.List(context.Background()); err == nil {
			if row, _ = rowOf(l, pane); row.ScreenState == state {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("pane %s: screen_state %q, want %q", pane, row.ScreenState, state)
}

// TestTmuxSecondDaemonRefused: a second daemon on the same store fails at
// once naming the holder; one on the same socket says so; a client with
// no daemon exits 6 saying how to start one.
func TestTmuxSecondDaemonRefused(t *testing.T) {
	akk := tmuxAkk(t)
	srv := tmuxtest.Start(t, 80, 24, "sh")
	storeDir, sock := t.TempDir(), filepath.Join(t.TempDir(), "api", api.SocketName)
	a := startProc(t, akk, srv, storeDir, sock)
	run := func(cmd *exec.Cmd) (int, string, time.Duration) {
		start := time.Now()
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out), time.Since(start)
		}
		return 0, string(out), time.Since(start)
	}
	code, out, took := run(attachCmd(akk, srv, storeDir, filepath.Join(t.TempDir(), "b.sock")))
	if code == 0 || !strings.Contains(out, fmt.Sprintf("held by pid %d", a.cmd.Process.Pid)) || !strings.Contains(out, "--store") || took > 3*time.Second {
		t.Errorf("second daemon on the store: exit %d after %v:\n%s", code, took, out)
	}
	code, out, _ = run(attachCmd(akk, srv, t.TempDir(), sock))
	if code == 0 || !strings.Contains(out, "another akk attach answers on "+sock) {
		t.Errorf("second daemon on the socket: exit %d:\n%s", code, out)
	}
	code, out, _ = run(exec.Command(akk, "list", "--socket", filepath.Join(t.TempDir(), "none.sock")))
	if code != 6 || !strings.Contains(out, "start it with `akk attach`") {
		t.Errorf("list without a daemon: exit %d:\n%s", code, out)
	}
	if _, err := a.cl.Health(context.Background()); err != nil {
		t.Errorf("the first daemon stopped answering: %v", err)
	}
}
