package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// BenchmarkTmuxScale200 is akk at scale, one phase after the other (never
// at once), against an `akk attach` process:
//
//  1. 200 replica agents (Claude Code and Codex at their idle screens) in
//     4 sessions: the daemon's RSS once all are recognized idle;
//  2. 60 s with nothing happening: the daemon's and the tmux server's CPU
//     (event-driven: the target is under 1% of one core);
//  3. 20 panes streaming coloured build output: the daemon's CPU per MB,
//     and meanwhile 20 probes, each a replica that draws a Claude Code
//     permission prompt the moment it is sent a key: key -> the
//     daemon's awaiting_approval event, p50 and p99;
//  4. the daemon stopped, one `tmux capture-pane -p -e` per pane over the
//     same 200 panes, the way a poller looks: its wall time, CPU (the
//     capture processes and the tmux server), and that cost at 2 Hz.
//
// Run: go test -run '^$' -bench TmuxScale200 -benchtime 1x ./supervisor
// (AKK_SCALE_PANES changes 200; AKK_SCALE_IDLE the 60 s).
func BenchmarkTmuxScale200(b *testing.B) {
	akk := tmuxAkk(b)
	panes := envInt(b, "AKK_SCALE_PANES", 200)
	idleFor := time.Duration(envInt(b, "AKK_SCALE_IDLE", 60)) * time.Second
	for range b.N {
		srv := tmuxtest.StartFixed(b, 120, 40, "sh")
		dir := b.TempDir()
		files := [2]string{scaleReplica(b, dir, "claude", "2.1.267", "idle"), scaleReplica(b, dir, "codex", "0.155.1", "idle")}
		var fifos []string
		for s := range 4 {
			srv.MustRun("new-session", "-d", "-s", fmt.Sprintf("s%d", s), "-x", "120", "-y", "40")
		}
		for i := range panes {
			fifo := filepath.Join(dir, fmt.Sprintf("go%d", i))
			tmuxtest.Mkfifo(b, fifo)
			fifos = append(fifos, fifo)
			srv.MustRun("new-window", "-d", "-t", fmt.Sprintf("s%d", i%4),
				fmt.Sprintf(`sh -c 'read _ < "%s"; exec "%s" replica "%s"'`, fifo, akk, files[i%2]))
		}
		p := startProc(b, akk, srv, dir+"/store", filepath.Join(dir, "api", api.SocketName))
		for _, f := range fifos {
			if err := os.WriteFile(f, []byte("go\n"), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		tmuxtest.Await(b, 5*time.Minute, func() string {
			n := countRows(p.cl, func(r api.Terminal) bool { return r.Replica && r.ScreenState == contract.ScreenIdle })
			if n != panes {
				return fmt.Sprintf("%d of %d replicas idle", n, panes)
			}
			return ""
		})
		b.ReportMetric(time.Since(start).Seconds(), "s-to-all-idle")
		b.ReportMetric(vmRSS(b, p.cmd.Process.Pid), "MiB-rss")

		// 2. Idle.
		tmuxPID := serverPID(b, srv)
		d0, t0, w0 := procCPU(b, p.cmd.Process.Pid), procCPU(b, tmuxPID), time.Now()
		time.Sleep(idleFor) // a measurement: CPU over an idle minute
		wall := time.Since(w0)
		b.ReportMetric(100*(procCPU(b, p.cmd.Process.Pid)-d0).Seconds()/wall.Seconds(), "%core-daemon-idle")
		b.ReportMetric(100*(procCPU(b, tmuxPID)-t0).Seconds()/wall.Seconds(), "%core-tmux-idle")

		// 3. 20 panes streaming, and the probes meanwhile.
		const streams, perStream = 20, 2 << 20
		chunk := strings.Repeat("\x1b[1;32m✓\x1b[0m building \x1b[2mmodule\x1b[0m step 42 of 97 — done\r\n", 64)
		src := filepath.Join(dir, "stream.txt")
		if err := os.WriteFile(src, []byte(strings.Repeat(chunk, perStream/len(chunk)+1)[:perStream]), 0o644); err != nil {
			b.Fatal(err)
		}
		var gates []string
		for i := range streams {
			gate := filepath.Join(dir, fmt.Sprintf("stream%d", i))
			tmuxtest.Mkfifo(b, gate)
			gates = append(gates, gate)
			srv.MustRun("new-window", "-d", "-t", "s0", fmt.Sprintf(`sh -c 'read _ < "%s"; cat "%s"; exec sleep 600'`, gate, src))
		}
		tmuxtest.Await(b, time.Minute, func() string {
			// The replicas, the streams, main's shell and each session's first window.
			if n := countRows(p.cl, func(api.Terminal) bool { return true }); n < panes+streams+5 {
				return fmt.Sprintf("%d of %d panes listed", n, panes+streams+5)
			}
			return ""
		})
		probe := scaleProbe(b, dir)
		c0 := procCPU(b, p.cmd.Process.Pid)
		for _, g := range gates {
			if err := os.WriteFile(g, []byte("go\n"), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		lat := &latencies{}
		for i := range streams {
			lat.add(probeLatency(b, srv, p.cl, akk, probe, i))
		}
		tmuxtest.Await(b, 5*time.Minute, func() string {
			if n := countRows(p.cl, func(r api.Terminal) bool { return r.Command == "sleep" }); n < streams {
				return fmt.Sprintf("%d of %d streams done", n, streams)
			}
			return ""
		})
		cpu := procCPU(b, p.cmd.Process.Pid) - c0
		b.ReportMetric(float64(cpu.Milliseconds())/float64(streams*perStream>>20), "cpu-ms/MB")
		p50, p99, _ := lat.quantiles()
		b.ReportMetric(p50, "probe-p50-ms")
		b.ReportMetric(p99, "probe-p99-ms")

		// 4. The daemon stopped: what a capture-pane poller pays.
		p.kill(syscall.SIGTERM)
		ids := strings.Fields(string(srv.MustRun("list-panes", "-a", "-F", "#{pane_id}")))
		t1, s0 := procCPU(b, tmuxPID), time.Now()
		var children time.Duration
		for _, id := range ids {
			cmd := srv.Command("capture-pane", "-p", "-e", "-t", id)
			if _, err := cmd.Output(); err != nil {
				b.Fatalf("capture-pane %s: %v", id, err)
			}
			children += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		sweep, sweepTmux := time.Since(s0), procCPU(b, tmuxPID)-t1
		b.ReportMetric(float64(len(ids)), "panes-swept")
		b.ReportMetric(float64(sweep.Milliseconds()), "sweep-wall-ms")
		b.ReportMetric(float64((children + sweepTmux).Milliseconds()), "sweep-cpu-ms")
		b.ReportMetric(100*2*(children+sweepTmux).Seconds(), "%core-at-2Hz")
	}
}

func envInt(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// scaleReplica writes a corpus recording with a last input only the test
// would send, so the replica stays at its final screen.
func scaleReplica(t testing.TB, dir, agent, version, surface string) string {
	rec := loadCorpus(t, agent, version, surface)
	appendEvents(rec, sentinel)
	return saveRecording(t, dir, fmt.Sprintf("%s-%s-%s.cast", agent, version, surface), rec)
}

// scaleProbe writes a Claude Code 2.1.267 replica that waits for "x", then
// draws the recorded stream up to its permission prompt at once.
func scaleProbe(t testing.TB, dir string) string {
	out := outputUntil(t, filepath.Join(corpusDir, "claude", "2.1.267", "permission-approve.cast"), contract.ScreenAwaitingApproval)
	rec := &recordings.Recording{
		Header: recordings.Header{Version: 2, Width: 120, Height: 40,
			Akk: &recordings.Akk{Agent: "claude", Version: "2.1.267", Scenario: "probe", Recorder: "akk-test/1"}},
		Events: []recordings.Event{{Time: 0, Code: recordings.Input, Data: []byte("x")},
			{Time: 0.001, Code: recordings.Output, Data: out},
			{Time: 0.002, Code: recordings.Input, Data: []byte(sentinel)}},
	}
	return saveRecording(t, dir, "probe.cast", rec)
}

// probeLatency starts probe i, waits until the daemon knows it as a
// replica (nothing drawn yet), sends its key and times the way to the
// awaiting_approval row.
func probeLatency(t testing.TB, srv *tmuxtest.Server, cl *api.Client, akk, probe string, i int) time.Duration {
	out := srv.MustRun("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s1",
		fmt.Sprintf(`exec "%s" replica --speed 0 "%s"`, akk, probe))
	pane := strings.TrimSpace(string(out))
	tmuxtest.Await(t, 30*time.Second, func() string {
		l, err := cl.List(context.Background())
		if err != nil {
			return err.Error()
		}
		if r, _ := rowOf(l, pane); !r.Replica {
			return fmt.Sprintf("probe %d not identified: %+v", i, r)
		}
		return ""
	})
	t0 := time.Now()
	srv.MustRun("send-keys", "-t", pane, "-l", "x")
	tmuxtest.Await(t, 30*time.Second, func() string {
		l, err := cl.List(context.Background())
		if err != nil {
			return err.Error()
		}
		if r, _ := rowOf(l, pane); r.ScreenState != contract.ScreenAwaitingApproval {
			return fmt.Sprintf("probe %d: %s", i, r.ScreenState)
		}
		return ""
	})
	d := time.Since(t0)
	srv.MustRun("kill-window", "-t", pane)
	return d
}

func countRows(cl *api.Client, ok func(api.Terminal) bool) int {
	l, err := cl.List(context.Background())
	if err != nil {
		return -1
	}
	n := 0
	for _, r := range l.Terminals {
		if ok(r) {
			n++
		}
	}
	return n
}

func serverPID(t testing.TB, srv *tmuxtest.Server) int {
	pid, err := strconv.Atoi(strings.TrimSpace(string(srv.MustRun("display-message", "-p", "#{pid}"))))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// procCPU is a process's user and system time, from /proc/<pid>/stat.
func procCPU(t testing.TB, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	st, _ := strconv.ParseUint(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
