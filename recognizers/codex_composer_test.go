package recognizers_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// shot names one screen of a recording: its marker k, or with at > 0 the
// screen after its last event at or before at seconds.
type shot struct {
	agent, version, surface string
	marker                  int
	at                      float64
}

func (s shot) String() string {
	name := s.agent + "/" + s.version + "/" + s.surface
	if s.at > 0 {
		return fmt.Sprintf("%s at %g", name, s.at)
	}
	return fmt.Sprintf("%s marker %d", name, s.marker)
}

func (s shot) screen(t testing.TB) *vt.Screen {
	t.Helper()
	rec := loadCast(t, castPath(s.agent, s.version, s.surface))
	if s.at > 0 {
		return screenAtTime(t, rec, s.at)
	}
	scr, _ := screenAt(t, rec, s.marker)
	return scr
}

var ctrlU = []byte{0x15}

// TestCodexClear: ctrl+u kills from the line start to the cursor, so a
// Codex draft is offered it only as the "›" row alone with the cursor
// right after its last cell, idle or working.
func TestCodexClear(t *testing.T) {
	cases := []struct {
		shot
		state    contract.ScreenState
		composer contract.Composer
		clear    bool
	}{
		// The draft typed, the cursor at its end; ctrl+u then empties it
		// (marker 1).
		{shot{"codex", "0.155.1", "clear-draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.155.1", "clear-draft", 1, 0}, contract.ScreenIdle, contract.ComposerEmpty, false},
		{shot{"codex", "0.171.0", "clear-draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.171.0", "clear-draft", 1, 0}, contract.ScreenIdle, contract.ComposerEmpty, false},
		// The cursor moved four cells left: ctrl+u leaves "tail" (marker 1,
		// the cursor at the line start).
		{shot{"codex", "0.155.1", "clear-cursor-mid", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.155.1", "clear-cursor-mid", 0, 2.5}, contract.ScreenIdle, contract.ComposerDraft, false},
		{shot{"codex", "0.155.1", "clear-cursor-mid", 1, 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		{shot{"codex", "0.171.0", "clear-cursor-mid", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.171.0", "clear-cursor-mid", 0, 2.8}, contract.ScreenIdle, contract.ComposerDraft, false},
		{shot{"codex", "0.171.0", "clear-cursor-mid", 1, 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		// Two rows: ctrl+u kills the second only; the first left alone with
		// the cursor at its end is one row again (marker 1).
		{shot{"codex", "0.155.1", "clear-multiline", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		{shot{"codex", "0.155.1", "clear-multiline", 1, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.171.0", "clear-multiline", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		{shot{"codex", "0.171.0", "clear-multiline", 1, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		// An empty second row under the first (the cursor on it): no known
		// shape at all.
		{shot{"codex", "0.155.1", "clear-multiline", 0, 3.4}, contract.ScreenUnknown, contract.ComposerAbsent, false},
		{shot{"codex", "0.171.0", "clear-multiline", 0, 2.6}, contract.ScreenUnknown, contract.ComposerAbsent, false},
		// The other profiled versions' drafts.
		{shot{"codex", "0.153.4", "draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{shot{"codex", "0.154.0", "draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		// Drafts typed while a turn runs.
		{shot{"codex", "0.155.1", "send-working", 0, 2.5}, contract.ScreenWorking, contract.ComposerDraft, true},
		{shot{"codex", "0.155.1", "send-working", 0, 3.9}, contract.ScreenWorking, contract.ComposerDraft, true},
		{shot{"codex", "0.171.0", "send-working", 0, 2.5}, contract.ScreenWorking, contract.ComposerDraft, true},
		{shot{"codex", "0.171.0", "send-working", 0, 4.5}, contract.ScreenWorking, contract.ComposerDraft, true},
	}
	for _, c := range cases {
		t.Run(c.shot.String(), func(t *testing.T) {
			r := recognize(c.screen(t), c.agent, c.version)
			if r.ScreenState != c.state || r.Composer != c.composer {
				t.Fatalf("read %s composer %s, want %s composer %s (%v)", r.ScreenState, r.Composer, c.state, c.composer, reasonCodes(r))
			}
			switch {
			case !c.clear && r.Clear != nil:
				t.Errorf("clear %q offered, want none", r.Clear.Keys)
			case c.clear && (r.Clear == nil || !bytes.Equal(r.Clear.Keys, ctrlU) || r.Clear.Stash):
				t.Errorf("clear %+v, want ctrl+u without stash", r.Clear)
			}
			if r.Stashed || r.DraftRestored {
				t.Errorf("Codex read stashed=%v restored=%v", r.Stashed, r.DraftRestored)
			}
		})
	}
}

// TestCodexClearRefused: a draft whose shape the screen does not prove is
// offered no clear: a line wrapped onto a second row, the cursor hidden or
// past the draft, a generic profile.
func TestCodexClearRefused(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		base := shot{"codex", v, "clear-draft", 0, 0}.screen(t)
		r := recognize(base, "codex", v)
		if r.Clear == nil {
			t.Fatalf("%s: the base screen offers no clear", v)
		}
		p := r.Region.Top
		cur := base.Cursor()
		w, h := base.Size()
		cases := map[string]func(s *vt.Screen){
			"wrapped onto a second row": func(s *vt.Screen) {
				for i, ch := range "wrapped" {
					setText(s, 2+i, p+1, string(ch))
				}
			},
			"wrapped, the cursor after it": func(s *vt.Screen) {
				for i, ch := range "wrapped" {
					setText(s, 2+i, p+1, string(ch))
				}
				s.SetCursor(9, p+1)
			},
			"cursor one cell past the end": func(s *vt.Screen) { s.SetCursor(cur.X+1, cur.Y) },
			"cursor on the last cell":      func(s *vt.Screen) { s.SetCursor(cur.X-1, cur.Y) },
			"cursor on another row":        func(s *vt.Screen) { s.SetCursor(cur.X, cur.Y-1) },
			"cursor hidden":                func(s *vt.Screen) { s.Write([]byte("\x1b[?25l")) },
		}
		for name, mutate := range cases {
			s := copyScreen(base, 0, w, h)
			mutate(s)
			if r := recognize(s, "codex", v); r.Clear != nil {
				t.Errorf("%s %s: clear offered (%s composer %s)", v, name, r.ScreenState, r.Composer)
			}
		}
		if r := recognize(base, "codex", "0.999.0"); r.Composer != contract.ComposerDraft || r.Clear != nil {
			t.Errorf("%s under the generic profile: composer %s clear %+v, want a draft and no clear", v, r.Composer, r.Clear)
		}
	}
}

// TestCodexWorkingDraft: "tab to queue message" in place of the status
// line (0.155.1) or the hints row (0.171.0) reads as working with a draft
// only in its recorded styles and under the working line.
func TestCodexWorkingDraft(t *testing.T) {
	for _, c := range []struct {
		version string
		at      float64
	}{{"0.155.1", 2.5}, {"0.155.1", 3.2}, {"0.155.1", 3.9}, {"0.171.0", 2.5}, {"0.171.0", 3.8}, {"0.171.0", 4.5}} {
		base := shot{"codex", c.version, "send-working", 0, c.at}.screen(t)
		r := recognize(base, "codex", c.version)
		if r.ScreenState != contract.ScreenWorking || r.Composer != contract.ComposerDraft || !r.Activity.Spinner {
			t.Fatalf("%s at %v: read %s composer %s, want working with a draft", c.version, c.at, r.ScreenState, r.Composer)
		}
		w, h := base.Size()
		queue, working := rowWith(base, "tab to queue message"), rowWith(base, "Working (")
		if queue < 0 || working < 0 {
			t.Fatalf("%s at %v: no queue row or working line", c.version, c.at)
		}
		cases := map[string]func(s *vt.Screen){
			"no working line":    func(s *vt.Screen) { blankRow(s, working) },
			"queue row restyled": func(s *vt.Screen) { restyle(s, queue, queue, vt.Style{Style: vt.DefaultStyle.Style.Italic(true)}) },
			"queue row reworded": func(s *vt.Screen) { setText(s, 2, queue, "T") },
			"queue row extended": func(s *vt.Screen) { setText(s, 60, queue, "x") },
		}
		for name, mutate := range cases {
			s := copyScreen(base, 0, w, h)
			mutate(s)
			if r := recognize(s, "codex", c.version); r.ScreenState == contract.ScreenWorking || r.Composer != contract.ComposerAbsent || r.Clear != nil {
				t.Errorf("%s at %v, %s: read %s composer %s clear %v, want no composer", c.version, c.at, name, r.ScreenState, r.Composer, r.Clear != nil)
			}
		}
	}
	// 0.154.0 has no recording of the queue row: its profile does not know
	// it (0.155.1's screen under 0.154.0).
	s := shot{"codex", "0.155.1", "send-working", 0, 2.5}.screen(t)
	if r := recognize(s, "codex", "0.154.0"); r.ScreenState != contract.ScreenUnknown {
		t.Errorf("0.154.0 read the queue row: %s composer %s", r.ScreenState, r.Composer)
	}
}

// TestCodexSendWorkingNeverAsks: sending while a turn runs (a draft, Tab
// queueing it, Enter steering the next) never reads as an async question,
// at any event of the recordings.
func TestCodexSendWorkingNeverAsks(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		rec := loadCast(t, castPath("codex", v, "send-working"))
		rz := recognizers.NewRecognizer(recognizers.Lookup("codex", v), recognizers.TestKey)
		_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
			if r := rz.Recognize(s.Screen); r.ScreenState == contract.ScreenAsyncQuestion || r.Prompt != nil || r.Actionable() {
				t.Errorf("%s event %d (%.3fs): read %s prompt %v", v, s.Index, rec.Events[s.Index].Time, r.ScreenState, r.Prompt != nil)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// rowWith returns the first row of s showing text, or -1.
func rowWith(s *vt.Screen, text string) int {
	w, h := s.Size()
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			if t := s.CellText(x, y); t != "" {
				b.WriteString(t)
			} else {
				b.WriteByte(' ')
			}
		}
		if strings.Contains(b.String(), text) {
			return y
		}
	}
	return -1
}

// TestCodexSlashCompletion: Codex 0.155.1 shows a slash command typed at
// rest over its completion row in place of the status line (thread-new,
// thread-resume): idle with the draft, no clearing step (ctrl+u is not
// recorded with the row open). The row must name the draft exactly, in
// the highlight style, alone under it.
func TestCodexSlashCompletion(t *testing.T) {
	for _, c := range []struct {
		shot
		draft    string
		row, top int // the completion row, the composer row
	}{
		{shot{"codex", "0.155.1", "thread-new", 1, 0}, "/new", 20, 18},
		{shot{"codex", "0.155.1", "thread-resume", 1, 0}, "/new", 20, 18},
		{shot{"codex", "0.155.1", "thread-resume", 4, 0}, "/resume", 21, 19},
	} {
		r := recognize(c.screen(t), c.agent, c.version)
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != c.draft || r.Clear != nil || r.Interaction != nil {
			t.Errorf("%s: %s %s %q clear %v, want idle, draft %q, no clear", c.shot, r.ScreenState, r.Composer, r.Draft, r.Clear, c.draft)
		}
		for _, m := range []pickerCase{
			{"another command", written(4, c.row, "x")},
			{"the draft changed", written(4, c.top, "x")},
			{"the row unstyled", restyled(c.row, vt.Style{})},
			{"no description", func(s *vt.Screen) *vt.Screen {
				for x := 2 + len(c.draft); x < 120; x++ {
					setText(s, x, c.row, " ")
				}
				return s
			}},
			{"a second row", func(s *vt.Screen) *vt.Screen { copyRow(s, c.row, c.row+1); return s }},
			{"no blank row above it", written(2, c.row-1, "x")},
		} {
			r := recognize(m.mut(c.screen(t)), c.agent, c.version)
			if r.ScreenState == contract.ScreenIdle || r.Interaction != nil {
				t.Errorf("%s, %s: %s %s %q, want not idle", c.shot, m.name, r.ScreenState, r.Composer, r.Draft)
			}
		}
	}
}

// TestCodexCompletion: Codex's completion row (thread-new, thread-resume:
// /new and /resume typed) names the command Enter runs only in its
// recorded shape: 0.155.1's in the status line's place, 0.171.0's over
// the composer with a blank row between, the description two columns
// after the command; changing one thing gives none.
func TestCodexCompletion(t *testing.T) {
	boldRev := vt.Style{Style: tcell.StyleDefault.Bold(true).Reverse(true)}
	for _, c := range []struct {
		shot
		draft    string
		other    string
		row, top int // the completion row, the composer row
	}{
		{shot{"codex", "0.155.1", "thread-new", 1, 0}, "/new", "0.171.0", 20, 18},
		{shot{"codex", "0.155.1", "thread-resume", 1, 0}, "/new", "0.171.0", 20, 18},
		{shot{"codex", "0.155.1", "thread-resume", 4, 0}, "/resume", "0.171.0", 21, 19},
		{shot{"codex", "0.171.0", "thread-new", 1, 0}, "/new", "0.155.1", 34, 36},
		{shot{"codex", "0.171.0", "thread-resume", 1, 0}, "/new", "0.155.1", 34, 36},
		{shot{"codex", "0.171.0", "thread-resume", 4, 0}, "/resume", "0.155.1", 34, 36},
		{shot{"codex", "0.155.1", "thread-resume-id", 1, 0}, "/new", "0.171.0", 20, 18},
		{shot{"codex", "0.171.0", "thread-resume-id", 1, 0}, "/new", "0.155.1", 34, 36},
	} {
		descX := 2 + len(c.draft) + 2
		cases := []pickerCase{
			{"another command typed", written(3, c.top, "k")},
			{"an argument typed after it", func(s *vt.Screen) *vt.Screen {
				writeText(s, 2+len(c.draft), c.top, " 1", vt.Style{})
				return s
			}},
			{"the row unstyled", restyled(c.row, vt.Style{})},
			{"the row shifted right", func(s *vt.Screen) *vt.Screen { shiftRight(s, c.row, 0); return s }},
			{"the description column moved", func(s *vt.Screen) *vt.Screen { shiftRight(s, c.row, descX); return s }},
			{"another command in the row", written(4, c.row, "x")},
		}
		if c.version == "0.171.0" {
			cases = append(cases,
				pickerCase{"a second row over it", func(s *vt.Screen) *vt.Screen { copyRow(s, c.row, c.row-1); return s }},
				pickerCase{"a row between it and the composer", written(2, c.row+1, "x")},
				pickerCase{"the description in the command's weight", restyled(c.row, boldRev)},
				pickerCase{"the padding in the description's weight", func(s *vt.Screen) *vt.Screen {
					restyleCols(s, c.row, descX+20, 120, vt.Style{Style: tcell.StyleDefault.Reverse(true)})
					return s
				}},
			)
		} else {
			cases = append(cases, pickerCase{"a second row under it", func(s *vt.Screen) *vt.Screen { copyRow(s, c.row, c.row+1); return s }})
		}
		checkCompletion(t, c.shot, c.draft, cases, c.other, "0.999.0")
	}
}
