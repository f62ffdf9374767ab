package recognizers_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// pickerCase changes one part of a recorded session picker (nil: none).
type pickerCase struct {
	name string
	mut  func(s *vt.Screen) *vt.Screen
}

func blanked(y int) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { blankRow(s, y); return s }
}

func written(x, y int, text string) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { setText(s, x, y, text); return s }
}

func restyled(y int, st vt.Style) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { restyle(s, y, y, st); return s }
}

// checkPicker reads the recorded picker as menu_or_viewer with nothing
// to act on, and each case of it as unknown.
func checkPicker(t *testing.T, sh shot, cases []pickerCase, others ...string) {
	t.Helper()
	r := recognize(sh.screen(t), sh.agent, sh.version)
	if r.ScreenState != contract.ScreenMenuOrViewer || r.Composer != contract.ComposerAbsent || r.Prompt != nil || r.Interaction != nil || r.Plan != nil {
		t.Errorf("%s: %s composer %s prompt %v interaction %v plan %v, want menu_or_viewer, absent, nothing to act on",
			sh, r.ScreenState, r.Composer, r.Prompt, r.Interaction, r.Plan)
	}
	for _, c := range cases {
		r := recognize(c.mut(sh.screen(t)), sh.agent, sh.version)
		if r.ScreenState != contract.ScreenUnknown || r.Interaction != nil || r.Plan != nil {
			t.Errorf("%s, %s: %s %v, want unknown", sh, c.name, r.ScreenState, reasonCodes(r))
		}
	}
	// Another version's picker is not this version's.
	for _, v := range others {
		if r := recognize(sh.screen(t), sh.agent, v); r.ScreenState != contract.ScreenUnknown {
			t.Errorf("%s read by %s: %s, want unknown", sh, v, r.ScreenState)
		}
	}
}

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
			cases := []pickerCase{
				{"title blank", blanked(0)},
				{"title unstyled", restyled(0, vt.Style{})},
				{"rule blank", blanked(36)},
				{"rule without its position", written(119, 36, "x")},
				{"first hints row blank", blanked(37)},
				{"second hints row blank", blanked(38)},
				{"hint changed", written(1, 37, "E")},
				{"current glyph gone", written(2, cur, " ")},
				{"two current rows", written(2, other, v.glyph)},
				{"a row at column 0 in the list", written(0, v.first+3, "x")},
				{"a row under the hints", written(1, 39, "x")},
				{"moved down a row", func(s *vt.Screen) *vt.Screen { w, h := s.Size(); return copyScreen(s, -1, w, h) }},
			}
			for _, y := range v.header {
				cases = append(cases, pickerCase{"header row blank", blanked(y)}, pickerCase{"header row changed", written(1, y, "x")})
			}
			checkPicker(t, shot{"codex", v.version, "thread-resume", 5 + k, 0}, cases, v.other)
		}
	}
}

// checkPickerRows reads the recorded picker's rows as want, and each case
// of it (one change at a time) as no picker, whatever its state.
func checkPickerRows(t *testing.T, sh shot, want *recognizers.Picker, cases []pickerCase, others ...string) {
	t.Helper()
	r := recognize(sh.screen(t), sh.agent, sh.version)
	if !reflect.DeepEqual(r.Picker, want) {
		t.Errorf("%s: picker %+v, want %+v", sh, r.Picker, want)
	}
	for _, c := range cases {
		if r := recognize(c.mut(sh.screen(t)), sh.agent, sh.version); r.Picker != nil {
			t.Errorf("%s, %s: picker %+v (%s), want none", sh, c.name, r.Picker, r.ScreenState)
		}
	}
	for _, v := range others {
		if r := recognize(sh.screen(t), sh.agent, v); r.Picker != nil {
			t.Errorf("%s read by %s: picker %+v, want none", sh, v, r.Picker)
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
			sh := shot{"codex", v.version, "thread-resume", 5 + k, 0}
			want := &recognizers.Picker{Rows: []recognizers.PickerRow{
				{Title: "second-thread please", Detail: "2s ago"},
				{Title: "first-thread please", Detail: "5s ago"},
			}, Current: k, Shown: 2, Total: 2}
			rule := func(s *vt.Screen) int { return column(s, 36, fmt.Sprintf(" %d / 2 ", k+1)) + 1 }
			cases := []pickerCase{
				{"the current row unstyled", restyled(cur, vt.Style{})},
				{"the other row's title in the current row's style", func(s *vt.Screen) *vt.Screen {
					restyleCols(s, other, 16, 36, v.current)
					return s
				}},
				{"two current rows", written(2, other, v.glyph)},
				{"the rule naming the other row", func(s *vt.Screen) *vt.Screen {
					setText(s, rule(s), 36, fmt.Sprint(2-k))
					return s
				}},
				{"the rule's total below the rows", func(s *vt.Screen) *vt.Screen {
					setText(s, rule(s)+4, 36, "1")
					return s
				}},
				{"an age unlike the recorded", written(4, other, "x")},
				{"a title off its column", written(16, other, " ")},
				{"a blank row in the list", func(s *vt.Screen) *vt.Screen {
					last := v.first + 1
					copyRow(s, last, last+1)
					blankRow(s, last)
					return s
				}},
			}
			checkPickerRows(t, sh, want, cases, v.other, "0.999.0")

			// A title cut with "…" is marked.
			s := sh.screen(t)
			end := 16 + len(want.Rows[1-k].Title)
			writeText(s, end, other, "…", s.Cell(end-1, other).Style)
			r := recognize(s, "codex", v.version)
			if r.Picker == nil || !r.Picker.Rows[1-k].Truncated || r.Picker.Rows[k].Truncated || !strings.HasSuffix(r.Picker.Rows[1-k].Title, "please…") {
				t.Errorf("%s, a title cut: picker %+v, want row %d truncated", sh, r.Picker, 1-k)
			}
		}
	}
}
