package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// replicaCase is one replica pane of the end-to-end test.
type replicaCase struct {
	agent, version, surface string
	rec                     *recordings.Recording
	file, fifo, pane        string
	keepAlive               bool   // driveReplica does not send the sentinel
	onRelease               func() // called once the replica runs, before its first input
}

// sentinel is the input that ends a test replica.
const sentinel = "\x04"

// e2eSurfaces: both agents, several versions each. Surfaces with a
// resize are left out (the driver counts output bytes across one seed).
var e2eSurfaces = [][3]string{
	{"claude", "2.1.267", "permission-approve"},
	{"claude", "2.1.263", "question-digit"},
	{"claude", "2.1.266", "working"},
	{"codex", "0.155.1", "question-digit"},
	{"codex", "0.154.0", "permission-approve"},
	{"codex", "0.153.4", "idle"},
}

// followEvents collects the event stream from the start.
type eventLog struct {
	mu  sync.Mutex
	evs []api.Event
	at  []time.Time // arrival times
}

func (l *eventLog) snapshot() ([]api.Event, []time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]api.Event(nil), l.evs...), append([]time.Time(nil), l.at...)
}

func followEvents(t testing.TB, cl *api.Client) *eventLog {
	l := &eventLog{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = cl.Events(ctx, 0, true, func(e api.Event) error {
			l.mu.Lock()
			l.evs = append(l.evs, e)
			l.at = append(l.at, time.Now())
			l.mu.Unlock()
			return nil
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

// TestTmuxReplicaStates runs replica agents of both agents and several
// versions next to plain shells under the supervisor, drives each replica
// through its recording (every recorded input at its recorded point of the
// output), and checks `list` and the event stream at every marker: the
// identity fields and the marker's screen state.
func TestTmuxReplicaStates(t *testing.T) {
	akk, srv := replicaServer(t) // the recordings' size: no resize
	sleeper := newWindow(t, srv, 80, 24, "cd /tmp && exec sleep 1000")
	cases := replicaPanes(t, srv, akk, e2eSurfaces)
	d := startDaemon(t, srv, daemonOpts{})
	evlog := followEvents(t, d.cl)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tmuxtest.Await(t, 15*time.Second, func() string {
		l, err := d.cl.List(ctx)
		if err != nil {
			return err.Error()
		}
		if len(l.Terminals) != len(cases)+2 {
			return fmt.Sprintf("%d rows, want %d", len(l.Terminals), len(cases)+2)
		}
		if r, _ := rowOf(l, sleeper); r.Agent != api.AgentNone || r.Command != "sleep" || r.Cwd != "/tmp" {
			return fmt.Sprintf("sleeper row %+v", r)
		}
		return ""
	})
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var wg sync.WaitGroup
	lat := &latencies{}
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			driveReplica(t, ctx, client, c, func(m recordings.Marker, seen time.Time) {
				checkMarkerRow(t, ctx, d, c, m, seen, evlog, lat)
			})
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// After its last event the replica exits: the pane (remain-on-exit)
	// is reported exited, still as the same terminal.
	l, _ := d.cl.List(ctx)
	for _, c := range cases {
		tmuxtest.Await(t, 10*time.Second, func() string {
			l, _ = d.cl.List(ctx)
			if r, _ := rowOf(l, c.pane); r.ScreenState != contract.ScreenExited {
				return fmt.Sprintf("%s %s: screen_state %q after the replica ended", c.pane, c.surface, r.ScreenState)
			}
			return ""
		})
	}
	checkEventLog(t, evlog, l)
	if p50, p99, n := lat.quantiles(); n > 0 {
		t.Logf("pane output -> state event: p50 %.2f ms, p99 %.2f ms over %d state changes", p50, p99, n)
	}
}

// replicaPanes opens a window per surface running `akk replica` of a copy
// of the recording with a sentinel input at its end; each replica waits on
// its fifo until driveReplica releases it.
func replicaPanes(t testing.TB, srv *tmuxtest.Server, akk string, surfaces [][3]string) []*replicaCase {
	return replicaPanesFrom(t, srv, akk, corpusDir, surfaces)
}

// replicaPanesFrom is replicaPanes of recordings in another tree of
// agent/version/surface.cast (a qualification run's).
func replicaPanesFrom(t testing.TB, srv *tmuxtest.Server, akk, tree string, surfaces [][3]string) []*replicaCase {
	dir := t.TempDir()
	var cases []*replicaCase
	for i, s := range surfaces {
		// A version "2.1.267>9.9.9" plays the 2.1.267 recording under
		// version 9.9.9 in its header (an unknown version).
		var v string
		s[1], v, _ = strings.Cut(s[1], ">")
		c := &replicaCase{agent: s[0], version: s[1], surface: s[2]}
		c.rec = loadRecording(t, filepath.Join(tree, s[0], s[1], s[2]+".cast"))
		if v != "" { // the replica claims another version
			c.rec.Header.Akk.Version, c.version = v, v
		}
		// A last input that only the test sends keeps the replica alive
		// after its recording, so that the last marker is checked on a
		// live agent; the header (agent, version) is the recording's.
		appendEvents(c.rec, sentinel)
		c.file = saveRecording(t, dir, fmt.Sprintf("%s-%s-%s.cast", s[0], s[1], s[2]), c.rec)
		c.fifo = filepath.Join(dir, fmt.Sprintf("go%d", i))
		tmuxtest.Mkfifo(t, c.fifo)
		c.pane = newWindow(t, srv, c.rec.Header.Width, c.rec.Header.Height,
			fmt.Sprintf(`sh -c 'read _ < "%s"; exec "%s" replica "%s"'`, c.fifo, akk, c.file))
		cases = append(cases, c)
	}
	return cases
}

// driveReplica releases the replica, sends its inputs at their recorded
// points and calls onMarker at each marker, once the output before it is
// in the pane; at the end it sends the sentinel that ends the replica.
func driveReplica(t *testing.T, ctx context.Context, client *controlmode.Client, c *replicaCase, onMarker func(recordings.Marker, time.Time)) {
	pane, _ := controlmode.ParsePaneID(c.pane)
	rf := feedReplica(t, ctx, client, c, c.surface)
	if rf == nil {
		return
	}
	defer rf.Close()
	if c.onRelease != nil {
		c.onRelease()
	}
	out := 0
	for _, e := range c.rec.Events[:len(c.rec.Events)-1] {
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			out += len(e.Data)
		case recordings.Input:
			if !rf.await(t, ctx, c.surface, out) {
				return
			}
			if err := client.SendBytes(ctx, pane, e.Data); err != nil {
				t.Errorf("%s: send: %v", c.surface, err)
				return
			}
		case recordings.MarkerEv:
			if !rf.await(t, ctx, c.surface, out) {
				return
			}
			seen := time.Now()
			m, err := recordings.ParseMarker(string(e.Data))
			if err != nil {
				t.Error(err)
				return
			}
			onMarker(m, seen)
		}
	}
	if c.keepAlive {
		return
	}
	if err := client.SendBytes(ctx, pane, []byte(sentinel)); err != nil {
		t.Errorf("%s: send: %v", c.surface, err)
	}
}

func checkMarkerRow(t *testing.T, ctx context.Context, d *daemon, c *replicaCase, m recordings.Marker, seen time.Time, evlog *eventLog, lat *latencies) {
	var row api.Terminal
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := d.cl.List(ctx)
		if err == nil {
			row, _ = rowOf(l, c.pane)
		}
		ok := row.Agent == c.agent && row.Version == c.version && row.Replica &&
			row.ScreenState == m.State
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("%s@%s %s at marker %s: row %+v", c.agent, c.version, c.surface, m.State, row)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	if row.NativeIdentityState != contract.IdentityUnavailable || row.DurableActivityState != contract.DurableUnavailable {
		t.Errorf("%s: a replica's native axes are %s/%s, want unavailable", c.surface, row.NativeIdentityState, row.DurableActivityState)
	}
	if row.Composer != m.Expect.Composer {
		t.Errorf("%s at %s: composer %q, marker says %q", c.surface, m.State, row.Composer, m.Expect.Composer)
	}
	evs, at := evlog.snapshot()
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.TerminalID == row.TerminalID && e.Attrs["screen_state"] == string(m.State) {
			if at[i].After(seen) {
				lat.add(at[i].Sub(seen))
			}
			break
		}
	}
}

// checkEventLog: the stream is gapless and in order, each terminal was
// added once, and no state event repeats the state before it.
func checkEventLog(t *testing.T, evlog *eventLog, l api.ListResponse) {
	evs, _ := evlog.snapshot()
	added := map[string]int{}
	last := map[string]string{}
	for i, e := range evs {
		if i > 0 && e.Seq != evs[i-1].Seq+1 {
			t.Errorf("event seq %d follows %d", e.Seq, evs[i-1].Seq)
		}
		switch e.Type {
		case api.EventTerminalAdded:
			added[e.TerminalID]++
		case api.EventTerminalState:
			key := fmt.Sprint(e.Attrs)
			delete(e.Attrs, "from_screen_state")
			key = fmt.Sprint(e.Attrs)
			if last[e.TerminalID] == key {
				t.Errorf("event %d repeats the state of %s: %v", e.Seq, e.TerminalID, e.Attrs)
			}
			last[e.TerminalID] = key
		}
	}
	for _, r := range l.Terminals {
		if added[r.TerminalID] != 1 {
			t.Errorf("terminal %s (%s) added %d times", r.TerminalID, r.PaneID, added[r.TerminalID])
		}
	}
}

type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// quantiles returns p50 and p99 in milliseconds.
func (l *latencies) quantiles() (p50, p99 float64, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0, 0, 0
	}
	s := append([]time.Duration(nil), l.d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	q := func(p float64) float64 {
		i := int(p * float64(len(s)-1))
		return float64(s[i].Microseconds()) / 1000
	}
	return q(0.5), q(0.99), len(s)
}

// loadCorpus decodes the corpus recording of agent@version's surface.
func loadCorpus(t testing.TB, agent, version, surface string) *recordings.Recording {
	t.Helper()
	return loadRecording(t, filepath.Join(corpusDir, agent, version, surface+".cast"))
}

func loadRecording(t testing.TB, path string) *recordings.Recording {
	t.Helper()
	rec, err := recordings.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// appendEvents adds events after rec's last, 10 ms apart: a string is an
// input the replica waits for, a []byte output it draws.
func appendEvents(rec *recordings.Recording, events ...any) {
	at := 0.0
	if n := len(rec.Events); n > 0 {
		at = rec.Events[n-1].Time
	}
	for _, e := range events {
		at += 0.01
		switch v := e.(type) {
		case string:
			rec.Events = append(rec.Events, recordings.Event{Time: at, Code: recordings.Input, Data: []byte(v)})
		case []byte:
			rec.Events = append(rec.Events, recordings.Event{Time: at, Code: recordings.Output, Data: v})
		}
	}
}

// saveRecording encodes rec as dir/name and returns its path.
func saveRecording(t testing.TB, dir, name string, rec *recordings.Recording) string {
	t.Helper()
	enc, err := recordings.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
