package recognizers_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
)

// pasteRow makes row to of dst a copy of row from of src (a screen of
// the same width): a list row drawn where the recording shows none.
func pasteRow(dst, src *vt.Screen, from, to int) {
	blankRow(dst, to)
	w, _ := src.Size()
	for x := 0; x < w; x++ {
		if c := src.Cell(x, from); c.Width != 0 {
			dst.SetCell(x, to, c)
		}
	}
}

// pasted draws rows from..to of list's screen onto rows at.. of a screen.
func pasted(t *testing.T, list shot, from, to, at int) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen {
		src := list.screen(t)
		for y := from; y <= to; y++ {
			pasteRow(s, src, y, at+y-from)
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
func noCompletionShots(agent, version string) []shot {
	return []shot{{agent, version, "thread-resume-id", 4, 0}, {agent, version, "thread-resume-id", 5, 0}}
}

// checkNoCompletion reads sh as an idle one-row draft with no completion
// list proven, and each case of it (one change at a time) as not proven;
// the versions in others (no list recorded, or the generic profile)
// prove nothing on sh.
func checkNoCompletion(t *testing.T, sh shot, cases []pickerCase, others ...string) {
	t.Helper()
	r := recognize(sh.screen(t), sh.agent, sh.version)
	// Codex's draft has no trailing space ("/resume " reads "/resume").
	if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || !strings.HasPrefix(r.Draft, "/resume") ||
		strings.Contains(r.Draft, "\n") || r.Completion != "" || !r.NoCompletion {
		t.Errorf("%s: %s %s %q completion %q no_completion=%v, want idle, a one-row /resume draft, no completion list proven",
			sh, r.ScreenState, r.Composer, r.Draft, r.Completion, r.NoCompletion)
	}
	for _, c := range cases {
		r := recognize(c.mut(sh.screen(t)), sh.agent, sh.version)
		if r.NoCompletion {
			t.Errorf("%s, %s: no_completion (%s, draft %q, completion %q), want unproven", sh, c.name, r.ScreenState, r.Draft, r.Completion)
		}
	}
	for _, v := range others {
		if r := recognize(sh.screen(t), sh.agent, v); r.NoCompletion {
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
		list    shot // a screen of the version drawing its list
		top     int  // its first row (the list ends at row upper-1)
		head    int  // a grey entry's first row in it
		lit     int  // the highlighted entry's first row
	}{
		{"2.1.267", shot{"claude", "2.1.267", "thread-resume-id", 1, 0}, 32, 34, 32},
		{"2.1.332", shot{"claude", "2.1.332", "thread-resume", 4, 0}, 32, 33, 32},
	} {
		for _, sh := range noCompletionShots("claude", c.version) {
			cases := []pickerCase{
				{"the whole list drawn over the rule", pasted(t, c.list, c.top, upper-1, c.top)},
				{"a description's second row over the rule", pasted(t, c.list, upper-1, upper-1, upper-1)},
				{"a grey entry over the rule", pasted(t, c.list, c.head, c.head, upper-1)},
				{"the highlighted entry over the rule", pasted(t, c.list, c.lit, c.lit, upper-1)},
				{"an entry over the effort line", pasted(t, c.list, c.head, c.head, upper-2)},
				{"the whole list right over the effort line", pasted(t, c.list, c.top, upper-1, c.top-1)},
				{"the effort line starting at the description column", func(s *vt.Screen) *vt.Screen {
					w, _ := s.Size()
					st := s.Cell(w-3, upper-1).Style
					blankRow(s, upper-1)
					writeText(s, descX, upper-1, "● high · /effort", st)
					return s
				}},
				{"the draft not a slash command", written(2, 37, "x")},
			}
			checkNoCompletion(t, sh, cases, "2.1.263", "2.1.266", "2.1.999")
			// The sibling profile proves it too: both lists end right over
			// the rule with the description at column 32, and nothing in
			// these rows tells the versions apart.
			sibling := map[string]string{"2.1.267": "2.1.332", "2.1.332": "2.1.267"}[c.version]
			if r := recognize(sh.screen(t), "claude", sibling); !r.NoCompletion {
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
	list155 := shot{"codex", "0.155.1", "thread-resume-id", 1, 0}
	for _, sh := range noCompletionShots("codex", "0.155.1") {
		const p, b = 19, 21
		checkNoCompletion(t, sh, []pickerCase{
			{"the completion row in the status line's place", pasted(t, list155, 20, 20, b)},
			{"the status line in another colour", restyled(b, fg256(114, false))},
			{"the status line shifted right", func(s *vt.Screen) *vt.Screen { shiftRight(s, b, 0); return s }},
			{"a row under the status line", written(2, b+1, "x")},
			{"the draft not a slash command", written(2, p, "x")},
		}, "0.153.4", "0.154.0", "0.171.0", "0.999.0")
	}
	list171 := shot{"codex", "0.171.0", "thread-resume-id", 1, 0}
	for _, sh := range noCompletionShots("codex", "0.171.0") {
		const p = 36
		checkNoCompletion(t, sh, []pickerCase{
			{"the completion row over the composer", pasted(t, list171, 34, 34, p-2)},
			{"the completion row higher up", pasted(t, list171, 34, 34, p-9)},
			{"one reverse cell over the composer", reversed(40, p-2)},
			{"one reverse cell on the list's farthest row", reversed(0, p-17)},
			{"the draft not a slash command", written(2, p, "x")},
		}, "0.153.4", "0.154.0", "0.155.1", "0.999.0")
	}
	// A reverse cell past the rows a list takes proves nothing either way:
	// the list is still absent.
	sh := shot{"codex", "0.171.0", "thread-resume-id", 5, 0}
	if r := recognize(reversed(0, 36-18)(sh.screen(t)), sh.agent, sh.version); !r.NoCompletion {
		t.Errorf("%s, a reverse cell 18 rows over the composer: no list proven absent, want proven", sh)
	}
}

// TestNoCompletionWithList: over a completion list (thread-new,
// thread-resume, thread-resume-id: /clear, /new and /resume typed) the
// list is read and never proven absent; an empty composer or a draft
// without "/" proves nothing.
func TestNoCompletionWithList(t *testing.T) {
	for _, c := range []struct {
		shot
		completion string
	}{
		{shot{"claude", "2.1.267", "thread-new", 1, 0}, "/clear"},
		{shot{"claude", "2.1.267", "thread-resume", 1, 0}, "/clear"},
		{shot{"claude", "2.1.267", "thread-resume", 4, 0}, "/resume"},
		{shot{"claude", "2.1.267", "thread-resume-id", 1, 0}, "/clear"},
		{shot{"claude", "2.1.332", "thread-new", 1, 0}, "/clear"},
		{shot{"claude", "2.1.332", "thread-resume", 1, 0}, "/clear"},
		{shot{"claude", "2.1.332", "thread-resume", 4, 0}, "/resume"},
		{shot{"claude", "2.1.332", "thread-resume-id", 1, 0}, "/clear"},
		{shot{"codex", "0.155.1", "thread-new", 1, 0}, "/new"},
		{shot{"codex", "0.155.1", "thread-resume", 1, 0}, "/new"},
		{shot{"codex", "0.155.1", "thread-resume", 4, 0}, "/resume"},
		{shot{"codex", "0.155.1", "thread-resume-id", 1, 0}, "/new"},
		{shot{"codex", "0.171.0", "thread-new", 1, 0}, "/new"},
		{shot{"codex", "0.171.0", "thread-resume", 1, 0}, "/new"},
		{shot{"codex", "0.171.0", "thread-resume", 4, 0}, "/resume"},
		{shot{"codex", "0.171.0", "thread-resume-id", 1, 0}, "/new"},
		{shot{"claude", "2.1.267", "thread-resume-id", 0, 0}, ""}, // empty composer
		{shot{"claude", "2.1.267", "draft", 0, 0}, ""},            // "a draft that is not sent"
		{shot{"codex", "0.171.0", "thread-resume-id", 0, 0}, ""},
		{shot{"codex", "0.155.1", "clear-draft", 0, 0}, ""},
	} {
		r := recognize(c.screen(t), c.agent, c.version)
		if r.Completion != c.completion || r.NoCompletion {
			t.Errorf("%s: completion %q no_completion=%v, want completion %q and no list proven absent", c.shot, r.Completion, r.NoCompletion, c.completion)
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
		sh := shot{"claude", v, "thread-resume-id", 4, 0}
		if r := recognize(sh.screen(t), "claude", v); r.Draft != "/resume " || r.DraftLen != 8 {
			t.Errorf("%s: draft %q (%d), want %q", sh, r.Draft, r.DraftLen, "/resume ")
		}
		last := len("[conversation id or search term]")
		if v == "2.1.332" {
			last = len("[session ID or search term]")
		}
		last += cursor
		for _, c := range []pickerCase{
			{"the hint in another colour", func(s *vt.Screen) *vt.Screen {
				restyleCols(s, y, cursor+1, last+1, fg256(245, false))
				return s
			}},
			{"the cursor not drawn", func(s *vt.Screen) *vt.Screen { restyleCols(s, y, cursor, cursor+1, vt.Style{}); return s }},
			{"no bracket closing the hint", written(last, y, ".")},
			{"no bracket opening the hint", written(cursor+1, y, "(")},
			{"no space before the cursor", written(cursor-1, y, "x")},
			{"another word typed before the cursor", written(3, y, " ")},
			{"the hint on a draft of two rows", func(s *vt.Screen) *vt.Screen {
				// The frame grows a row upwards: its upper rule over the
				// effort line, the hint's row, a second row under it.
				copyRow(s, y-1, y-2)
				copyRow(s, y, y-1)
				blankRow(s, y)
				writeText(s, 2, y, "more", vt.Style{})
				return s
			}},
		} {
			if r := recognize(c.mut(sh.screen(t)), "claude", v); r.Draft == "/resume " {
				t.Errorf("%s, %s: draft %q, want the row as drawn", sh, c.name, r.Draft)
			}
		}
	}
}
