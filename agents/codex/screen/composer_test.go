package screen_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

var ctrlU = []byte{0x15}

// TestCodexClear: ctrl+u kills from the line start to the cursor, so a
// Codex draft is offered it only as the "›" row alone with the cursor
// right after its last cell, idle or working.
func TestCodexClear(t *testing.T) {
	cases := []struct {
		screentest.Shot
		state    contract.ScreenState
		composer contract.Composer
		clear    bool
	}{
		// The draft typed, the cursor at its end; ctrl+u then empties it
		// (marker 1).
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-draft", Marker: 1}, contract.ScreenIdle, contract.ComposerEmpty, false},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-draft", Marker: 1}, contract.ScreenIdle, contract.ComposerEmpty, false},
		// The cursor moved four cells left: ctrl+u leaves "tail" (marker 1,
		// the cursor at the line start).
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-cursor-mid", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-cursor-mid", Marker: 0, At: 2.5}, contract.ScreenIdle, contract.ComposerDraft, false},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-cursor-mid", Marker: 1}, contract.ScreenIdle, contract.ComposerDraft, false},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-cursor-mid", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-cursor-mid", Marker: 0, At: 2.8}, contract.ScreenIdle, contract.ComposerDraft, false},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-cursor-mid", Marker: 1}, contract.ScreenIdle, contract.ComposerDraft, false},
		// Two rows: ctrl+u kills the second only; the first left alone with
		// the cursor at its end is one row again (marker 1).
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-multiline", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-multiline", Marker: 1}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-multiline", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, false},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-multiline", Marker: 1}, contract.ScreenIdle, contract.ComposerDraft, true},
		// An empty second row under the first (the cursor on it): no known
		// shape at all.
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-multiline", Marker: 0, At: 3.4}, contract.ScreenUnknown, contract.ComposerAbsent, false},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "clear-multiline", Marker: 0, At: 2.6}, contract.ScreenUnknown, contract.ComposerAbsent, false},
		// The other profiled versions' drafts.
		{screentest.Shot{Agent: "codex", Version: "0.153.4", Surface: "draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.154.0", Surface: "draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true},
		// Drafts typed while a turn runs.
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "send-working", Marker: 0, At: 2.5}, contract.ScreenWorking, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "send-working", Marker: 0, At: 3.9}, contract.ScreenWorking, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "send-working", Marker: 0, At: 2.5}, contract.ScreenWorking, contract.ComposerDraft, true},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "send-working", Marker: 0, At: 4.5}, contract.ScreenWorking, contract.ComposerDraft, true},
	}
	for _, c := range cases {
		t.Run(c.Shot.String(), func(t *testing.T) {
			r := screentest.RecognizeShot(t, c.Shot, c.state, c.composer)
			screentest.CheckClear(t, r, c.clear, recognizers.Clear{Keys: ctrlU})
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
		base := screentest.Shot{Agent: "codex", Version: v, Surface: "clear-draft", Marker: 0}.Screen(t)
		r := screentest.Recognize(base, "codex", v)
		if r.Clear == nil {
			t.Fatalf("%s: the base screen offers no clear", v)
		}
		p := r.Region.Top
		cur := base.Cursor()
		w, h := base.Size()
		cases := map[string]func(s *vt.Screen){
			"wrapped onto a second row": func(s *vt.Screen) {
				for i, ch := range "wrapped" {
					screentest.SetText(s, 2+i, p+1, string(ch))
				}
			},
			"wrapped, the cursor after it": func(s *vt.Screen) {
				for i, ch := range "wrapped" {
					screentest.SetText(s, 2+i, p+1, string(ch))
				}
				s.SetCursor(9, p+1)
			},
			"cursor one cell past the end": func(s *vt.Screen) { s.SetCursor(cur.X+1, cur.Y) },
			"cursor on the last cell":      func(s *vt.Screen) { s.SetCursor(cur.X-1, cur.Y) },
			"cursor on another row":        func(s *vt.Screen) { s.SetCursor(cur.X, cur.Y-1) },
			"cursor hidden":                func(s *vt.Screen) { s.Write([]byte("\x1b[?25l")) },
		}
		for name, mutate := range cases {
			s := screentest.CopyScreen(base, 0, w, h)
			mutate(s)
			if r := screentest.Recognize(s, "codex", v); r.Clear != nil {
				t.Errorf("%s %s: clear offered (%s composer %s)", v, name, r.ScreenState, r.Composer)
			}
		}
		if r := screentest.Recognize(base, "codex", "0.999.0"); r.Composer != contract.ComposerDraft || r.Clear != nil {
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
		base := screentest.Shot{Agent: "codex", Version: c.version, Surface: "send-working", Marker: 0, At: c.at}.Screen(t)
		r := screentest.Recognize(base, "codex", c.version)
		if r.ScreenState != contract.ScreenWorking || r.Composer != contract.ComposerDraft || !r.Activity.Spinner {
			t.Fatalf("%s at %v: read %s composer %s, want working with a draft", c.version, c.at, r.ScreenState, r.Composer)
		}
		w, h := base.Size()
		queue, working := rowWith(base, "tab to queue message"), rowWith(base, "Working (")
		if queue < 0 || working < 0 {
			t.Fatalf("%s at %v: no queue row or working line", c.version, c.at)
		}
		cases := map[string]func(s *vt.Screen){
			"no working line": func(s *vt.Screen) { screentest.BlankRow(s, working) },
			"queue row restyled": func(s *vt.Screen) {
				screentest.Restyle(s, queue, queue, vt.Style{Style: vt.DefaultStyle.Style.Italic(true)})
			},
			"queue row reworded": func(s *vt.Screen) { screentest.SetText(s, 2, queue, "T") },
			"queue row extended": func(s *vt.Screen) { screentest.SetText(s, 60, queue, "x") },
		}
		for name, mutate := range cases {
			s := screentest.CopyScreen(base, 0, w, h)
			mutate(s)
			if r := screentest.Recognize(s, "codex", c.version); r.ScreenState == contract.ScreenWorking || r.Composer != contract.ComposerAbsent || r.Clear != nil {
				t.Errorf("%s at %v, %s: read %s composer %s clear %v, want no composer", c.version, c.at, name, r.ScreenState, r.Composer, r.Clear != nil)
			}
		}
	}
	// 0.154.0 has no recording of the queue row: its profile does not know
	// it (0.155.1's screen under 0.154.0).
	s := screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "send-working", Marker: 0, At: 2.5}.Screen(t)
	if r := screentest.Recognize(s, "codex", "0.154.0"); r.ScreenState != contract.ScreenUnknown {
		t.Errorf("0.154.0 read the queue row: %s composer %s", r.ScreenState, r.Composer)
	}
}

// TestCodexSendWorkingNeverAsks: sending while a turn runs (a draft, Tab
// queueing it, Enter steering the next) never reads as an async question,
// at any event of the recordings.
func TestCodexSendWorkingNeverAsks(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		rec := screentest.LoadCast(t, screentest.CastPath("codex", v, "send-working"))
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
		screentest.Shot
		draft    string
		row, top int // the completion row, the composer row
	}{
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-new", Marker: 1}, "/new", 20, 18},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 1}, "/new", 20, 18},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 4}, "/resume", 21, 19},
	} {
		r := screentest.Recognize(c.Screen(t), c.Agent, c.Version)
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != c.draft || r.Clear != nil || r.Interaction != nil {
			t.Errorf("%s: %s %s %q clear %v, want idle, draft %q, no clear", c.Shot, r.ScreenState, r.Composer, r.Draft, r.Clear, c.draft)
		}
		for _, m := range []screentest.Change{
			{Name: "another command", Mut: screentest.Written(4, c.row, "x")},
			{Name: "the draft changed", Mut: screentest.Written(4, c.top, "x")},
			{Name: "the row unstyled", Mut: screentest.Restyled(c.row, vt.Style{})},
			{Name: "no description", Mut: func(s *vt.Screen) *vt.Screen {
				for x := 2 + len(c.draft); x < 120; x++ {
					screentest.SetText(s, x, c.row, " ")
				}
				return s
			}},
			{Name: "a second row", Mut: func(s *vt.Screen) *vt.Screen { screentest.CopyRow(s, c.row, c.row+1); return s }},
			{Name: "no blank row above it", Mut: screentest.Written(2, c.row-1, "x")},
		} {
			r := screentest.Recognize(m.Mut(c.Screen(t)), c.Agent, c.Version)
			if r.ScreenState == contract.ScreenIdle || r.Interaction != nil {
				t.Errorf("%s, %s: %s %s %q, want not idle", c.Shot, m.Name, r.ScreenState, r.Composer, r.Draft)
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
		screentest.Shot
		draft    string
		other    string
		row, top int // the completion row, the composer row
	}{
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-new", Marker: 1}, "/new", "0.171.0", 20, 18},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 1}, "/new", "0.171.0", 20, 18},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 4}, "/resume", "0.171.0", 21, 19},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-new", Marker: 1}, "/new", "0.155.1", 34, 36},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume", Marker: 1}, "/new", "0.155.1", 34, 36},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume", Marker: 4}, "/resume", "0.155.1", 34, 36},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume-id", Marker: 1}, "/new", "0.171.0", 20, 18},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume-id", Marker: 1}, "/new", "0.155.1", 34, 36},
	} {
		descX := 2 + len(c.draft) + 2
		cases := []screentest.Change{
			{Name: "another command typed", Mut: screentest.Written(3, c.top, "k")},
			{Name: "an argument typed after it", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.WriteText(s, 2+len(c.draft), c.top, " 1", vt.Style{})
				return s
			}},
			{Name: "the row unstyled", Mut: screentest.Restyled(c.row, vt.Style{})},
			{Name: "the row shifted right", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, c.row, 0); return s }},
			{Name: "the description column moved", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, c.row, descX); return s }},
			{Name: "another command in the row", Mut: screentest.Written(4, c.row, "x")},
		}
		if c.Version == "0.171.0" {
			cases = append(cases,
				screentest.Change{Name: "a second row over it", Mut: func(s *vt.Screen) *vt.Screen { screentest.CopyRow(s, c.row, c.row-1); return s }},
				screentest.Change{Name: "a row between it and the composer", Mut: screentest.Written(2, c.row+1, "x")},
				screentest.Change{Name: "the description in the command's weight", Mut: screentest.Restyled(c.row, boldRev)},
				screentest.Change{Name: "the padding in the description's weight", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.RestyleCols(s, c.row, descX+20, 120, vt.Style{Style: tcell.StyleDefault.Reverse(true)})
					return s
				}},
			)
		} else {
			cases = append(cases, screentest.Change{Name: "a second row under it", Mut: func(s *vt.Screen) *vt.Screen { screentest.CopyRow(s, c.row, c.row+1); return s }})
		}
		screentest.CheckCompletion(t, c.Shot, c.draft, cases, c.other, "0.999.0")
	}
}
