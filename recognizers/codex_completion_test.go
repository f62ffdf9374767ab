package recognizers_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/contract"
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
		shot
		other      string
		first, top int // the list's first row, the composer row
	}{
		{shot{"codex", "0.155.1", "status", 0, 0}, "0.171.0", 12, 10},
		{shot{"codex", "0.155.1", "status-ambiguous", 4, 0}, "0.171.0", 21, 19},
		{shot{"codex", "0.171.0", "status", 0, 0}, "0.155.1", 33, 36},
		{shot{"codex", "0.171.0", "status-ambiguous", 4, 0}, "0.155.1", 33, 36},
	} {
		second := c.first + 1
		// The recorded Down screen: /statusline highlighted under "/status".
		down := shot{"codex", c.version, "status-completion", 1, 0}
		cases := []pickerCase{
			{"the second row highlighted (recorded, after Down)", func(*vt.Screen) *vt.Screen { return down.screen(t) }},
			{"both rows highlighted", func(s *vt.Screen) *vt.Screen { pasteRow(s, down.screen(t), second, second); return s }},
			{"no row highlighted", func(s *vt.Screen) *vt.Screen {
				pasteRow(s, down.screen(t), c.first, c.first)
				return s
			}},
			{"a third row", func(s *vt.Screen) *vt.Screen {
				if c.version == "0.155.1" {
					copyRow(s, second, second+1)
				} else {
					copyRow(s, second, c.first-1)
				}
				return s
			}},
			{"a third row, another command", func(s *vt.Screen) *vt.Screen {
				y := c.first - 1
				if c.version == "0.155.1" {
					y = second + 1
				}
				copyRow(s, second, y)
				setText(s, 12, y, "x")
				return s
			}},
			{"one row only", blanked(second)},
			{"the first row shifted right", func(s *vt.Screen) *vt.Screen { shiftRight(s, c.first, 0); return s }},
			{"the second row shifted right", func(s *vt.Screen) *vt.Screen { shiftRight(s, second, 0); return s }},
			{"the first description moved", func(s *vt.Screen) *vt.Screen { shiftRight(s, c.first, descX); return s }},
			{"the second description moved", func(s *vt.Screen) *vt.Screen { shiftRight(s, second, descX); return s }},
			{"both descriptions moved", func(s *vt.Screen) *vt.Screen {
				shiftRight(s, c.first, descX)
				shiftRight(s, second, descX)
				return s
			}},
			{"the second row's name not bold", func(s *vt.Screen) *vt.Screen { restyleCols(s, second, 3, 9, plainSt); return s }},
			{"the second row's bold run longer", func(s *vt.Screen) *vt.Screen {
				restyleCols(s, second, 9, 10, vt.Style{Style: tcell.StyleDefault.Bold(true)})
				return s
			}},
			{"the second description not dim", func(s *vt.Screen) *vt.Screen { restyleCols(s, second, descX, 120, plainSt); return s }},
			{"the second command not the draft's", written(4, second, "x")},
			{"the first command another", written(4, c.first, "x")},
			{"another command typed", written(3, c.top, "k")},
			{"the first row unstyled", restyled(c.first, plainSt)},
		}
		if c.version == "0.171.0" {
			cases = append(cases,
				pickerCase{"the description in the command's weight", func(s *vt.Screen) *vt.Screen {
					restyleCols(s, c.first, descX, 120, boldRev)
					return s
				}},
				pickerCase{"no blank row over the list", written(2, c.first-1, "x")},
				pickerCase{"a row between it and the composer", written(2, c.top-1, "x")},
			)
		} else {
			cases = append(cases, pickerCase{"no blank row over the list", written(2, c.first-1, "x")})
		}
		checkCompletion(t, c.shot, "/status", cases, c.other, "0.999.0")
		if r := recognize(c.screen(t), c.agent, c.version); r.NoCompletion || r.Region.Top != c.top {
			t.Errorf("%s: no completion %v, composer row %d, want a list and row %d", c.shot, r.NoCompletion, r.Region.Top, c.top)
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
			sh := shot{"codex", v, "status-completion", c.marker, 0}
			r := recognize(sh.screen(t), "codex", v)
			if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != c.draft || r.Completion != "" || r.NoCompletion {
				t.Errorf("%s: %s %s %q completion %q no completion %v, want idle, draft %q, no completion proven either way",
					sh, r.ScreenState, r.Composer, r.Draft, r.Completion, r.NoCompletion, c.draft)
			}
		}
	}
}
