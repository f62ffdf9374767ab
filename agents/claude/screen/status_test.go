package screen_test

import (
	"reflect"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

func redacted(name string) recognizers.StatusField {
	return recognizers.StatusField{Name: name, Redacted: true}
}

// The Status tab's recorded rows. Ids, paths and ports are the
// recordings'.
var (
	claude267Status = []recognizers.StatusField{
		screentest.Carried("Version", "2.1.267"),
		screentest.Carried("Session name", "Fake session"),
		screentest.Carried("Session ID", "4adcf414-6e3e-4177-9e07-76c363eafa59"),
		screentest.Carried("Session kind", "interactive"),
		screentest.Carried("Peer address", "uds:/tmp/akk-rig-821545207/tmp/cc-socks/5927.sock"),
		screentest.Carried("cwd", "/tmp/akk-rig-821545207/home/project"),
		screentest.Carried("Auth token", "none"),
		screentest.Carried("API key", "ANTHROPIC_API_KEY"),
		screentest.Carried("Anthropic base URL", "http://127.0.0.1:44591"),
		screentest.Carried("Model", "Default (claude-opus-5[1m])"),
		screentest.Carried("Setting sources", "User settings"),
		screentest.Carried("Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"),
		redacted("Organization policy"),
	}
	claude267PolicyError = []recognizers.StatusField{
		screentest.Carried("Version", "2.1.267"),
		screentest.Carried("Session name", "/rename to add a name"),
		screentest.Carried("Session ID", "a2dffe88-1e73-4c54-9ef1-7bf8a990b113"),
		screentest.Carried("Session kind", "interactive"),
		screentest.Carried("Peer address", "uds:/tmp/akk-rig-1503276501/tmp/cc-socks/6421.sock"),
		screentest.Carried("cwd", "/tmp/akk-rig-1503276501/home/project"),
		screentest.Carried("Auth token", "none"),
		screentest.Carried("API key", "ANTHROPIC_API_KEY"),
		screentest.Carried("Anthropic base URL", "http://127.0.0.1:39407"),
		screentest.Carried("Proxy", "http://127.0.0.1:39407"),
		screentest.Carried("Model", "Default (claude-opus-5[1m])"),
		screentest.Carried("Setting sources", "User settings"),
		redacted("Organization policy"),
	}
	claude332Status = []recognizers.StatusField{
		screentest.Carried("Version", "2.1.332"),
		screentest.Carried("Session name", "/rename to add a name"),
		screentest.Carried("Session ID", "3d466131-cec9-4d60-8686-7883568b1afe"),
		screentest.Carried("Session kind", "interactive"),
		screentest.Carried("Peer address", "uds:/tmp/akk-rig-1233021494/tmp/cc-socks/6880.sock"),
		screentest.Carried("cwd", "/tmp/akk-rig-1233021494/home/project"),
		screentest.Carried("Auth token", "none"),
		screentest.Carried("API key", "ANTHROPIC_API_KEY"),
		screentest.Carried("Anthropic base URL", "http://127.0.0.1:33207"),
		screentest.Carried("Model", "Default (claude-opus-5-5)"),
		screentest.Carried("Setting sources", "User settings"),
		screentest.Carried("Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"),
		redacted("Organization policy"),
		screentest.Carried("Auto mode server", "Disabled"),
		redacted("Features"),
	}
	claude332PolicyError = []recognizers.StatusField{
		screentest.Carried("Version", "2.1.332"),
		screentest.Carried("Session name", "/rename to add a name"),
		screentest.Carried("Session ID", "f5cc7dd2-ab64-479e-bafe-6f0bdfa9f7f6"),
		screentest.Carried("Session kind", "interactive"),
		screentest.Carried("Peer address", "uds:/tmp/akk-rig-2516369334/tmp/cc-socks/7006.sock"),
		screentest.Carried("cwd", "/tmp/akk-rig-2516369334/home/project"),
		screentest.Carried("Auth token", "none"),
		screentest.Carried("API key", "ANTHROPIC_API_KEY"),
		screentest.Carried("Anthropic base URL", "http://127.0.0.1:41835"),
		screentest.Carried("Proxy", "http://127.0.0.1:41835"),
		screentest.Carried("Model", "Default (claude-opus-5-5)"),
		screentest.Carried("Setting sources", "User settings"),
		screentest.Carried("Managed settings (remote)", "fetch failed — no policy applied (unexpected error)"),
		redacted("Organization policy"),
		screentest.Carried("Auto mode server", "Disabled"),
		redacted("Features"),
	}
)

// TestClaudeStatus: Claude Code's Status tab (status, marker 2) reads as
// menu_or_viewer with its rows parsed only whole, in the recorded shape;
// each change below gives no status.
func TestClaudeStatus(t *testing.T) {
	for _, v := range []struct {
		version, other string
		want           []recognizers.StatusField
		x, vx          int // the names' and values' columns
		rule, hint     int // rows of the rule and the hint
		hintText       string
		sid, model     int // rows of Session ID and Model
	}{
		{"2.1.267", "2.1.332", claude267Status, 3, 31, 2, 20, "Esc to cancel", 7, 15},
		{"2.1.332", "2.1.267", claude332Status, 2, 30, 2, 24, "←/→ to switch · Esc to close", 7, 15},
	} {
		tabs, x := v.rule+1, v.x
		grey := screentest.Fg256(246, false)
		cases := []screentest.Change{
			{Name: "another tab selected", Mut: func(s *vt.Screen) *vt.Screen {
				sel := s.Cell(x+9, tabs).Style
				screentest.RestyleCols(s, tabs, x+9, x+17, vt.Style{})
				screentest.RestyleCols(s, tabs, x+18, x+26, sel) // " Config "
				return s
			}},
			{Name: "the Status tab unselected", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, tabs, x+9, x+17, vt.Style{}); return s }},
			{Name: "the tabs renamed", Mut: screentest.Replaced(t, tabs, "Config", "Confyg")},
			{Name: "the rule gone", Mut: screentest.Blanked(v.rule)},
			{Name: "the hint gone", Mut: screentest.Blanked(v.hint)},
			{Name: "the hint changed", Mut: screentest.Replaced(t, v.hint, "Esc", "Tab")},
			{Name: "the hint unstyled", Mut: screentest.Restyled(v.hint, vt.Style{})},
			{Name: "a row missing", Mut: func(s *vt.Screen) *vt.Screen { return screentest.DropRow(s, v.sid) }},
			{Name: "a row renamed", Mut: screentest.Replaced(t, v.sid, "Session ID", "Session Id")},
			{Name: "a row drawn twice", Mut: func(s *vt.Screen) *vt.Screen {
				s = screentest.InsertRow(s, v.sid) // the panel above moves up a row
				screentest.CopyRow(s, v.sid-1, v.sid)
				return s
			}},
			{Name: "an unknown row added", Mut: func(s *vt.Screen) *vt.Screen {
				s = screentest.InsertRow(s, v.sid) // the panel above moves up a row
				screentest.WriteText(s, x, v.sid, "Secret:", vt.Style{Style: vt.Style{}.Style.Bold(true)})
				screentest.WriteText(s, v.vx, v.sid, "hunter2", vt.Style{})
				return s
			}},
			{Name: "two rows swapped", Mut: func(s *vt.Screen) *vt.Screen { return screentest.SwapRows(s, v.sid, v.sid+1) }},
			{Name: "a second blank row", Mut: func(s *vt.Screen) *vt.Screen { return screentest.InsertRow(s, v.model) }},
			{Name: "no blank row", Mut: func(s *vt.Screen) *vt.Screen { return screentest.DropRow(s, v.model-1) }},
			{Name: "a row under a value that does not wrap", Mut: func(s *vt.Screen) *vt.Screen {
				s = screentest.InsertRow(s, v.sid+1)
				screentest.WriteText(s, v.vx, v.sid+1, "more", vt.Style{})
				return s
			}},
			{Name: "a value off its column", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, v.sid, v.vx); return s }},
			{Name: "every value off its column", Mut: func(s *vt.Screen) *vt.Screen {
				for y := v.rule + 3; y < v.hint-1; y++ {
					screentest.ShiftRight(s, y, v.vx)
				}
				return s
			}},
			{Name: "a name off its column", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, v.sid, x); return s }},
			{Name: "a name unstyled", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, v.sid, x, v.vx, vt.Style{}); return s }},
			{Name: "a value in grey", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, v.sid, v.vx, 120, grey); return s }},
			{Name: "a value bold", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, v.model, v.vx, 120, screentest.Fg256(153, true))
				return s
			}},
		}
		screentest.CheckStatus(t, screentest.Shot{Agent: "claude", Version: v.version, Surface: "status", Marker: 2}, contract.ScreenMenuOrViewer, contract.ComposerAbsent,
			v.want, cases, v.other, "2.1.263", "2.1.999")
	}
}

// TestClaudeStatusWrapped: the status-policy-error panels, whose
// Organization policy row (2.1.332: and Features) wraps over several
// rows at the values' column, each word that would not fit starting the
// next row. Their values are withheld, but the wrap is still proven: a
// row that could have held the next word, or one past the wrap width, or
// a wrapped row off the values' column, gives no status.
func TestClaudeStatusWrapped(t *testing.T) {
	for _, v := range []struct {
		version string
		want    []recognizers.StatusField
		x, vx   int
		policy  int    // the Organization policy row
		tail    string // the end of its first row
	}{
		{"2.1.267", claude267PolicyError, 3, 25, 18, "(Remote Control, cloud"},
		{"2.1.332", claude332PolicyError, 2, 30, 19, "cloud sessions,"},
	} {
		cases := []screentest.Change{
			{Name: "a row that could have held the next word", Mut: func(s *vt.Screen) *vt.Screen {
				x := screentest.FindText(s, v.policy, v.tail)
				for i := range len([]rune(v.tail)) {
					screentest.SetText(s, x+i, v.policy, " ")
				}
				return s
			}},
			{Name: "a row past the wrap width", Mut: screentest.Written(120-v.x, v.policy+1, "x")},
			{Name: "a wrapped row off the values' column", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, v.policy+1, v.vx); return s }},
			{Name: "a wrapped row left of the values' column", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.SetText(s, v.vx-2, v.policy+1, "x")
				return s
			}},
		}
		screentest.CheckStatus(t, screentest.Shot{Agent: "claude", Version: v.version, Surface: "status-policy-error", Marker: 2}, contract.ScreenMenuOrViewer, contract.ComposerAbsent,
			v.want, cases)
	}
}

// TestClaudeStatusRedacted: the rows that may hold a credential carry
// only the values recorded (Auth token "none", API key the variable's
// name, the base URL a bare origin); anything else there is withheld,
// the rest of the panel read as before.
func TestClaudeStatusRedacted(t *testing.T) {
	sh := screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "status", Marker: 2}
	for _, c := range []struct {
		name      string
		row       int
		old, repl string
		field     int // index in claude267Status
	}{
		{"a key in API key", 12, "ANTHROPIC_API_KEY", "sk-ant-api03-abc", 7},
		{"another variable in API key", 12, "ANTHROPIC_API_KEY", "OTHER_API_KEY", 7},
		{"a token in Auth token", 11, "none", "tok1", 6},
		{"credentials in the base URL", 13, "http://127.0.0.1:44591", "http://u:p@127.0.0.1:1", 8},
		{"a path in the base URL", 13, "http://127.0.0.1:44591", "http://127.0.0.1/k/abc", 8},
		{"a query in the base URL", 13, "http://127.0.0.1:44591", "http://127.0.0.1?k=abc", 8},
	} {
		s := sh.Screen(t)
		if !screentest.ReplaceText(s, c.row, c.old, c.repl) {
			t.Fatalf("%s: row %d has no %q", c.name, c.row, c.old)
		}
		want := append([]recognizers.StatusField(nil), claude267Status...)
		want[c.field] = redacted(want[c.field].Name)
		r := screentest.Recognize(s, "claude", "2.1.267")
		if r.Status == nil || !reflect.DeepEqual(r.Status.Fields, want) {
			t.Errorf("%s: status %+v, want %+v", c.name, r.Status, want)
		}
	}
}
