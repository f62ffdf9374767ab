package screen_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
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
		cases := []screentest.Change{
			{Name: "rule blank", Mut: screentest.Blanked(v.rule)},
			{Name: "rule broken", Mut: screentest.Written(60, v.rule, "x")},
			{Name: "title blank", Mut: screentest.Blanked(title)},
			{Name: "title unstyled", Mut: screentest.Restyled(title, vt.Style{})},
			{Name: "title changed", Mut: screentest.Written(v.x, title, "r")},
			{Name: "box top blank", Mut: screentest.Blanked(box)},
			{Name: "search row blank", Mut: screentest.Blanked(box + 1)},
			{Name: "box bottom blank", Mut: screentest.Blanked(box + 2)},
			{Name: "box narrowed", Mut: screentest.Written(119-v.x, box+1, " ")},
			{Name: "current glyph gone", Mut: screentest.Written(v.x, v.cur, " ")},
			{Name: "current glyph unstyled", Mut: func(s *vt.Screen) *vt.Screen {
				c := s.Cell(v.x, v.cur)
				c.Style = vt.Style{}
				s.SetCell(v.x, v.cur, c)
				return s
			}},
			{Name: "two current rows", Mut: screentest.Written(v.x, v.cur+1, "❯")},
			{Name: "a row left of the list", Mut: screentest.Written(0, v.cur-1, "x")},
			{Name: "first hints row blank", Mut: screentest.Blanked(v.hint)},
			{Name: "second hints row blank", Mut: screentest.Blanked(v.hint + 1)},
			{Name: "hint changed", Mut: screentest.Written(v.x+3, v.hint, "x")},
		}
		if v.hint+2 < 40 { // 2.1.332's hints end on the pane's last row
			cases = append(cases, screentest.Change{Name: "a row under the hints", Mut: screentest.Written(v.x, v.hint+2, "x")})
		}
		screentest.CheckPicker(t, screentest.Shot{Agent: "claude", Version: v.version, Surface: "thread-resume", Marker: 5}, cases, v.other)
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
		sh := screentest.Shot{Agent: "claude", Version: v.version, Surface: "thread-resume", Marker: 5}
		want := &recognizers.Picker{Rows: []recognizers.PickerRow{v.want}, Shown: 1, Total: 1}
		cases := []screentest.Change{
			{Name: "the title unstyled", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, cur, v.x+2, 60, vt.Style{}); return s }},
			{Name: "the title in the detail's grey", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, cur, v.x+2, 60, screentest.Fg256(246, false))
				return s
			}},
			{Name: "the detail unstyled", Mut: screentest.Restyled(det, vt.Style{})},
			{Name: "the detail without its age", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.SetText(s, screentest.Column(s, det, "ago"), det, "x")
				return s
			}},
			{Name: "the detail under the title's column", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, det, 0); return s }},
			{Name: "the title off its column", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, cur, v.x+2); return s }},
			{Name: "the project's row gone", Mut: screentest.Blanked(v.top)},
			{Name: "a session that is not current", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.WriteText(s, v.x+2, v.top+1, "Other session", vt.Style{})
				return s
			}},
			{Name: "another session under the current", Mut: func(s *vt.Screen) *vt.Screen {
				s = screentest.InsertRow(s, det) // the list moves up a row
				screentest.WriteText(s, v.x+2, det, "Other session", vt.Style{})
				return s
			}},
		}
		screentest.CheckPickerRows(t, sh, want, cases, v.other, "2.1.999")

		// A title cut with "…" is marked.
		s := sh.Screen(t)
		screentest.WriteText(s, v.x+2+len(v.want.Title), cur, "…", screentest.Fg256(153, false))
		r := screentest.Recognize(s, "claude", v.version)
		if r.Picker == nil || !r.Picker.Rows[0].Truncated || r.Picker.Rows[0].Title != v.want.Title+"…" {
			t.Errorf("%s, a title cut: picker %+v, want its row truncated", sh, r.Picker)
		}
	}
}
