package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// identityRuns is how many times an identity test repeats its case
// (AKK_IDENTITY_RUNS, default 20): each run is a fresh race between the
// daemon's read of the foreground group and the process's exec.
func identityRuns(t testing.TB) int {
	n := 20
	if v := os.Getenv("AKK_IDENTITY_RUNS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("AKK_IDENTITY_RUNS=%q: want a positive number", v)
		}
	}
	return n
}

// identityDeadline is the longest an identification may take (the issue's
// bound); the target is about a second, tmux's subscription period.
const identityDeadline = 3 * time.Second

// reportIdentity prints identification latencies: p50 and max.
func reportIdentity(t testing.TB, what string, l *latencies) {
	l.mu.Lock()
	s := slices.Clone(l.d)
	l.mu.Unlock()
	if len(s) == 0 {
		return
	}
	all := make([]time.Duration, len(s))
	for i, d := range s {
		all[i] = d.Round(time.Millisecond)
	}
	slices.Sort(s)
	t.Logf("%s: %d runs, p50 %v, max %v (in run order: %v)", what, len(s), s[len(s)/2].Round(time.Millisecond),
		s[len(s)-1].Round(time.Millisecond), all)
}

// quietReplica writes a recording of a Codex 0.155.1 replica that draws
// nothing until it is sent "x": once exec'd it gives the daemon no pane
// output to notice it by.
func quietReplica(t testing.TB, dir string) string {
	rec := &recordings.Recording{
		Header: recordings.Header{Version: 2, Width: 80, Height: 24,
			Akk: &recordings.Akk{Agent: "codex", Version: "0.155.1", Scenario: "quiet", Recorder: "akk-test/1"}},
		Events: []recordings.Event{{Time: 0, Code: recordings.Input, Data: []byte("x")},
			{Time: 0.01, Code: recordings.Output, Data: []byte("bye\r\n")}},
	}
	return saveRecording(t, dir, "quiet.cast", rec)
}

// identityStage is where the identity tests play: akk, a tmux server at
// 80x24 (its new windows too) and an in-process daemon on it.
func identityStage(t *testing.T) (akk string, srv *tmuxtest.Server, d *daemon) {
	t.Helper()
	akk, srv = tmuxAkk(t), tmuxtest.StartFixed(t, 80, 24, "sh")
	return akk, srv, startDaemon(t, srv, daemonOpts{})
}

// TestTmuxIdentityExecAfterLastOutput: a shell pane prints its last line,
// waits, then execs into a replica that draws nothing. No pane output
// follows the exec, so only tmux's report of the new foreground command
// (and the re-read after an inconclusive read) can tell the daemon: the
// pane must be identified as the replica within identityDeadline, every
// run. "settled": the exec comes after the daemon's last read of the
// shell was conclusive (nothing pending: tmux's report is all there is);
// "racing": it comes while the daemon may still be reading the new pane.
// Latency is from the release of the shell (it execs at once).
func TestTmuxIdentityExecAfterLastOutput(t *testing.T) {
	akk, srv, d := identityStage(t)
	dir := t.TempDir()
	file := quietReplica(t, dir)
	for _, settled := range []bool{true, false} {
		name := map[bool]string{true: "settled", false: "racing"}[settled]
		t.Run(name, func(t *testing.T) {
			lat := &latencies{}
			for i := range identityRuns(t) {
				fifo := filepath.Join(dir, fmt.Sprintf("%s%d", name, i))
				tmuxtest.Mkfifo(t, fifo)
				// The pane's own shell execs (no nested sh -c, whose last
				// command dash would fork instead).
				pane := newWindow(t, srv, 80, 24, fmt.Sprintf(`echo akk-ready; read _ < "%s"; exec "%s" replica "%s"`, fifo, akk, file))
				tmuxtest.Await(t, 10*time.Second, func() string { return d.shellSeen(pane, "akk-ready", settled) })
				if err := d.releaseIdentified(fifo, pane, lat); err != nil {
					t.Fatalf("run %d: %v", i, err)
				}
				srv.MustRun("send-keys", "-t", pane, "-l", "x")
				srv.MustRun("kill-window", "-t", pane)
			}
			reportIdentity(t, "exec into a quiet replica ("+name+") -> identified", lat)
		})
	}
}

// releaseIdentified releases a pane waiting on fifo to start the quiet
// or drawing Codex 0.155.1 replica, and waits up to identityDeadline for
// its row to name it; the time from the release is added to lat.
func (d *daemon) releaseIdentified(fifo, pane string, lat *latencies) error {
	release := time.Now()
	if err := os.WriteFile(fifo, []byte("\n"), 0); err != nil {
		return err
	}
	err := tmuxtest.Poll(context.Background(), identityDeadline, func() string {
		return d.identified(pane, "codex", "0.155.1", true)
	})
	lat.add(time.Since(release))
	return err
}

// shellSeen says what is missing before a pane counts as a shell the
// daemon has read ("" when nothing): a row with no agent and text (the
// shell's last line) on the daemon's screen; with settled, also a
// conclusive last read (no re-read pending).
func (d *daemon) shellSeen(pane, text string, settled bool) string {
	l, err := d.cl.List(context.Background())
	if err != nil {
		return err.Error()
	}
	row, _ := rowOf(l, pane)
	if row.Agent != api.AgentNone || row.TerminalID == "" || !strings.Contains(d.screenText(pane), text) {
		return fmt.Sprintf("the shell in %s not yet seen: %+v", pane, row)
	}
	if !settled {
		return ""
	}
	p, _ := paneIDOf(pane)
	m := d.sv.monitor(p)
	if m == nil {
		return "no monitor for " + pane
	}
	dg := m.Diagnose()
	if dg.Ident == nil || dg.Rechecks != 0 || dg.RecheckDue {
		return fmt.Sprintf("the read of %s is not settled (%d re-reads asked)", pane, dg.Rechecks)
	}
	return ""
}

// identified says what is missing before the pane's row names agent at
// version ("" when nothing).
func (d *daemon) identified(pane, agent, version string, replica bool) string {
	l, err := d.cl.List(context.Background())
	if err != nil {
		return err.Error()
	}
	row, _ := rowOf(l, pane)
	if row.Agent != agent || row.Replica != replica || row.Version != version {
		return fmt.Sprintf("pane %s is %q %q (replica %v, command %q), want %s %s", pane, row.Agent, row.Version, row.Replica, row.Command, agent, version)
	}
	return ""
}

// TestTmuxIdentityWrapperScript: the agent is the child of a shell script
// that did not exec it (a wrapper script, or `sh -c '…; agent'` under
// dash, which forks even the last command). The script's shell stays the
// group's leader, so tmux reports no new foreground command; the agent
// joins the group long after the daemon's read of the shell was settled,
// and draws. The pane must be identified within identityDeadline of its
// release, every run, and the row must name the agent's own process.
func TestTmuxIdentityWrapperScript(t *testing.T) {
	akk, srv, d := identityStage(t)
	dir := t.TempDir()
	file := drawingReplica(t, dir)
	lat := &latencies{}
	for i := range identityRuns(t) {
		fifo := filepath.Join(dir, fmt.Sprintf("wrapper%d", i))
		tmuxtest.Mkfifo(t, fifo)
		// A command after the agent: every shell forks it; the inner
		// shell then execs the replica, in the outer shell's group.
		pane := newWindow(t, srv, 80, 24, fmt.Sprintf(`exec sh -c 'sh -c "echo akk-ready; read _ < %s; exec %s replica %s"; sleep 600'`, fifo, akk, file))
		tmuxtest.Await(t, 10*time.Second, func() string {
			if why := d.shellSeen(pane, "akk-ready", true); why != "" {
				return why
			}
			// tmux's first report of the pane's command has come: after
			// it, the shell that leads the group stays its command, so
			// tmux reports nothing when the agent joins.
			if p, _ := paneIDOf(pane); d.sv.monitor(p).Diagnose().FgReports == 0 {
				return "no report of " + pane + "'s command from tmux yet"
			}
			return ""
		})
		if err := d.releaseIdentified(fifo, pane, lat); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		l, err := d.cl.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		row, _ := rowOf(l, pane)
		panePID, _ := strconv.Atoi(strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane, "#{pane_pid}"))))
		if row.PID == panePID || row.PID == 0 {
			t.Fatalf("run %d: the row names pid %d, the script's shell (%d), not the replica", i, row.PID, panePID)
		}
		srv.MustRun("send-keys", "-t", pane, "-l", "x")
		srv.MustRun("kill-window", "-t", pane)
	}
	reportIdentity(t, "a wrapper script's agent child -> identified", lat)
}

// drawingReplica writes a recording of a Codex 0.155.1 replica that
// draws a line as it starts, then waits for "x".
func drawingReplica(t testing.TB, dir string) string {
	rec := &recordings.Recording{
		Header: recordings.Header{Version: 2, Width: 80, Height: 24,
			Akk: &recordings.Akk{Agent: "codex", Version: "0.155.1", Scenario: "drawing", Recorder: "akk-test/1"}},
		Events: []recordings.Event{{Time: 0, Code: recordings.Output, Data: []byte("agent started\r\n")},
			{Time: 0.01, Code: recordings.Input, Data: []byte("x")},
			{Time: 0.02, Code: recordings.Output, Data: []byte("bye\r\n")}},
	}
	return saveRecording(t, dir, "drawing.cast", rec)
}
