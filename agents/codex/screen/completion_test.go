package screen_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// TestCodexCompletionTwoRows: the two-row completion list /status draws
// (status, status-ambiguous: "/status" typed shows /status highlighted
// over /statusline; status-completion: "/statu", then "/status" and Down,
// /statusline highlighted) names "/status" only with its first row
// highlighted and naming the draft, in the recorded shape: 0.155.1's
// under the composer where the status line was (the highlighted row
// bold cyan), 0.171.0's over it (bold reverse with "› "), the other row
// "/" plain, the typed name bold, the description dim, both descriptions
// at column 15. 0.155.1's composer over it reads idle with the draft.
// Changing one thing gives no completion.
func TestCodexCompletionTwoRows(t *testing.T) {
	const descX = 15 // two after "/statusline"
	plainSt := vt.Style{}
	boldRev := vt.Style{Style: tcell.StyleDefault.Bold(true).Reverse(true)}
	for _, c := range []struct {
		screentest.Shot
		other      string
		first, top int // the list's first row, the composer row
	}{
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "status", Marker: 0}, "0.171.0", 12, 10},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "status-ambiguous", Marker: 4}, "0.171.0", 21, 19},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "status", Marker: 0}, "0.155.1", 33, 36},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "status-ambiguous", Marker: 4}, "0.155.1", 33, 36},
	} {
		second := c.first + 1
		// The recorded Down screen: /statusline highlighted under "/status".
		down := screentest.Shot{Agent: "codex", Version: c.Version, Surface: "status-completion", Marker: 1}
		cases := []screentest.Change{
			{Name: "the second row highlighted (recorded, after Down)", Mut: func(*vt.Screen) *vt.Screen { return down.Screen(t) }},
			{Name: "both rows highlighted", Mut: func(s *vt.Screen) *vt.Screen { screentest.PasteRow(s, down.Screen(t), second, second); return s }},
			{Name: "no row highlighted", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.PasteRow(s, down.Screen(t), c.first, c.first)
				return s
			}},
			{Name: "a third row", Mut: func(s *vt.Screen) *vt.Screen {
				if c.Version == "0.155.1" {
					screentest.CopyRow(s, second, second+1)
				} else {
					screentest.CopyRow(s, second, c.first-1)
				}
				return s
			}},
			{Name: "a third row, another command", Mut: func(s *vt.Screen) *vt.Screen {
				y := c.first - 1
				if c.Version == "0.155.1" {
					y = second + 1
				}
				screentest.CopyRow(s, second, y)
				screentest.SetText(s, 12, y, "x")
				return s
			}},
			{Name: "one row only", Mut: screentest.Blanked(second)},
			{Name: "the first row shifted right", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, c.first, 0); return s }},
			{Name: "the second row shifted right", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, second, 0); return s }},
			{Name: "the first description moved", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, c.first, descX); return s }},
			{Name: "the second description moved", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, second, descX); return s }},
			{Name: "both descriptions moved", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.ShiftRight(s, c.first, descX)
				screentest.ShiftRight(s, second, descX)
				return s
			}},
			{Name: "the second row's name not bold", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, second, 3, 9, plainSt); return s }},
			{Name: "the second row's bold run longer", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, second, 9, 10, vt.Style{Style: tcell.StyleDefault.Bold(true)})
				return s
			}},
			{Name: "the second description not dim", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, second, descX, 120, plainSt); return s }},
			{Name: "the second command not the draft's", Mut: screentest.Written(4, second, "x")},
			{Name: "the first command another", Mut: screentest.Written(4, c.first, "x")},
			{Name: "another command typed", Mut: screentest.Written(3, c.top, "k")},
			{Name: "the first row unstyled", Mut: screentest.Restyled(c.first, plainSt)},
		}
		if c.Version == "0.171.0" {
			cases = append(cases,
				screentest.Change{Name: "the description in the command's weight", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.RestyleCols(s, c.first, descX, 120, boldRev)
					return s
				}},
				screentest.Change{Name: "no blank row over the list", Mut: screentest.Written(2, c.first-1, "x")},
				screentest.Change{Name: "a row between it and the composer", Mut: screentest.Written(2, c.top-1, "x")},
			)
		} else {
			cases = append(cases, screentest.Change{Name: "no blank row over the list", Mut: screentest.Written(2, c.first-1, "x")})
		}
		screentest.CheckCompletion(t, c.Shot, "/status", cases, c.other, "0.999.0")
		if r := screentest.Recognize(c.Screen(t), c.Agent, c.Version); r.NoCompletion || r.Region.Top != c.top {
			t.Errorf("%s: no completion %v, composer row %d, want a list and row %d", c.Shot, r.NoCompletion, r.Region.Top, c.top)
		}
	}
	// status-completion: "/statu" over the list (/status highlighted, not
	// the draft), then "/status" with /statusline highlighted after Down:
	// idle with the draft (0.155.1 as 0.171.0), no completion, never
	// "/status".
	for _, v := range []string{"0.155.1", "0.171.0"} {
		for _, c := range []struct {
			marker int
			draft  string
		}{{0, "/statu"}, {1, "/status"}} {
			sh := screentest.Shot{Agent: "codex", Version: v, Surface: "status-completion", Marker: c.marker}
			r := screentest.Recognize(sh.Screen(t), "codex", v)
			if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != c.draft || r.Completion != "" || r.NoCompletion {
				t.Errorf("%s: %s %s %q completion %q no completion %v, want idle, draft %q, no completion proven either way",
					sh, r.ScreenState, r.Composer, r.Draft, r.Completion, r.NoCompletion, c.draft)
			}
		}
	}
}
