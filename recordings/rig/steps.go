package rig

import (
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// sticky is the scenarios' driver: it runs a scenario's steps in order
// and keeps the first error, so a step after a failed one does nothing.
// A scenario is its steps, one call each (steps makes them a Drive); what
// the Driver cannot say in one call is a named step here (any agent's) or
// beside an agent's scenarios (its idle composer, its prompt, its turn's
// end).
type sticky struct {
	d   *Driver
	err error
}

// steps is the Drive that runs the steps f takes.
func steps(f func(s *sticky)) func(*Driver) error {
	return func(d *Driver) error {
		s := &sticky{d: d}
		f(s)
		return s.err
	}
}

// do runs one step unless an earlier one failed: for a step of its own
// (a check of what the run left behind) where no named step fits.
func (s *sticky) do(f func() error) {
	if s.err == nil {
		s.err = f()
	}
}

// markQuiet is the stillness a screen must show before it is marked (a
// working row redraws every ~0.5 s: a still gap between two ticks is
// enough for a frame drawn in full). Every agent's scenarios use 300 ms.
const markQuiet = 300 * time.Millisecond

// screen waits until every anchor is on the screen (plain text).
func (s *sticky) screen(anchors ...string) { s.do(func() error { return s.d.Screen(anchors...) }) }

// gone waits until no anchor is on the screen.
func (s *sticky) gone(anchors ...string) { s.do(func() error { return s.d.ScreenGone(anchors...) }) }

// key sends one named key (Driver.Key).
func (s *sticky) key(name string) { s.do(func() error { return s.d.Key(name) }) }

// typ sends text as typed characters.
func (s *sticky) typ(text string) { s.do(func() error { return s.d.Type(text) }) }

// send sends exact bytes (a key tmux has no name for).
func (s *sticky) send(b []byte) { s.do(func() error { return s.d.Send(b) }) }

// pause waits a fixed time where the agent itself needs one.
func (s *sticky) pause(t time.Duration) { s.do(func() error { s.d.Pause(t); return nil }) }

// quiet waits until the pane has written nothing for t.
func (s *sticky) quiet(t time.Duration) { s.do(func() error { return s.d.Quiet(t) }) }

// mark marks the screen once it has been still for markQuiet.
func (s *sticky) mark(state string, e recordings.MarkerState) {
	s.quiet(markQuiet)
	s.markNow(state, e)
}

// markNow marks the screen at once: one that animates (a spinner) is
// never still.
func (s *sticky) markNow(state string, e recordings.MarkerState) {
	s.do(func() error { return s.d.Mark(state, e) })
}

// markIdle marks the idle empty composer at once (the wait before it
// proved it still).
func (s *sticky) markIdle() { s.markNow("idle", idleEmpty) }

// markInterrupted marks the idle composer under an interruption note
// (after Esc, a rejected approval): blocked, reason interrupted, the
// composer empty.
func (s *sticky) markInterrupted() { s.markNow("blocked", recordings.MarkerState{Composer: "empty"}) }

// journal waits until the agent's journal has a line for which ok holds.
func (s *sticky) journal(desc string, ok func(map[string]any) bool) {
	s.do(func() error { return s.d.Journal(desc, ok) })
}

// request waits for the next main-loop model request for which ok holds
// (nil: any), its response written in full.
func (s *sticky) request(desc string, ok func(fakemodel.Request) bool) {
	s.do(func() error { _, err := s.d.Request(desc, ok); return err })
}

// started waits for the next model request whose prompt holds word, as
// soon as it arrives (its response may still be streaming).
func (s *sticky) started(word string) {
	s.do(func() error { _, err := s.d.Started(word); return err })
}

// resize resizes the pane and waits for the screen to take the size.
func (s *sticky) resize(width, height int) { s.do(func() error { return s.d.Resize(width, height) }) }

// screenFunc waits until ok holds for the screen's plain text.
func (s *sticky) screenFunc(desc string, ok func(text string) bool) {
	s.do(func() error { return s.d.ScreenFunc(desc, ok) })
}
