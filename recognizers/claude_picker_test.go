package recognizers_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
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

// TestClaudePickerRows: the session picker's list (thread-resume) is
// read only in the one shape recorded: the project's row, a blank row,
// the current session's title in the highlight colour over its grey
// detail row. No recording shows a session that is not current, so any
// other row, or a change to these, gives no rows. A title ending in "…"
// is marked truncated.
func TestClaudePickerRows(t *testing.T) {
	for _, v := range []struct {
		version, other string
		x, top         int // the title's column; the project's row
		want           recognizers.PickerRow
	}{
		{"2.1.267", "2.1.332", 3, 25, recognizers.PickerRow{Title: "Fake session", Detail: "5 seconds ago · HEAD · 12.7KB"}},
		{"2.1.332", "2.1.267", 2, 33, recognizers.PickerRow{Title: "first-thread please", Detail: "3 seconds ago · HEAD · 154.4KB"}},
	} {
		cur, det := v.top+2, v.top+3
		sh := shot{"claude", v.version, "thread-resume", 5, 0}
		want := &recognizers.Picker{Rows: []recognizers.PickerRow{v.want}, Shown: 1, Total: 1}
		cases := []pickerCase{
			{"the title unstyled", func(s *vt.Screen) *vt.Screen { restyleCols(s, cur, v.x+2, 60, vt.Style{}); return s }},
			{"the title in the detail's grey", func(s *vt.Screen) *vt.Screen { restyleCols(s, cur, v.x+2, 60, fg256(246, false)); return s }},
			{"the detail unstyled", restyled(det, vt.Style{})},
			{"the detail without its age", func(s *vt.Screen) *vt.Screen {
				setText(s, column(s, det, "ago"), det, "x")
				return s
			}},
			{"the detail under the title's column", func(s *vt.Screen) *vt.Screen { shiftRight(s, det, 0); return s }},
			{"the title off its column", func(s *vt.Screen) *vt.Screen { shiftRight(s, cur, v.x+2); return s }},
			{"the project's row gone", blanked(v.top)},
			{"a session that is not current", func(s *vt.Screen) *vt.Screen {
				writeText(s, v.x+2, v.top+1, "Other session", vt.Style{})
				return s
			}},
			{"another session under the current", func(s *vt.Screen) *vt.Screen {
				s = insertRow(s, det) // the list moves up a row
				writeText(s, v.x+2, det, "Other session", vt.Style{})
				return s
			}},
		}
		checkPickerRows(t, sh, want, cases, v.other, "2.1.999")

		// A title cut with "…" is marked.
		s := sh.screen(t)
		writeText(s, v.x+2+len(v.want.Title), cur, "…", fg256(153, false))
		r := recognize(s, "claude", v.version)
		if r.Picker == nil || !r.Picker.Rows[0].Truncated || r.Picker.Rows[0].Title != v.want.Title+"…" {
			t.Errorf("%s, a title cut: picker %+v, want its row truncated", sh, r.Picker)
		}
	}
}
