package rig

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Steps is the scenarios' driver, a sticky-error one: a scenario's Drive
// calls its steps in order, and the first error is kept, so a step after
// a failed one does nothing (Err says what failed). A scenario is its
// steps, one call each. A step that is the same for every agent is a
// method here; an agent's own (its idle composer, its prompt, its turn's
// end) is a method of its scenario package's wrapper of Steps.
type Steps struct {
	d   *Driver
	err error
}

// NewSteps drives d.
func NewSteps(d *Driver) *Steps { return &Steps{d: d} }

// Driver is what the steps drive: the run's agent, version, world and
// the fake model's log.
func (s *Steps) Driver() *Driver { return s.d }

// Err is the first step's error, nil when every step succeeded.
func (s *Steps) Err() error { return s.err }

// Do runs one step unless an earlier one failed: a check of the
// scenario's own (what the run left behind) where no named step fits.
func (s *Steps) Do(f func() error) {
	if s.err == nil {
		s.err = f()
	}
}

// The markers of a screen with no interaction on it, by its composer.
var (
	ComposerEmpty  = recordings.MarkerState{Composer: "empty"}
	ComposerDraft  = recordings.MarkerState{Composer: "draft"}
	ComposerAbsent = recordings.MarkerState{Composer: "absent"}
)

// MarkQuiet is the stillness a screen must show before Mark marks it (a
// working row redraws every ~0.5 s: a still gap between two ticks is
// enough for a frame drawn in full). Every agent's scenarios use 300 ms.
const MarkQuiet = 300 * time.Millisecond

// Screen waits until every anchor is on the screen (plain text).
func (s *Steps) Screen(anchors ...string) { s.Do(func() error { return s.d.Screen(anchors...) }) }

// Gone waits until no anchor is on the screen.
func (s *Steps) Gone(anchors ...string) { s.Do(func() error { return s.d.ScreenGone(anchors...) }) }

// ScreenFunc waits until ok holds for the screen's plain text.
func (s *Steps) ScreenFunc(desc string, ok func(text string) bool) {
	s.Do(func() error { return s.d.ScreenFunc(desc, ok) })
}

// ScreenAny waits until one of the anchors is on the screen.
func (s *Steps) ScreenAny(anchors ...string) {
	s.ScreenFunc("one of "+strings.Join(anchors, " | "), func(text string) bool {
		return slices.ContainsFunc(anchors, func(a string) bool { return strings.Contains(text, a) })
	})
}

// RowBlock waits until want are consecutive rows of the screen (spaces
// at a row's end trimmed).
func (s *Steps) RowBlock(desc string, want []string) {
	s.ScreenFunc(fmt.Sprintf("%s, rows %q", desc, want), func(text string) bool { return HasRowBlock(text, want) })
}

// HasRowBlock reports whether want are consecutive rows of text, spaces
// at a row's end trimmed.
func HasRowBlock(text string, want []string) bool {
	rows := strings.Split(text, "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	for i := 0; i+len(want) <= len(rows); i++ {
		if slices.Equal(rows[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// Key sends one named key (Driver.Key).
func (s *Steps) Key(name string) { s.Do(func() error { return s.d.Key(name) }) }

// Type sends text as typed characters.
func (s *Steps) Type(text string) { s.Do(func() error { return s.d.Type(text) }) }

// Send sends exact bytes (a key tmux has no name for).
func (s *Steps) Send(b []byte) { s.Do(func() error { return s.d.Send(b) }) }

// Pause waits a fixed time where the agent itself needs one.
func (s *Steps) Pause(t time.Duration) { s.Do(func() error { s.d.Pause(t); return nil }) }

// Quiet waits until the pane has written nothing for t.
func (s *Steps) Quiet(t time.Duration) { s.Do(func() error { return s.d.Quiet(t) }) }

// Resize resizes the pane and waits for the screen to take the size.
func (s *Steps) Resize(width, height int) { s.Do(func() error { return s.d.Resize(width, height) }) }

// Mark marks the screen once it has been still for MarkQuiet.
func (s *Steps) Mark(state string, e recordings.MarkerState) {
	s.Quiet(MarkQuiet)
	s.MarkNow(state, e)
}

// MarkNow marks the screen at once: one that animates (a spinner) is
// never still.
func (s *Steps) MarkNow(state string, e recordings.MarkerState) {
	s.Do(func() error { return s.d.Mark(state, e) })
}

// MarkIdle marks the idle empty composer at once (the wait before it
// proved it still).
func (s *Steps) MarkIdle() { s.MarkNow("idle", ComposerEmpty) }

// MarkInterrupted marks the idle composer under an interruption note
// (after Esc, a rejected approval): blocked, reason interrupted, the
// composer empty.
func (s *Steps) MarkInterrupted() { s.MarkNow("blocked", ComposerEmpty) }

// Journal waits until the agent's journal has a line for which ok holds.
func (s *Steps) Journal(desc string, ok func(map[string]any) bool) {
	s.Do(func() error { return s.d.Journal(desc, ok) })
}

// Request waits for the next main-loop model request for which ok holds
// (nil: any), its response written in full.
func (s *Steps) Request(desc string, ok func(fakemodel.Request) bool) {
	s.Do(func() error { _, err := s.d.Request(desc, ok); return err })
}

// Started waits for the next model request whose prompt holds word, as
// soon as it arrives (its response may still be streaming).
func (s *Steps) Started(word string) {
	s.Do(func() error { _, err := s.d.Started(word); return err })
}

// Log logs msg with args on the run's logger, as a step (nothing after a
// failed one).
func (s *Steps) Log(msg string, args ...any) {
	s.Do(func() error { s.d.lg.Info(msg, args...); return nil })
}
