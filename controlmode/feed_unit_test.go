package controlmode

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// These tests drive the client's reader side with lines, as tmux would
// write them, without tmux: the feed state machine, seeds, checks, the
// event queue and the end of the connection.

type fakeTmux struct {
	t *testing.T
	c *Client
	n int // next command number
}

func newFake(t *testing.T, cfg Config) *fakeTmux {
	cfg.Socket, cfg.Session = "sock", "main"
	f := &fakeTmux{t: t, c: newClient(cfg), n: 100}
	f.lines("%begin 1 1 0", "%end 1 1 0", "%session-changed $0 main")
	if f.c.attach == nil {
		t.Fatal("no attach")
	}
	return f
}

func (f *fakeTmux) lines(ls ...string) {
	for _, l := range ls {
		f.c.handleLine([]byte(l))
	}
}

// block writes one reply block (failed: %error).
func (f *fakeTmux) block(failed bool, body ...string) {
	f.n++
	g := fmt.Sprintf("1700000000 %d 1", f.n)
	f.lines("%begin " + g)
	f.lines(body...)
	if failed {
		f.lines("%error " + g)
	} else {
		f.lines("%end " + g)
	}
}

// seed answers a seed line for pane p: a w x h screen showing text on
// its first row, window @1, pane pid pid.
func (f *fakeTmux) seed(p PaneID, w, h, pid int, text string) {
	rows := make([]string, h)
	rows[0] = text
	f.block(false, rows...)
	f.block(false, "")
	f.block(false, "")
	f.block(false, fmt.Sprintf("%v @1 %d %d %d 0 1 0 4294967295 4294967295 0 %d 0 0 1 0 0 0 %d 0 0 0 0 0 0",
		p, w, h, len(text), h-1, pid))
}

// written returns and forgets the command lines the client queued.
func (f *fakeTmux) written() string {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	s := string(f.c.writeq)
	f.c.writeq = nil
	return s
}

func TestFeedSeedThenLive(t *testing.T) {
	ft := newFake(t, Config{})
	f, err := ft.c.Follow(3)
	if err != nil {
		t.Fatal(err)
	}
	w := ft.written()
	if !strings.HasPrefix(w, "capture-pane -p -e -N -t '%3' ; capture-pane -p -e -N -a -q -t '%3' ; capture-pane -p -P -C -t '%3' ; display-message -p -t '%3' '#{pane_id} ") {
		t.Fatalf("seed line %q", w)
	}
	ft.lines(`%output %3 before the capture\015\012`)
	if u := f.Take(); !u.Stale || u.Cause != "start" || u.Seed != nil || len(u.Data) != 0 {
		t.Fatalf("seeding: %+v", u)
	}
	ft.seed(3, 80, 24, 42, "hello")
	ft.lines(`%output %3 after\015\012`, `%output %4 other pane`)
	u := f.Take()
	if u.Seed == nil || u.Stale || string(u.Data) != "after\r\n" {
		t.Fatalf("live: %+v", u)
	}
	s := u.Seed
	if s.Width != 80 || s.Height != 24 || s.CursorX != 5 || !s.CursorVisible || s.ScrollBottom != 23 || s.PID != 42 ||
		s.Window != 1 || s.SavedX != -1 || s.Alt || !s.Wrap || strings.Count(string(s.Capture), "\n") != 24 {
		t.Fatalf("seed %+v", s)
	}
	if u := f.Take(); u.Seed != nil || len(u.Data) != 0 || u.Stale {
		t.Fatalf("nothing new: %+v", u)
	}
	if st := ft.c.Stats(); st.UnownedBytes != int64(len("other pane")) || st.PendingLines != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func live(t *testing.T, ft *fakeTmux, p PaneID) *Feed {
	f, err := ft.c.Follow(p)
	if err != nil {
		t.Fatal(err)
	}
	ft.written()
	ft.seed(p, 80, 24, 42, "x")
	if u := f.Take(); u.Seed == nil {
		t.Fatalf("not seeded: %+v", u)
	}
	return f
}

func TestFeedStaleCauses(t *testing.T) {
	for _, tc := range []struct {
		name, cause string
		lines       []string
		resume      bool
	}{
		{"overflow", "overflow", []string{"%output %3 " + strings.Repeat("y", 40), "%output %3 " + strings.Repeat("z", 40)}, false},
		{"pause", "pause", []string{"%pause %3"}, true},
		{"resize", "resize", []string{"%layout-change @1 b25d,100x24,0,0,3 b25d,100x24,0,0,3 *"}, false},
		{"moved", "pane moved", []string{"%layout-change @2 b25d,80x24,0,0,3 b25d,80x24,0,0,3 *"}, false},
		{"left", "pane left window", []string{"%layout-change @1 b25d,80x24,0,0,4 b25d,80x24,0,0,4 *"}, false},
		{"window closed", "window closed", []string{"%unlinked-window-close @1"}, false},
		{"respawn", "respawn", []string{"%subscription-changed akk-pane-pid $0 @1 0 %3 : 999"}, false},
		{"protocol", "protocol", []string{"%end 1700000000 5 1"}, false},
		{"session", "session changed", []string{"%session-changed $7 other"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := newFake(t, Config{Backlog: 64})
			f := live(t, ft, 3)
			ft.lines(tc.lines...)
			ft.lines("%output %3 dropped")
			u := f.Take()
			if !u.Stale || u.Cause != tc.cause || len(u.Data) != 0 {
				t.Fatalf("after %v: %+v", tc.lines, u)
			}
			w := ft.written()
			if got := strings.HasPrefix(w, "refresh-client -A '%3:continue' ; capture-pane"); got != tc.resume || !strings.Contains(w, "capture-pane -p -e -N -t '%3'") {
				t.Fatalf("re-seed line %q", w)
			}
			if tc.resume {
				ft.block(false, "%continue %3")
			}
			ft.lines("%output %3 dropped too")
			ft.seed(3, 80, 24, 999, "new")
			ft.lines("%output %3 kept")
			u = f.Take()
			if u.Seed == nil || u.Stale || string(u.Data) != "kept" {
				t.Fatalf("re-seeded: %+v", u)
			}
			// A stalled consumer causes one seed request, not one per cause.
			ft.lines(tc.lines...)
			ft.lines(tc.lines...)
			if w := ft.written(); w != "" {
				t.Fatalf("seed requested before Take: %q", w)
			}
		})
	}
}

func TestFeedStaleWhileSeeding(t *testing.T) {
	ft := newFake(t, Config{})
	f, _ := ft.c.Follow(3)
	ft.written()
	ft.lines("%pause %3") // while the seed is in flight
	ft.seed(3, 80, 24, 42, "old")
	if u := f.Take(); u.Seed != nil || !u.Stale || u.Cause != "pause" {
		t.Fatalf("a seed older than the pause was installed: %+v", u)
	}
	if w := ft.written(); !strings.HasPrefix(w, "refresh-client -A '%3:continue'") {
		t.Fatalf("re-seed %q", w)
	}
}

func TestFeedPaneGone(t *testing.T) {
	ft := newFake(t, Config{})
	f, _ := ft.c.Follow(9)
	ft.written()
	ft.block(true, "can't find pane: %9")
	u := f.Take()
	if !u.Gone || !errors.Is(u.Err, ErrPaneGone) {
		t.Fatalf("%+v", u)
	}
	ft.lines("%output %9 late")
	if u := f.Take(); len(u.Data) != 0 || !u.Gone {
		t.Fatalf("after gone: %+v", u)
	}
}

func TestFeedCheck(t *testing.T) {
	ft := newFake(t, Config{})
	f := live(t, ft, 3)
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	if w := ft.written(); !strings.HasPrefix(w, "capture-pane -p -e -N -t '%3'") {
		t.Fatalf("check line %q", w)
	}
	ft.lines("%output %3 before")
	ft.seed(3, 80, 24, 42, "snapshot")
	ft.lines("%output %3 after")
	u := f.Take()
	if u.Check == nil || string(u.Data) != "before" || u.Seed != nil || !strings.HasPrefix(string(u.Check.Capture), "snapshot") {
		t.Fatalf("first: %+v", u)
	}
	if len(f.Ready()) == 0 {
		t.Fatalf("no wake-up for the bytes after the check")
	}
	if u := f.Take(); u.Check != nil || string(u.Data) != "after" {
		t.Fatalf("second: %+v", u)
	}
	// A check that lands while the feed is stale is dropped.
	f.Check()
	ft.written()
	ft.lines("%pause %3")
	ft.seed(3, 80, 24, 42, "x")
	if u := f.Take(); u.Check != nil || !u.Stale {
		t.Fatalf("stale check: %+v", u)
	}
}

func TestEventQueueBounded(t *testing.T) {
	ft := newFake(t, Config{EventQueue: 3})
	for i := 0; i < 6; i++ {
		ft.lines(fmt.Sprintf("%%window-add @%d", i))
	}
	ft.c.mu.Lock()
	ft.c.events = ft.c.events[:0]
	ft.c.mu.Unlock()
	ft.lines("%window-add @9")
	ft.c.mu.Lock()
	defer ft.c.mu.Unlock()
	var got []string
	for _, e := range ft.c.events {
		got = append(got, e.String())
	}
	// session-changed + 2 window-adds fit, 4 were lost.
	if strings.Join(got, "|") != "events-lost 4|window-add @9" {
		t.Fatalf("queue %q", got)
	}
}

func TestConnectionEnd(t *testing.T) {
	ft := newFake(t, Config{})
	f := live(t, ft, 3)
	cl, err := ft.c.send("display-message -p x", []Cmd{{"display-message", "-p", "x"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ft.lines("%begin 1700000000 900 1", "partial") // tmux dies inside the block
	ft.c.finish(io.EOF, nil)
	<-cl.done
	var xe *ExitError
	if !errors.As(cl.err, &xe) || !xe.NoExit || !errors.Is(cl.err, ErrProtocol) || !errors.Is(cl.err, ErrClosed) {
		t.Fatalf("call error %v", cl.err)
	}
	if u := f.Take(); !u.Gone || !errors.Is(u.Err, ErrClosed) {
		t.Fatalf("feed %+v", u)
	}
	if _, err := ft.c.Follow(4); !errors.Is(err, ErrClosed) {
		t.Fatalf("Follow after end: %v", err)
	}
	if _, err := ft.c.send("x", []Cmd{{"x"}}, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("send after end: %v", err)
	}
}
