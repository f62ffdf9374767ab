package controlmode

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/vt"
)

// watcher runs a Mirror on its own goroutine, as the supervisor would.
type watcher struct {
	t    *testing.T
	mu   sync.Mutex
	m    *Mirror
	raw  []byte // every byte taken, if keepRaw
	keep bool
	stop chan struct{}
	done chan struct{}
	// stall, when set, makes the loop sleep once before applying.
	stall time.Duration
}

func watch(t *testing.T, f *Feed, keepRaw bool) *watcher {
	w := &watcher{t: t, m: NewMirror(f, vt.Options{}), keep: keepRaw, stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	t.Cleanup(w.close)
	return w
}

// watchSeeded follows pane through c with a watcher (keepRaw: it keeps
// every byte taken) and returns once its mirror is seeded.
func watchSeeded(t *testing.T, c *Client, pane PaneID, keepRaw bool) *watcher {
	t.Helper()
	f, err := c.Follow(pane)
	if err != nil {
		t.Fatal(err)
	}
	w := watch(t, f, keepRaw)
	w.await("seed", 3*time.Second, seeded)
	return w
}

func (w *watcher) close() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}

func (w *watcher) loop() {
	defer close(w.done)
	f := w.m.Feed()
	for {
		select {
		case <-f.Ready():
		case <-w.stop:
			return
		}
		w.mu.Lock()
		if d := w.stall; d > 0 {
			w.stall = 0
			w.mu.Unlock()
			select {
			case <-time.After(d):
			case <-w.stop:
				return
			}
			w.mu.Lock()
		}
		if w.keep {
			w.applyKeeping()
		} else {
			w.m.Apply()
		}
		w.mu.Unlock()
	}
}

// applyKeeping is Mirror.Apply for tests that also want the raw bytes.
func (w *watcher) applyKeeping() {
	f := w.m.Feed()
	u := f.Take()
	if u.Seed != nil {
		scr, err := u.Seed.Screen(vt.Options{})
		if err == nil {
			w.m.screen, w.m.stale = scr, false
			w.m.Seeds++
		}
	}
	if u.Stale {
		w.m.stale, w.m.cause = true, u.Cause
	}
	if u.Gone {
		w.m.gone, w.m.err = true, u.Err
	}
	w.raw = append(w.raw, u.Data...)
	if w.m.screen != nil && !w.m.stale {
		w.m.screen.Write(u.Data)
		w.m.Bytes += int64(len(u.Data))
	}
	if len(f.Ready()) == 0 && (u.Check != nil) {
		signal(f.ready)
	}
}

// await polls cond (under the watcher's lock) until it holds or d passes.
func (w *watcher) await(what string, d time.Duration, cond func(m *Mirror) bool) time.Duration {
	w.t.Helper()
	start := time.Now()
	for {
		w.mu.Lock()
		ok := cond(w.m)
		w.mu.Unlock()
		if ok {
			return time.Since(start)
		}
		if time.Since(start) > d {
			w.mu.Lock()
			defer w.mu.Unlock()
			stale, cause := w.m.Stale()
			w.t.Fatalf("%s: not within %v (seeds=%d checks=%d mismatches=%d bytes=%d stale=%v %q diff=%v)",
				what, d, w.m.Seeds, w.m.Checks, w.m.Mismatches, w.m.Bytes, stale, cause, w.m.LastDiff)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// checkNow asks tmux for a checkpoint and waits for the mirror to compare
// it; it fails the test on a difference.
func (w *watcher) checkNow(what string) {
	w.t.Helper()
	w.mu.Lock()
	n := w.m.Checks
	w.mu.Unlock()
	if err := w.m.Feed().Check(); err != nil {
		w.t.Fatalf("%s: Check: %v", what, err)
	}
	w.await(what+": check", 10*time.Second, func(m *Mirror) bool { return m.Checks > n || m.Mismatches > 0 })
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m.Mismatches > 0 {
		w.t.Fatalf("%s: screen differs from tmux:\n%s", what, strings.Join(w.m.LastDiff, "\n"))
	}
}

func seeded(m *Mirror) bool { s, _ := m.Stale(); return m.Screen() != nil && !s }

func TestTmuxByteExactness(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, helperCmd("bytes", "42"))
	c := attach(t, srv)
	w := watchSeeded(t, c, 0, true)
	file := filepath.Join(t.TempDir(), "pipe.bin")
	if _, err := c.Command(ctx3s(t), "pipe-pane", "-t", "%0", "-o", "exec cat > "+file); err != nil {
		t.Fatal(err)
	}
	want := byteStream(42)
	trigger(t, c, 0)
	w.await("all bytes", 10*time.Second, func(*Mirror) bool { return len(w.raw) >= len(want) })
	var pipe []byte
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if pipe, _ = os.ReadFile(file); len(pipe) >= len(want) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.mu.Lock()
	got := bytes.Clone(w.raw)
	w.mu.Unlock()
	if !bytes.Equal(pipe, want) {
		t.Fatalf("pipe-pane copy (%d bytes) differs from what the pane wrote (%d)", len(pipe), len(want))
	}
	if i := firstDiff(got, pipe); i >= 0 {
		t.Fatalf("decoded stream (%d bytes) differs from pipe-pane (%d bytes) at %d: %q vs %q",
			len(got), len(pipe), i, clip(got, i), clip(pipe, i))
	}
	t.Logf("byte exactness: %d bytes identical (all 256 values, random bytes, UTF-8, escapes)", len(got))
}

func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func clip(b []byte, i int) []byte { return b[max(0, i-8):min(len(b), i+8)] }

func TestTmuxManyPanes(t *testing.T) {
	checkLeaks(t)
	const panes, size = 8, 2 << 20
	srv := startTmux(t, 80, 24, helperCmd("agent", "100", fmt.Sprint(size)))
	for i := 1; i < panes; i++ {
		srv.MustRun("new-window", "-d", "-t", "main", helperCmd("agent", fmt.Sprint(100+i), fmt.Sprint(size)))
	}
	c := attach(t, srv)
	ws := make([]*watcher, panes)
	want := make([]int, panes)
	for i := range ws {
		f, err := c.Follow(PaneID(i))
		if err != nil {
			t.Fatal(err)
		}
		ws[i] = watch(t, f, false)
		want[i] = len(agentStream(uint64(100+i), size))
	}
	for i, w := range ws {
		w.await(fmt.Sprintf("seed %%%d", i), 3*time.Second, seeded)
	}
	for i := range ws {
		awaitHelper(t, c, PaneID(i))
	}
	start := time.Now()
	for i := range ws {
		if err := c.SendBytes(ctx3s(t), PaneID(i), []byte{'g'}); err != nil {
			t.Fatal(err)
		}
	}
	var done []time.Duration
	for i, w := range ws {
		w.await(fmt.Sprintf("%%%d output", i), 60*time.Second, func(m *Mirror) bool { return m.Bytes >= int64(want[i]) })
		done = append(done, time.Since(start))
	}
	total := time.Since(start)
	for i, w := range ws {
		w.checkNow(fmt.Sprintf("pane %%%d", i))
		if st := w.m.Feed().Stats(); st.Overflows != 0 || w.m.Seeds != 1 {
			t.Errorf("pane %%%d: %d overflows, %d seeds", i, st.Overflows, w.m.Seeds)
		}
		if w.m.Bytes != int64(want[i]) {
			t.Errorf("pane %%%d: %d bytes, want %d", i, w.m.Bytes, want[i])
		}
	}
	t.Logf("%d panes x %d bytes: all screens equal tmux; done after %v (per pane, in order of check: %v); %.1f MB/s overall",
		panes, size, total.Round(time.Millisecond), roundAll(done), float64(panes*size)/total.Seconds()/1e6)
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

func TestTmuxAttachMidStream(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, helperCmd("busy", "7", "300"))
	time.Sleep(300 * time.Millisecond) // busy before we attach
	c := attach(t, srv)
	w := watchSeeded(t, c, 0, false)
	for i := 0; i < 30; i++ {
		// Checks spread over the stream, not at a condition: each compares
		// the mirror with tmux's screen wherever the output is then.
		time.Sleep(50 * time.Millisecond)
		w.checkNow(fmt.Sprintf("check %d", i))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m.Bytes == 0 {
		t.Fatalf("no output while running")
	}
	t.Logf("attach mid-stream: %d checks equal to tmux over %d bytes", w.m.Checks, w.m.Bytes)
}

func TestTmuxSlowConsumer(t *testing.T) {
	checkLeaks(t)
	const size = 24 << 20
	srv := startTmux(t, 80, 24, helperCmd("agent", "5", fmt.Sprint(size)))
	c := attach(t, srv, func(cfg *Config) { cfg.Backlog = 1 << 20 })
	w := watchSeeded(t, c, 0, false)
	w.mu.Lock()
	w.stall = 3 * time.Second // the consumer stalls on its next update
	w.mu.Unlock()
	trigger(t, c, 0)
	w.await("re-seed after the stall", 30*time.Second, func(m *Mirror) bool { return m.Seeds >= 2 && seeded(m) })
	waitQuiet(t, w)
	w.checkNow("after flood")
	st := w.m.Feed().Stats()
	if st.Overflows == 0 {
		t.Errorf("the stall caused no overflow: %+v", st)
	}
	t.Logf("slow consumer: %d overflows, %d seeds, %d bytes dropped, screen equal to tmux", st.Overflows, w.m.Seeds, st.Dropped)
}

// waitQuiet waits until the pane has produced nothing for 300 ms.
func waitQuiet(t *testing.T, w *watcher) {
	last, since := int64(-1), time.Now()
	w.await("quiet", 60*time.Second, func(m *Mirror) bool {
		if m.Bytes != last {
			last, since = m.Bytes, time.Now()
		}
		return time.Since(since) > 300*time.Millisecond
	})
}

func TestTmuxPauseResumesWithSeed(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, helperCmd("busy", "9", "500"))
	c := attach(t, srv)
	w := watchSeeded(t, c, 0, false)
	if _, err := c.Command(ctx3s(t), "refresh-client", "-A", "%0:pause"); err != nil {
		t.Fatal(err)
	}
	w.await("re-seed after pause", 3*time.Second, func(m *Mirror) bool { return m.Seeds >= 2 && seeded(m) })
	n := w.m.Bytes
	w.await("output after continue", 3*time.Second, func(m *Mirror) bool { return m.Bytes > n })
	w.checkNow("after pause")
}

func TestTmuxPauseAfterExtendedOutput(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, helperCmd("busy", "3", "1000"))
	c := attach(t, srv, func(cfg *Config) { cfg.PauseAfter = 2 * time.Second })
	flags := string(srv.MustRun("list-clients", "-F", "#{client_flags}"))
	if !strings.Contains(flags, "pause-after=2") {
		t.Fatalf("client flags %q", flags)
	}
	w := watchSeeded(t, c, 0, false)
	// Let %extended-output flow for a while: the check compares the
	// mirror with tmux's own screen wherever the stream happens to be.
	time.Sleep(200 * time.Millisecond)
	w.checkNow("extended output")
	_ = context.Background
}

// The checks above would pass vacuously if CompareSeed saw no
// difference: a screen changed behind tmux's back must fail the check and
// be re-seeded.
func TestTmuxCheckDetectsDivergence(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, helperCmd("agent", "11", "20000"))
	c := attach(t, srv)
	w := watchSeeded(t, c, 0, false)
	trigger(t, c, 0)
	waitQuiet(t, w)
	w.checkNow("before")
	for _, corrupt := range []string{"\x1b[1;1HX", "\x1b[5;5H\x1b[1m \x1b[0m", "\x1b[?25l", "\x1b[3;4H"} {
		w.mu.Lock()
		w.m.Screen().Write([]byte(corrupt))
		n := w.m.Mismatches
		w.mu.Unlock()
		if err := w.m.Feed().Check(); err != nil {
			t.Fatal(err)
		}
		w.await("mismatch "+fmt.Sprintf("%q", corrupt), 3*time.Second, func(m *Mirror) bool { return m.Mismatches > n })
		w.await("re-seed", 3*time.Second, seeded)
		w.mu.Lock()
		t.Logf("%q -> %v", corrupt, w.m.LastDiff)
		w.mu.Unlock()
		w.mu.Lock()
		w.m.Mismatches = 0
		w.mu.Unlock()
		w.checkNow("after re-seed")
		w.mu.Lock()
		w.m.Mismatches = n
		w.mu.Unlock()
	}
}
