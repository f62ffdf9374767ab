package screen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// TestCodexResumePicker: Codex's session picker (thread-resume, before
// and after Down) reads as menu_or_viewer only whole, as recorded.
func TestCodexResumePicker(t *testing.T) {
	for _, v := range []struct {
		version, other string
		header         []int // the rows under the title
		first          int   // the first session row
		glyph          string
	}{
		{"0.155.1", "0.171.0", []int{2}, 4, "❯"},
		{"0.171.0", "0.155.1", []int{2, 4}, 6, "›"},
	} {
		for k, cur := range []int{v.first, v.first + 1} {
			other := v.first + 1 - k
			cases := []screentest.Change{
				{Name: "title blank", Mut: screentest.Blanked(0)},
				{Name: "title unstyled", Mut: screentest.Restyled(0, vt.Style{})},
				{Name: "rule blank", Mut: screentest.Blanked(36)},
				{Name: "rule without its position", Mut: screentest.Written(119, 36, "x")},
				{Name: "first hints row blank", Mut: screentest.Blanked(37)},
				{Name: "second hints row blank", Mut: screentest.Blanked(38)},
				{Name: "hint changed", Mut: screentest.Written(1, 37, "E")},
				{Name: "current glyph gone", Mut: screentest.Written(2, cur, " ")},
				{Name: "two current rows", Mut: screentest.Written(2, other, v.glyph)},
				{Name: "a row at column 0 in the list", Mut: screentest.Written(0, v.first+3, "x")},
				{Name: "a row under the hints", Mut: screentest.Written(1, 39, "x")},
				{Name: "moved down a row", Mut: func(s *vt.Screen) *vt.Screen { w, h := s.Size(); return screentest.CopyScreen(s, -1, w, h) }},
			}
			for _, y := range v.header {
				cases = append(cases, screentest.Change{Name: "header row blank", Mut: screentest.Blanked(y)}, screentest.Change{Name: "header row changed", Mut: screentest.Written(1, y, "x")})
			}
			screentest.CheckPicker(t, screentest.Shot{Agent: "codex", Version: v.version, Surface: "thread-resume", Marker: 5 + k}, cases, v.other)
		}
	}
}

// TestCodexPickerRows: the session picker's rows (thread-resume, before
// and after Down) are read only in their recorded shape: each row's age
// at column 4 and title at column 16 in the current or the other row's
// styles, one under the other, exactly one current and the rule's "N / M"
// naming it; changing one thing gives no rows. A title ending in "…" is
// marked truncated.
func TestCodexPickerRows(t *testing.T) {
	for _, v := range []struct {
		version, other string
		first          int // the first session row
		glyph          string
		current        vt.Style // the current row's title style
	}{
		{"0.155.1", "0.171.0", 4, "❯", vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(3)), Ext: vt.FgIndexed}},
		{"0.171.0", "0.155.1", 6, "›", vt.Style{Style: tcell.StyleDefault.Bold(true).Reverse(true)}},
	} {
		for k, cur := range []int{v.first, v.first + 1} {
			other := v.first + 1 - k
			sh := screentest.Shot{Agent: "codex", Version: v.version, Surface: "thread-resume", Marker: 5 + k}
			want := &recognizers.Picker{Rows: []recognizers.PickerRow{
				{Title: "second-thread please", Detail: "2s ago"},
				{Title: "first-thread please", Detail: "5s ago"},
			}, Current: k, Shown: 2, Total: 2}
			rule := func(s *vt.Screen) int { return screentest.Column(s, 36, fmt.Sprintf(" %d / 2 ", k+1)) + 1 }
			cases := []screentest.Change{
				{Name: "the current row unstyled", Mut: screentest.Restyled(cur, vt.Style{})},
				{Name: "the other row's title in the current row's style", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.RestyleCols(s, other, 16, 36, v.current)
					return s
				}},
				{Name: "two current rows", Mut: screentest.Written(2, other, v.glyph)},
				{Name: "the rule naming the other row", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.SetText(s, rule(s), 36, fmt.Sprint(2-k))
					return s
				}},
				{Name: "the rule's total below the rows", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.SetText(s, rule(s)+4, 36, "1")
					return s
				}},
				{Name: "an age unlike the recorded", Mut: screentest.Written(4, other, "x")},
				{Name: "a title off its column", Mut: screentest.Written(16, other, " ")},
				{Name: "a blank row in the list", Mut: func(s *vt.Screen) *vt.Screen {
					last := v.first + 1
					screentest.CopyRow(s, last, last+1)
					screentest.BlankRow(s, last)
					return s
				}},
			}
			screentest.CheckPickerRows(t, sh, want, cases, v.other, "0.999.0")

			// A title cut with "…" is marked.
			s := sh.Screen(t)
			end := 16 + len(want.Rows[1-k].Title)
			screentest.WriteText(s, end, other, "…", s.Cell(end-1, other).Style)
			r := screentest.Recognize(s, "codex", v.version)
			if r.Picker == nil || !r.Picker.Rows[1-k].Truncated || r.Picker.Rows[k].Truncated || !strings.HasSuffix(r.Picker.Rows[1-k].Title, "please…") {
				t.Errorf("%s, a title cut: picker %+v, want row %d truncated", sh, r.Picker, 1-k)
			}
		}
	}
}
