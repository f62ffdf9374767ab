package recognizers_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/vt"
)

// pasted draws rows from..to of list's screen onto rows at.. of a screen.
func pasted(t *testing.T, list screentest.Shot, from, to, at int) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen {
		src := list.Screen(t)
		for y := from; y <= to; y++ {
			screentest.PasteRow(s, src, y, at+y-from)
		}
		return s
	}
}

// reversed puts one cell of row y in reverse video.
func reversed(x, y int) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen {
		c := s.Cell(x, y)
		c.Text, c.Width, c.Style = "x", 1, vt.Style{Style: c.Style.Style.Reverse(true)}
		s.SetCell(x, y, c)
		return s
	}
}

// noCompletionShots are the screens proving no completion list:
// thread-resume-id's "/resume " (marker 4) and "/resume <full id>"
// (marker 5) on each version whose list is recorded.
func noCompletionShots(agent, version string) []screentest.Shot {
	return []screentest.Shot{{Agent: agent, Version: version, Surface: "thread-resume-id", Marker: 4}, {Agent: agent, Version: version, Surface: "thread-resume-id", Marker: 5}}
}

// checkNoCompletion reads sh as an idle one-row draft with no completion
// list proven, and each case of it (one change at a time) as not proven;
// the versions in others (no list recorded, or the generic profile)
// prove nothing on sh.
func checkNoCompletion(t *testing.T, sh screentest.Shot, cases []screentest.Change, others ...string) {
	t.Helper()
	r := screentest.Recognize(sh.Screen(t), sh.Agent, sh.Version)
	// Codex's draft has no trailing space ("/resume " reads "/resume").
	if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || !strings.HasPrefix(r.Draft, "/resume") ||
		strings.Contains(r.Draft, "\n") || r.Completion != "" || !r.NoCompletion {
		t.Errorf("%s: %s %s %q completion %q no_completion=%v, want idle, a one-row /resume draft, no completion list proven",
			sh, r.ScreenState, r.Composer, r.Draft, r.Completion, r.NoCompletion)
	}
	for _, c := range cases {
		r := screentest.Recognize(c.Mut(sh.Screen(t)), sh.Agent, sh.Version)
		if r.NoCompletion {
			t.Errorf("%s, %s: no_completion (%s, draft %q, completion %q), want unproven", sh, c.Name, r.ScreenState, r.Draft, r.Completion)
		}
	}
	for _, v := range others {
		if r := screentest.Recognize(sh.Screen(t), sh.Agent, v); r.NoCompletion {
			t.Errorf("%s read by %s: no_completion, want unproven", sh, v)
		}
	}
}

// TestClaudeNoCompletion: Claude Code's list always ends on the row right
// above the composer's upper rule, its rows starting at the command's
// (or glyph's) column or the description's; with "/resume " or
// "/resume <id>" typed that row is the right-aligned effort line over a
// blank row. A list row drawn there, or over the effort line, or the
// line starting at the description column, proves nothing.
func TestClaudeNoCompletion(t *testing.T) {
	const upper, descX = 36, 32
	for _, c := range []struct {
		version string
		list    screentest.Shot // a screen of the version drawing its list
		top     int             // its first row (the list ends at row upper-1)
		head    int             // a grey entry's first row in it
		lit     int             // the highlighted entry's first row
	}{
		{"2.1.267", screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume-id", Marker: 1}, 32, 34, 32},
		{"2.1.332", screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume", Marker: 4}, 32, 33, 32},
	} {
		for _, sh := range noCompletionShots("claude", c.version) {
			cases := []screentest.Change{
				{Name: "the whole list drawn over the rule", Mut: pasted(t, c.list, c.top, upper-1, c.top)},
				{Name: "a description's second row over the rule", Mut: pasted(t, c.list, upper-1, upper-1, upper-1)},
				{Name: "a grey entry over the rule", Mut: pasted(t, c.list, c.head, c.head, upper-1)},
				{Name: "the highlighted entry over the rule", Mut: pasted(t, c.list, c.lit, c.lit, upper-1)},
				{Name: "an entry over the effort line", Mut: pasted(t, c.list, c.head, c.head, upper-2)},
				{Name: "the whole list right over the effort line", Mut: pasted(t, c.list, c.top, upper-1, c.top-1)},
				{Name: "the effort line starting at the description column", Mut: func(s *vt.Screen) *vt.Screen {
					w, _ := s.Size()
					st := s.Cell(w-3, upper-1).Style
					screentest.BlankRow(s, upper-1)
					screentest.WriteText(s, descX, upper-1, "● high · /effort", st)
					return s
				}},
				{Name: "the draft not a slash command", Mut: screentest.Written(2, 37, "x")},
			}
			checkNoCompletion(t, sh, cases, "2.1.263", "2.1.266", "2.1.999")
			// The sibling profile proves it too: both lists end right over
			// the rule with the description at column 32, and nothing in
			// these rows tells the versions apart.
			sibling := map[string]string{"2.1.267": "2.1.332", "2.1.332": "2.1.267"}[c.version]
			if r := screentest.Recognize(sh.Screen(t), "claude", sibling); !r.NoCompletion {
				t.Errorf("%s read by %s: no list proven absent, want proven", sh, sibling)
			}
		}
	}
}

// TestCodexNoCompletion: Codex 0.155.1 draws its completion row in the
// status line's place, 0.171.0 its list two rows over the composer, the
// highlighted entry in reverse video; with "/resume " or "/resume <id>"
// typed the status line is there (0.155.1) and no reverse cell is over
// the composer (0.171.0). One change at a time proves nothing.
func TestCodexNoCompletion(t *testing.T) {
	list155 := screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume-id", Marker: 1}
	for _, sh := range noCompletionShots("codex", "0.155.1") {
		const p, b = 19, 21
		checkNoCompletion(t, sh, []screentest.Change{
			{Name: "the completion row in the status line's place", Mut: pasted(t, list155, 20, 20, b)},
			{Name: "the status line in another colour", Mut: screentest.Restyled(b, screentest.Fg256(114, false))},
			{Name: "the status line shifted right", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, b, 0); return s }},
			{Name: "a row under the status line", Mut: screentest.Written(2, b+1, "x")},
			{Name: "the draft not a slash command", Mut: screentest.Written(2, p, "x")},
		}, "0.153.4", "0.154.0", "0.171.0", "0.999.0")
	}
	list171 := screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume-id", Marker: 1}
	for _, sh := range noCompletionShots("codex", "0.171.0") {
		const p = 36
		checkNoCompletion(t, sh, []screentest.Change{
			{Name: "the completion row over the composer", Mut: pasted(t, list171, 34, 34, p-2)},
			{Name: "the completion row higher up", Mut: pasted(t, list171, 34, 34, p-9)},
			{Name: "one reverse cell over the composer", Mut: reversed(40, p-2)},
			{Name: "one reverse cell on the list's farthest row", Mut: reversed(0, p-17)},
			{Name: "the draft not a slash command", Mut: screentest.Written(2, p, "x")},
		}, "0.153.4", "0.154.0", "0.155.1", "0.999.0")
	}
	// A reverse cell past the rows a list takes proves nothing either way:
	// the list is still absent.
	sh := screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume-id", Marker: 5}
	if r := screentest.Recognize(reversed(0, 36-18)(sh.Screen(t)), sh.Agent, sh.Version); !r.NoCompletion {
		t.Errorf("%s, a reverse cell 18 rows over the composer: no list proven absent, want proven", sh)
	}
}

// TestNoCompletionWithList: over a completion list (thread-new,
// thread-resume, thread-resume-id: /clear, /new and /resume typed) the
// list is read and never proven absent; an empty composer or a draft
// without "/" proves nothing.
func TestNoCompletionWithList(t *testing.T) {
	for _, c := range []struct {
		screentest.Shot
		completion string
	}{
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-new", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume", Marker: 4}, "/resume"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume-id", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-new", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume", Marker: 4}, "/resume"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume-id", Marker: 1}, "/clear"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-new", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume", Marker: 4}, "/resume"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "thread-resume-id", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-new", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume", Marker: 4}, "/resume"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume-id", Marker: 1}, "/new"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume-id", Marker: 0}, ""}, // empty composer
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "draft", Marker: 0}, ""},            // "a draft that is not sent"
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "thread-resume-id", Marker: 0}, ""},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "clear-draft", Marker: 0}, ""},
	} {
		r := screentest.Recognize(c.Screen(t), c.Agent, c.Version)
		if r.Completion != c.completion || r.NoCompletion {
			t.Errorf("%s: completion %q no_completion=%v, want completion %q and no list proven absent", c.Shot, r.Completion, r.NoCompletion, c.completion)
		}
	}
}

// TestClaudeArgumentHint: "/resume " typed shows a grey argument hint
// after the drawn cursor (thread-resume-id marker 4); the draft is what
// was typed, its space kept. Changing the hint's shape reads the row as
// it is (the old reading: hint included), never as "/resume ".
func TestClaudeArgumentHint(t *testing.T) {
	const y, cursor = 37, 10
	for _, v := range []string{"2.1.267", "2.1.332"} {
		sh := screentest.Shot{Agent: "claude", Version: v, Surface: "thread-resume-id", Marker: 4}
		if r := screentest.Recognize(sh.Screen(t), "claude", v); r.Draft != "/resume " || r.DraftLen != 8 {
			t.Errorf("%s: draft %q (%d), want %q", sh, r.Draft, r.DraftLen, "/resume ")
		}
		last := len("[conversation id or search term]")
		if v == "2.1.332" {
			last = len("[session ID or search term]")
		}
		last += cursor
		for _, c := range []screentest.Change{
			{Name: "the hint in another colour", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, y, cursor+1, last+1, screentest.Fg256(245, false))
				return s
			}},
			{Name: "the cursor not drawn", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, y, cursor, cursor+1, vt.Style{}); return s }},
			{Name: "no bracket closing the hint", Mut: screentest.Written(last, y, ".")},
			{Name: "no bracket opening the hint", Mut: screentest.Written(cursor+1, y, "(")},
			{Name: "no space before the cursor", Mut: screentest.Written(cursor-1, y, "x")},
			{Name: "another word typed before the cursor", Mut: screentest.Written(3, y, " ")},
			{Name: "the hint on a draft of two rows", Mut: func(s *vt.Screen) *vt.Screen {
				// The frame grows a row upwards: its upper rule over the
				// effort line, the hint's row, a second row under it.
				screentest.CopyRow(s, y-1, y-2)
				screentest.CopyRow(s, y, y-1)
				screentest.BlankRow(s, y)
				screentest.WriteText(s, 2, y, "more", vt.Style{})
				return s
			}},
		} {
			if r := screentest.Recognize(c.Mut(sh.Screen(t)), "claude", v); r.Draft == "/resume " {
				t.Errorf("%s, %s: draft %q, want the row as drawn", sh, c.Name, r.Draft)
			}
		}
	}
}
