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
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/vt"
)

// stateRecognizer reads "STATE:<word>" off the screen: a stand-in for the
// recognizers that costs nothing, so that the pipeline itself is measured
// (pane byte -> tmux -> control client -> feed -> vt -> pass -> store ->
// event stream).
func stateRecognizer(_, _ string, scr *vt.Screen) terminal.Recognition {
	_, h := scr.Size()
	for y := h - 1; y >= 0; y-- {
		row := scr.PlainText(vt.Rect{X: 0, Y: y, W: 80, H: 1})
		if i := strings.Index(row, "STATE:"); i >= 0 {
			return terminal.Recognition{Screen: contract.ScreenState(strings.Fields(row[i+6:] + " ")[0]), Composer: contract.ComposerAbsent}
		}
	}
	return terminal.Recognition{Screen: contract.ScreenUnknown, Composer: "absent"}
}

// catPane is a benchmark's stage: a tmux server with a w x h window
// running `cat FIFO`, supervised by an in-process daemon that recognizes
// with rec. It returns the daemon, the pane and the fifo's write end.
func catPane(t testing.TB, w, h int, rec func(agent, version string, scr *vt.Screen) terminal.Recognition) (*daemon, string, *os.File) {
	tmuxtest.RequireTmux(t)
	srv := tmuxtest.Start(t, w, h, "sh")
	fifo := filepath.Join(t.TempDir(), "in")
	tmuxtest.Mkfifo(t, fifo)
	// No echo: tmux answers the terminal queries of recorded streams on the
	// pane's input, which must not come back as output.
	pane := newWindow(t, srv, w, h, "sh -c 'stty -echo raw; exec cat "+fifo+"'")
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return startDaemon(t, srv, daemonOpts{recognize: rec}), pane, f
}

// benchClaude recognizes every pane with the real Claude Code 2.1.267
// profile.
func benchClaude() func(agent, version string, scr *vt.Screen) terminal.Recognition {
	return terminal.Fixed(terminal.InteractionKey([]byte("bench")), "claude", "2.1.267")
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
	tmuxtest.Await(t, 10*time.Second, func() string {
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
	d, pane, w := catPane(b, 80, 24, stateRecognizer)
	evs := stateEventsOf(b, d.cl)
	id := terminalOf(b, d, pane)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := [...]string{"working", "idle"}[i%2]
		quiet(b)
		t0 := time.Now()
		fmt.Fprintf(w, "\r\x1b[KSTATE:%s", state)
		for e := range evs {
			if e.TerminalID == id && e.Attrs["screen_state"] == string(state) {
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

// quiet lets the pane be quiet for longer than terminal.MinRecognitionGap before
// the next change, as between an agent's state changes: the figure is the
// latency of a change, not of a recognition deferred behind the previous
// one (that adds at most the gap).
func quiet(b *testing.B) {
	b.StopTimer()
	time.Sleep(3 * terminal.MinRecognitionGap)
	b.StartTimer()
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
	d, pane, w := catPane(b, 120, 40, benchClaude())
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

// outputUntil returns the recording's output bytes before each marker
// that says state.
func outputUntil(t testing.TB, file string, state contract.ScreenState) []byte {
	rec, err := recordings.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, e := range rec.Events {
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			out = append(out, e.Data...)
		case recordings.MarkerEv:
			if m, err := recordings.ParseMarker(string(e.Data)); err == nil && m.State == state {
				return out
			}
		}
	}
	t.Fatalf("%s: no %s marker", file, state)
	return nil
}

// BenchmarkTmuxByteToRecognizedState: the real Claude Code 2.1.267
// profile. Each iteration clears the pane and writes a recorded stream up
// to a permission prompt (or, alternately, up to the idle screen after
// it), and waits for the state event; the time from the first byte written
// to the event is reported as p50/p99.
func BenchmarkTmuxByteToRecognizedState(b *testing.B) {
	d, pane, w := catPane(b, 120, 40, benchClaude())
	evs := stateEventsOf(b, d.cl)
	id := terminalOf(b, d, pane)
	file := filepath.Join(corpusDir, "claude", "2.1.267", "permission-approve.cast")
	reset := []byte("\x1b[!p\x1b[H\x1b[2J\x1b[3J") // soft reset, home, clear (and scrollback)
	payload := map[contract.ScreenState][]byte{
		contract.ScreenAwaitingApproval: append(append([]byte{}, reset...), outputUntil(b, file, contract.ScreenAwaitingApproval)...),
		contract.ScreenIdle:             append(append([]byte{}, reset...), outputUntil(b, file, contract.ScreenIdle)...),
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := [...]contract.ScreenState{contract.ScreenAwaitingApproval, contract.ScreenIdle}[i%2]
		quiet(b)
		t0 := time.Now()
		w.Write(payload[state])
		timeout := time.After(10 * time.Second)
	wait:
		for {
			select {
			case e := <-evs:
				if e.TerminalID == id && e.Attrs["screen_state"] == string(state) {
					break wait
				}
			case <-timeout:
				l, _ := d.cl.List(context.Background())
				r, _ := rowOf(l, pane)
				st, _ := d.cl.Status(context.Background(), api.StatusRequest{TerminalID: id, Render: true})
				b.Fatalf("iteration %d: no %s event; row %+v\n%s", i, state, r, st.Screen)
			}
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(quantile(lat, 0.5), "p50-ms")
	b.ReportMetric(quantile(lat, 0.99), "p99-ms")
}
