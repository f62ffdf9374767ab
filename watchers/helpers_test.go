package watchers

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait on a condition; the conditions themselves
// are usually met within milliseconds.
const waitLimit = 20 * time.Second

// collector drains a Watcher's evidence into a list tests can wait on.
type collector struct {
	mu      sync.Mutex
	evs     []evidence.Event
	changed chan struct{}
	done    chan struct{}
}

func collect(w *Watcher) *collector {
	c := &collector{changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for ev := range w.Evidence() {
			c.mu.Lock()
			c.evs = append(c.evs, ev)
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		}
	}()
	return c
}

// wait blocks until cond holds over the events so far, or fails the test
// at the deadline with what it saw.
func (c *collector) wait(t *testing.T, what string, cond func([]evidence.Event) bool) []evidence.Event {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		evs := append([]evidence.Event(nil), c.evs...)
		ch := c.changed
		c.mu.Unlock()
		if cond(evs) {
			return evs
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; events:\n%s", what, dump(evs))
		}
	}
}

func (c *collector) snapshot() []evidence.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]evidence.Event(nil), c.evs...)
}

// newWatcher starts a Watcher closed at the end of the test.
func newWatcher(t *testing.T, opts Options) (*Watcher, *collector) {
	t.Helper()
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	c := collect(w)
	t.Cleanup(func() {
		w.Close()
		<-c.done
	})
	return w, c
}

// turnLine is a rollout line whose event names it: TurnStarted "t<i>".
func turnLine(i int) string {
	return fmt.Sprintf(`{"timestamp":"2026-11-30T10:00:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t%d"}}`+"\n", i)
}

// turns lists "path@gen+offset:turn" for every TurnStarted, in order.
func turns(evs []evidence.Event) []string {
	var out []string
	for _, ev := range evs {
		if ts, ok := ev.(evidence.TurnStarted); ok {
			out = append(out, fmt.Sprintf("%s@%d+%d:%s", filepath.Base(ts.Path), ts.Gen, ts.Offset, ts.TurnID))
		}
	}
	return out
}

// expectTurns is what turns gives for lines first..last of turnLine in a
// file starting at offset off.
func expectTurns(name string, gen uint64, off int64, first, last int) []string {
	var out []string
	for i := first; i <= last; i++ {
		out = append(out, fmt.Sprintf("%s@%d+%d:t%d", name, gen, off, i))
		off += int64(len(turnLine(i)))
	}
	return out
}

func fileEvents(evs []evidence.Event) []string {
	var out []string
	for _, ev := range evs {
		if fe, ok := ev.(evidence.FileEvent); ok {
			out = append(out, fmt.Sprintf("%s:%s@%d", filepath.Base(fe.Path), fe.Change, fe.Gen))
		}
	}
	return out
}

func countTurns(evs []evidence.Event) int { return len(turns(evs)) }

func dump(evs []evidence.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "  %T %+v\n", ev, ev)
	}
	return b.String()
}

func equalStrings(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func fmtSscan(s string, i *int) (int, error) { return fmt.Sscan(strings.TrimPrefix(s, "t"), i) }

func itoa(i int64) string { return fmt.Sprint(i) }

// NewParser is the registered format's line parser of an agent.
func NewParser(a evidence.Agent) evidence.Parser {
	f, ok := evidence.FormatOf(a)
	if !ok || f.NewParser == nil {
		panic("no line format for " + string(a))
	}
	return f.NewParser()
}

// watchDir is newWatcher following dir.
func watchDir(t *testing.T, opts Options, dir string) (*Watcher, *collector) {
	t.Helper()
	w, c := newWatcher(t, opts)
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	return w, c
}

// wantTurns fails the test unless evs' turns are want.
func wantTurns(t *testing.T, evs []evidence.Event, want []string) {
	t.Helper()
	if got := turns(evs); !equalStrings(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
}

// wantFileEvents fails the test unless evs' file events are want.
func wantFileEvents(t *testing.T, evs []evidence.Event, want ...string) {
	t.Helper()
	if got := fileEvents(evs); !equalStrings(got, want) {
		t.Fatalf("file events %q", got)
	}
}

// followRollout writes text to rollout-a.jsonl in a new directory,
// follows the directory and waits until the text's n turns have arrived.
func followRollout(t *testing.T, text string, n int) (dir, path string, c *collector) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, path, text)
	_, c = watchDir(t, flatCodex(), dir)
	c.wait(t, "the lines written before", func(evs []evidence.Event) bool { return countTurns(evs) == n })
	return dir, path, c
}
