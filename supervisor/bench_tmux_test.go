package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/vt"
)

// stateRecognizer reads "STATE:<word>" off the screen: a stand-in for the
// recognizers that costs nothing, so that the pipeline itself is measured
// (pane byte -> tmux -> control client -> feed -> vt -> pass -> store ->
// event stream).
func stateRecognizer(_, _ string, scr *vt.Screen) recognition {
	_, h := scr.Size()
	for y := h - 1; y >= 0; y-- {
		row := scr.PlainText(vt.Rect{X: 0, Y: y, W: 80, H: 1})
		if i := strings.Index(row, "STATE:"); i >= 0 {
			return recognition{Screen: strings.Fields(row[i+6:] + " ")[0], Composer: "absent"}
		}
	}
	return recognition{Screen: api.ScreenUnknown, Composer: "absent"}
}

// catPane opens a window running `cat FIFO` and returns its pane and the
// fifo's write end.
func catPane(t testing.TB, srv *tmuxtest.Server, w, h int) (string, *os.File) {
	fifo := filepath.Join(t.TempDir(), "in")
	mkfifo(t, fifo)
	pane := newWindow(t, srv, w, h, "cat "+fifo)
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return pane, f
}

// stateEvents streams the terminal.state events of the daemon.
func stateEventsOf(t testing.TB, cl *api.Client) <-chan api.Event {
	ch := make(chan api.Event, 1024)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = cl.Events(ctx, 0, true, func(e api.Event) error {
			if e.Type == api.EventTerminalState || e.Type == api.EventTerminalAdded {
				ch <- e
			}
			return nil
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	return ch
}

func terminalOf(t testing.TB, d *daemon, pane string) string {
	var id string
	await(t, 10*time.Second, func() string {
		l, err := d.cl.List(context.Background())
		if err != nil {
			return err.Error()
		}
		r, ok := rowOf(l, pane)
		if !ok {
			return "pane " + pane + " not listed"
		}
		id = r.TerminalID
		return ""
	})
	return id
}

// BenchmarkTmuxByteToState: one iteration writes a line that changes the
// pane's state and waits for the state event; p50/p99 are reported.
func BenchmarkTmuxByteToState(b *testing.B) {
	requireTmux(b)
	srv := tmuxtest.Start(b, 80, 24, "sh")
	pane, w := catPane(b, srv, 80, 24)
	d := startDaemon(b, srv, daemonOpts{recognize: stateRecognizer})
	evs := stateEventsOf(b, d.cl)
	id := terminalOf(b, d, pane)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := [...]string{"working", "idle"}[i%2]
		t0 := time.Now()
		fmt.Fprintf(w, "\r\x1b[KSTATE:%s", state)
		for e := range evs {
			if e.TerminalID == id && e.Attrs["screen_state"] == state {
				break
			}
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	p50, p99 := quantile(lat, 0.5), quantile(lat, 0.99)
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p99, "p99-ms")
}

func quantile(d []time.Duration, q float64) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return float64(s[int(q*float64(len(s)-1))].Microseconds()) / 1000
}

// BenchmarkTmuxCPUPerMB pushes pane output (agent-like lines with colours)
// through a pane recognized with the real Claude Code profile, and reports
// the daemon's CPU time per MB of output (this process: the test's own
// writes are a small part of it).
func BenchmarkTmuxCPUPerMB(b *testing.B) {
	requireTmux(b)
	srv := tmuxtest.Start(b, 120, 40, "sh")
	pane, w := catPane(b, srv, 120, 40)
	pr := &paneRecognizer{}
	key := interactionKey([]byte("bench"))
	real := func(_, _ string, scr *vt.Screen) recognition { return pr.recognize(key, "claude", "2.1.267", scr) }
	d := startDaemon(b, srv, daemonOpts{recognize: real})
	terminalOf(b, d, pane)
	pid, _ := paneIDOf(pane)
	chunk := []byte(strings.Repeat("\x1b[1;32m✓\x1b[0m building \x1b[2mmodule\x1b[0m step 42 of 97 — done\r\n", 64))
	const perIter = 1 << 20
	b.SetBytes(perIter)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := d.paneBytes(pid)
		c0 := cpuTime()
		for n := 0; n < perIter; n += len(chunk) {
			w.Write(chunk)
		}
		for d.paneBytes(pid) < start+perIter {
			time.Sleep(time.Millisecond)
		}
		cpu += cpuTime() - c0
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/MB")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
