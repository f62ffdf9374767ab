package rig

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/vt"
)

// WaitTimeout is the deadline of every wait of a scenario.
const WaitTimeout = 60 * time.Second

// Driver is what a scenario drives the agent with. Every wait has its own
// WaitTimeout deadline.
type Driver struct {
	Agent   string
	Version string
	Home    *Home
	Log     *fakemodel.Log
	// scenario is the scenario being driven, dialect its agent's.
	scenario *Scenario
	dialect  *Agent
	ctx      context.Context
	lg       *slog.Logger
	client   *controlmode.Client
	pane     controlmode.PaneID
	rec      *recordings.Recorder
	tmux     *tmuxServer
	seen     int // requests of the log already waited past
	// journal is the transcript/rollout file once known.
	journal string
}

func (d *Driver) wait(desc string, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(d.ctx, WaitTimeout)
	defer cancel()
	start := time.Now()
	if err := f(ctx); err != nil {
		return fmt.Errorf("rig: waiting for %s: %w\nscreen:\n%s", desc, err, d.rec.ScreenText())
	}
	d.lg.Debug("rig: waited", "for", desc, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// Screen waits until every anchor is on the screen (plain text).
func (d *Driver) Screen(anchors ...string) error {
	return d.wait(fmt.Sprintf("screen %q", anchors), func(ctx context.Context) error {
		return d.rec.WaitScreen(ctx, func(s *vt.Screen) bool { return HasAll(screenText(s), anchors) })
	})
}

// ScreenGone waits until no anchor is on the screen.
func (d *Driver) ScreenGone(anchors ...string) error {
	return d.wait(fmt.Sprintf("screen without %q", anchors), func(ctx context.Context) error {
		return d.rec.WaitScreen(ctx, func(s *vt.Screen) bool {
			text := screenText(s)
			for _, a := range anchors {
				if strings.Contains(text, a) {
					return false
				}
			}
			return true
		})
	})
}

// ScreenFunc waits until ok holds for the screen's plain text.
func (d *Driver) ScreenFunc(desc string, ok func(text string) bool) error {
	return d.wait(desc, func(ctx context.Context) error {
		return d.rec.WaitScreen(ctx, func(s *vt.Screen) bool { return ok(screenText(s)) })
	})
}

// screenText is the screen's plain text with no-break spaces (an
// agent's prompt glyph may be followed by one) read as spaces.
func screenText(s *vt.Screen) string { return strings.ReplaceAll(s.String(), "\u00a0", " ") }

// HasAll reports whether text holds every anchor.
func HasAll(text string, anchors []string) bool {
	for _, a := range anchors {
		if !strings.Contains(text, a) {
			return false
		}
	}
	return true
}

// Request waits for the next main-loop request of the fake model (after
// those already waited for) whose response was written in full.
func (d *Driver) Request(desc string, ok func(fakemodel.Request) bool) (fakemodel.Request, error) {
	var r fakemodel.Request
	err := d.wait("model request: "+desc, func(ctx context.Context) error {
		var err error
		r, d.seen, err = d.Log.Wait(ctx, d.seen, func(q fakemodel.Request) bool { return fakemodel.Main(q) && (ok == nil || ok(q)) })
		return err
	})
	return r, err
}

// Journal waits until the agent's journal (the newest file of its
// JournalGlob) has a line for which ok holds.
func (d *Driver) Journal(desc string, ok func(line map[string]any) bool) error {
	return d.Until("journal: "+desc, 100*time.Millisecond, func(context.Context) bool {
		if d.journal == "" {
			d.journal = d.dialect.newestJournal(d.Home.Home)
		}
		return d.journal != "" && journalHas(d.journal, ok)
	})
}

// Until waits until ok holds, asking every interval: for a condition
// outside the screen and the model's log (files the agent writes).
func (d *Driver) Until(desc string, every time.Duration, ok func(ctx context.Context) bool) error {
	return d.wait(desc, func(ctx context.Context) error {
		for {
			if ok(ctx) {
				return nil
			}
			select {
			case <-ctx.Done():
				return context.Cause(ctx)
			case <-time.After(every):
			}
		}
	})
}

// JournalPath is the journal Journal waits on, "" until it has found one.
func (d *Driver) JournalPath() string { return d.journal }

// Journals lists the agent's journals (its JournalGlob) under the run's
// HOME.
func (d *Driver) Journals() []string { return d.dialect.journals(d.Home.Home) }

// NewestJournal is the newest of the agent's journals, "" when there is
// none.
func (d *Driver) NewestJournal() string { return d.dialect.newestJournal(d.Home.Home) }

// Scenario is the scenario being driven.
func (d *Driver) Scenario() *Scenario { return d.scenario }

// Logger is the run's logger.
func (d *Driver) Logger() *slog.Logger { return d.lg }

// ScreenText is the screen's plain text now.
func (d *Driver) ScreenText() string { return d.rec.ScreenText() }

// ScreenCells waits until ok holds for the screen (its cells and their
// styles).
func (d *Driver) ScreenCells(desc string, ok func(*vt.Screen) bool) error {
	return d.wait(desc, func(ctx context.Context) error { return d.rec.WaitScreen(ctx, ok) })
}

func journalHas(path string, ok func(map[string]any) bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && ok(m) {
			return true
		}
	}
	return false
}

// Send sends exact bytes to the pane (send-keys -H) and records them as an
// i event at the point of the stream where they were sent.
func (d *Driver) Send(b []byte) error {
	ctx, cancel := context.WithTimeout(d.ctx, WaitTimeout)
	defer cancel()
	p, err := d.rec.Barrier(ctx)
	if err != nil {
		return err
	}
	d.rec.Insert(p, recordings.Input, b)
	if err := d.client.SendBytes(ctx, d.pane, b); err != nil {
		return fmt.Errorf("rig: send %q: %w", b, err)
	}
	return nil
}

// Type sends text as typed characters.
func (d *Driver) Type(text string) error { return d.Send([]byte(text)) }

// Key sends one named key, as tmux would encode it for the pane's current
// modes: Enter, Escape, Tab, BTab, Up, Down, Left, Right, M-Up, Space, or
// a single character.
func (d *Driver) Key(name string) error {
	b, err := keyBytes(name, d.rec.Modes().AppCursor)
	if err != nil {
		return err
	}
	return d.Send(b)
}

func keyBytes(name string, appCursor bool) ([]byte, error) {
	arrows := map[string]byte{"Up": 'A', "Down": 'B', "Right": 'C', "Left": 'D'}
	switch name {
	case "Enter":
		return []byte("\r"), nil
	case "Escape":
		return []byte("\x1b"), nil
	case "Tab":
		return []byte("\t"), nil
	case "BTab":
		return []byte("\x1b[Z"), nil
	case "Space":
		return []byte(" "), nil
	case "BSpace":
		return []byte("\x7f"), nil
	case "C-u":
		return []byte("\x15"), nil
	case "C-]":
		return []byte("\x1d"), nil
	case "M-Up", "M-Down":
		return []byte{0x1b, '[', '1', ';', '3', arrows[strings.TrimPrefix(name, "M-")]}, nil
	}
	if c, ok := arrows[name]; ok {
		if appCursor {
			return []byte{0x1b, 'O', c}, nil
		}
		return []byte{0x1b, '[', c}, nil
	}
	if len(name) == 1 {
		return []byte(name), nil
	}
	return nil, fmt.Errorf("rig: unknown key %q", name)
}

// Mark records a marker at the current point of the stream.
func (d *Driver) Mark(state string, e recordings.MarkerState) error {
	ctx, cancel := context.WithTimeout(d.ctx, WaitTimeout)
	defer cancel()
	p, err := d.rec.Barrier(ctx)
	if err != nil {
		return err
	}
	d.rec.Insert(p, recordings.MarkerEv, []byte(recordings.Marker{State: contract.ScreenState(state), Expect: e}.String()))
	return nil
}

// Quiet waits until the pane has written nothing for d (a screen that
// stopped drawing). Only for screens without animation.
func (d *Driver) Quiet(q time.Duration) error {
	return d.wait("quiet pane", func(ctx context.Context) error {
		for {
			last := d.rec.ScreenText()
			select {
			case <-ctx.Done():
				return context.Cause(ctx)
			case <-time.After(q):
			}
			if d.rec.ScreenText() == last {
				return nil
			}
		}
	})
}

// Pause waits a fixed time where the agent itself needs one (Codex takes
// an Enter within ~120 ms of typed text as a newline).
func (d *Driver) Pause(t time.Duration) {
	select {
	case <-d.ctx.Done():
	case <-time.After(t):
	}
}

// Resize resizes the pane (the recorder records r + s from the re-seed).
func (d *Driver) Resize(width, height int) error {
	ctx, cancel := context.WithTimeout(d.ctx, WaitTimeout)
	defer cancel()
	_, err := d.client.Command(ctx, "resize-window", "-t", session, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height))
	if err != nil {
		return fmt.Errorf("rig: resize: %w", err)
	}
	return d.wait(fmt.Sprintf("pane resized to %dx%d", width, height), func(ctx context.Context) error {
		return d.rec.WaitScreen(ctx, func(s *vt.Screen) bool {
			w, h := s.Size()
			return w == width && h == height
		})
	})
}

// Contains reports whether b contains all of subs (for journal lines).
func Contains(b []byte, subs ...string) bool {
	for _, s := range subs {
		if !bytes.Contains(b, []byte(s)) {
			return false
		}
	}
	return true
}

// Started waits for the next main-loop request whose prompt contains
// word, as soon as it arrives (its response may still be streaming).
func (d *Driver) Started(word string) (fakemodel.Request, error) {
	var r fakemodel.Request
	err := d.wait("model request started: "+word, func(ctx context.Context) error {
		var err error
		r, d.seen, err = d.Log.Wait(ctx, d.seen, func(q fakemodel.Request) bool {
			return strings.Contains(string(q.Body), word)
		})
		return err
	})
	return r, err
}
