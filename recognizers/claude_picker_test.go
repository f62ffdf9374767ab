package recognizers_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/vt"
)

// TestClaudeResumePicker: Claude Code's session picker (thread-resume)
// reads as menu_or_viewer only whole, as recorded.
func TestClaudeResumePicker(t *testing.T) {
	for _, v := range []struct {
		version, other     string
		rule, x, cur, hint int // rows of the rule, the current session, the first hints row; the title's column
	}{
		{"2.1.267", "2.1.332", 20, 3, 27, 30},
		{"2.1.332", "2.1.267", 28, 2, 35, 38},
	} {
		title, box := v.rule+1, v.rule+2
		cases := []pickerCase{
			{"rule blank", blanked(v.rule)},
			{"rule broken", written(60, v.rule, "x")},
			{"title blank", blanked(title)},
			{"title unstyled", restyled(title, vt.Style{})},
			{"title changed", written(v.x, title, "r")},
			{"box top blank", blanked(box)},
			{"search row blank", blanked(box + 1)},
			{"box bottom blank", blanked(box + 2)},
			{"box narrowed", written(119-v.x, box+1, " ")},
			{"current glyph gone", written(v.x, v.cur, " ")},
			{"current glyph unstyled", func(s *vt.Screen) *vt.Screen {
				c := s.Cell(v.x, v.cur)
				c.Style = vt.Style{}
				s.SetCell(v.x, v.cur, c)
				return s
			}},
			{"two current rows", written(v.x, v.cur+1, "❯")},
			{"a row left of the list", written(0, v.cur-1, "x")},
			{"first hints row blank", blanked(v.hint)},
			{"second hints row blank", blanked(v.hint + 1)},
			{"hint changed", written(v.x+3, v.hint, "x")},
		}
		if v.hint+2 < 40 { // 2.1.332's hints end on the pane's last row
			cases = append(cases, pickerCase{"a row under the hints", written(v.x, v.hint+2, "x")})
		}
		checkPicker(t, shot{"claude", v.version, "thread-resume", 5, 0}, cases, v.other)
	}
}
