package recognizers_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
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
	if r.ScreenState != recognizers.MenuOrViewer || r.Composer != recognizers.ComposerAbsent || r.Prompt != nil || r.Interaction != nil || r.Plan != nil {
		t.Errorf("%s: %s composer %s prompt %v interaction %v plan %v, want menu_or_viewer, absent, nothing to act on",
			sh, r.ScreenState, r.Composer, r.Prompt, r.Interaction, r.Plan)
	}
	for _, c := range cases {
		r := recognize(c.mut(sh.screen(t)), sh.agent, sh.version)
		if r.ScreenState != recognizers.Unknown || r.Interaction != nil || r.Plan != nil {
			t.Errorf("%s, %s: %s %v, want unknown", sh, c.name, r.ScreenState, reasonCodes(r))
		}
	}
	// Another version's picker is not this version's.
	for _, v := range others {
		if r := recognize(sh.screen(t), sh.agent, v); r.ScreenState != recognizers.Unknown {
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
