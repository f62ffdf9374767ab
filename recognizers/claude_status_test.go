package recognizers_test

import (
	"reflect"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// statusCase is one change to a recorded status screen.
type statusCase = pickerCase

// sf is a status row carried as drawn; redacted one withheld.
func sf(name, value string) recognizers.StatusField {
	return recognizers.StatusField{Name: name, Value: value}
}

func redacted(name string) recognizers.StatusField {
	return recognizers.StatusField{Name: name, Redacted: true}
}

// dropRow removes row y, the rows under it moving up a row.
func dropRow(s *vt.Screen, y int) *vt.Screen {
	_, h := s.Size()
	for r := y; r < h-1; r++ {
		blankRow(s, r)
		copyRow(s, r+1, r)
	}
	blankRow(s, h-1)
	return s
}

// swapRows exchanges rows a and b.
func swapRows(s *vt.Screen, a, b int) *vt.Screen {
	w, h := s.Size()
	tmp := copyScreen(s, 0, w, h)
	blankRow(s, a)
	blankRow(s, b)
	copyRow2(s, tmp, b, a)
	copyRow2(s, tmp, a, b)
	return s
}

// replaced is replaceText as a change: old on row y becomes repl.
func replaced(t *testing.T, y int, old, repl string) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen {
		if !replaceText(s, y, old, repl) {
			t.Fatalf("row %d has no %q", y, old)
		}
		return s
	}
}

// checkStatus reads the recorded screen's status as want with the state
// and composer given, each case (one change at a time) as no status, and
// the screen under the other versions (and the generic profile) as no
// status.
func checkStatus(t *testing.T, sh shot, state contract.ScreenState, composer contract.Composer,
	want []recognizers.StatusField, cases []statusCase, others ...string) {
	t.Helper()
	r := recognize(sh.screen(t), sh.agent, sh.version)
	if r.ScreenState != state || r.Composer != composer || r.Interaction != nil || r.Plan != nil {
		t.Errorf("%s: %s composer %s interaction %v plan %v, want %s, %s, nothing to act on", sh, r.ScreenState, r.Composer, r.Interaction, r.Plan, state, composer)
	}
	if r.Status == nil || !reflect.DeepEqual(r.Status.Fields, want) {
		t.Errorf("%s: status %+v, want %+v", sh, r.Status, want)
	}
	for _, c := range cases {
		if r := recognize(c.mut(sh.screen(t)), sh.agent, sh.version); r.Status != nil {
			t.Errorf("%s, %s: status %+v (%s), want none", sh, c.name, r.Status.Fields, r.ScreenState)
		}
	}
	for _, v := range others {
		if r := recognize(sh.screen(t), sh.agent, v); r.Status != nil {
			t.Errorf("%s read as %s: status %+v, want none", sh, v, r.Status.Fields)
		}
	}
}

// The Status tab's recorded rows. Ids, paths and ports are the
// recordings'.
var (
	claude267Status = []recognizers.StatusField{
		sf("Version", "2.1.267"),
		sf("Session name", "Fake session"),
		sf("Session ID", "4adcf414-6e3e-4177-9e07-76c363eafa59"),
		sf("Session kind", "interactive"),
		sf("Peer address", "uds:/tmp/akk-rig-821545207/tmp/cc-socks/5927.sock"),
		sf("cwd", "/tmp/akk-rig-821545207/home/project"),
		sf("Auth token", "none"),
		sf("API key", "ANTHROPIC_API_KEY"),
		sf("Anthropic base URL", "http://127.0.0.1:44591"),
		sf("Model", "Default (claude-opus-5[1m])"),
		sf("Setting sources", "User settings"),
		sf("Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"),
		redacted("Organization policy"),
	}
	claude267PolicyError = []recognizers.StatusField{
		sf("Version", "2.1.267"),
		sf("Session name", "/rename to add a name"),
		sf("Session ID", "a2dffe88-1e73-4c54-9ef1-7bf8a990b113"),
		sf("Session kind", "interactive"),
		sf("Peer address", "uds:/tmp/akk-rig-1503276501/tmp/cc-socks/6421.sock"),
		sf("cwd", "/tmp/akk-rig-1503276501/home/project"),
		sf("Auth token", "none"),
		sf("API key", "ANTHROPIC_API_KEY"),
		sf("Anthropic base URL", "http://127.0.0.1:39407"),
		sf("Proxy", "http://127.0.0.1:39407"),
		sf("Model", "Default (claude-opus-5[1m])"),
		sf("Setting sources", "User settings"),
		redacted("Organization policy"),
	}
	claude332Status = []recognizers.StatusField{
		sf("Version", "2.1.332"),
		sf("Session name", "/rename to add a name"),
		sf("Session ID", "3d466131-cec9-4d60-8686-7883568b1afe"),
		sf("Session kind", "interactive"),
		sf("Peer address", "uds:/tmp/akk-rig-1233021494/tmp/cc-socks/6880.sock"),
		sf("cwd", "/tmp/akk-rig-1233021494/home/project"),
		sf("Auth token", "none"),
		sf("API key", "ANTHROPIC_API_KEY"),
		sf("Anthropic base URL", "http://127.0.0.1:33207"),
		sf("Model", "Default (claude-opus-5-5)"),
		sf("Setting sources", "User settings"),
		sf("Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"),
		redacted("Organization policy"),
		sf("Auto mode server", "Disabled"),
		redacted("Features"),
	}
	claude332PolicyError = []recognizers.StatusField{
		sf("Version", "2.1.332"),
		sf("Session name", "/rename to add a name"),
		sf("Session ID", "f5cc7dd2-ab64-479e-bafe-6f0bdfa9f7f6"),
		sf("Session kind", "interactive"),
		sf("Peer address", "uds:/tmp/akk-rig-2516369334/tmp/cc-socks/7006.sock"),
		sf("cwd", "/tmp/akk-rig-2516369334/home/project"),
		sf("Auth token", "none"),
		sf("API key", "ANTHROPIC_API_KEY"),
		sf("Anthropic base URL", "http://127.0.0.1:41835"),
		sf("Proxy", "http://127.0.0.1:41835"),
		sf("Model", "Default (claude-opus-5-5)"),
		sf("Setting sources", "User settings"),
		sf("Managed settings (remote)", "fetch failed — no policy applied (unexpected error)"),
		redacted("Organization policy"),
		sf("Auto mode server", "Disabled"),
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
		grey := fg256(246, false)
		cases := []statusCase{
			{"another tab selected", func(s *vt.Screen) *vt.Screen {
				sel := s.Cell(x+9, tabs).Style
				restyleCols(s, tabs, x+9, x+17, vt.Style{})
				restyleCols(s, tabs, x+18, x+26, sel) // " Config "
				return s
			}},
			{"the Status tab unselected", func(s *vt.Screen) *vt.Screen { restyleCols(s, tabs, x+9, x+17, vt.Style{}); return s }},
			{"the tabs renamed", replaced(t, tabs, "Config", "Confyg")},
			{"the rule gone", blanked(v.rule)},
			{"the hint gone", blanked(v.hint)},
			{"the hint changed", replaced(t, v.hint, "Esc", "Tab")},
			{"the hint unstyled", restyled(v.hint, vt.Style{})},
			{"a row missing", func(s *vt.Screen) *vt.Screen { return dropRow(s, v.sid) }},
			{"a row renamed", replaced(t, v.sid, "Session ID", "Session Id")},
			{"a row drawn twice", func(s *vt.Screen) *vt.Screen {
				s = insertRow(s, v.sid) // the panel above moves up a row
				copyRow(s, v.sid-1, v.sid)
				return s
			}},
			{"an unknown row added", func(s *vt.Screen) *vt.Screen {
				s = insertRow(s, v.sid) // the panel above moves up a row
				writeText(s, x, v.sid, "Secret:", vt.Style{Style: vt.Style{}.Style.Bold(true)})
				writeText(s, v.vx, v.sid, "hunter2", vt.Style{})
				return s
			}},
			{"two rows swapped", func(s *vt.Screen) *vt.Screen { return swapRows(s, v.sid, v.sid+1) }},
			{"a second blank row", func(s *vt.Screen) *vt.Screen { return insertRow(s, v.model) }},
			{"no blank row", func(s *vt.Screen) *vt.Screen { return dropRow(s, v.model-1) }},
			{"a row under a value that does not wrap", func(s *vt.Screen) *vt.Screen {
				s = insertRow(s, v.sid+1)
				writeText(s, v.vx, v.sid+1, "more", vt.Style{})
				return s
			}},
			{"a value off its column", func(s *vt.Screen) *vt.Screen { shiftRight(s, v.sid, v.vx); return s }},
			{"every value off its column", func(s *vt.Screen) *vt.Screen {
				for y := v.rule + 3; y < v.hint-1; y++ {
					shiftRight(s, y, v.vx)
				}
				return s
			}},
			{"a name off its column", func(s *vt.Screen) *vt.Screen { shiftRight(s, v.sid, x); return s }},
			{"a name unstyled", func(s *vt.Screen) *vt.Screen { restyleCols(s, v.sid, x, v.vx, vt.Style{}); return s }},
			{"a value in grey", func(s *vt.Screen) *vt.Screen { restyleCols(s, v.sid, v.vx, 120, grey); return s }},
			{"a value bold", func(s *vt.Screen) *vt.Screen { restyleCols(s, v.model, v.vx, 120, fg256(153, true)); return s }},
		}
		checkStatus(t, shot{"claude", v.version, "status", 2, 0}, contract.ScreenMenuOrViewer, contract.ComposerAbsent,
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
		cases := []statusCase{
			{"a row that could have held the next word", func(s *vt.Screen) *vt.Screen {
				x := findText(s, v.policy, v.tail)
				for i := range len([]rune(v.tail)) {
					setText(s, x+i, v.policy, " ")
				}
				return s
			}},
			{"a row past the wrap width", written(120-v.x, v.policy+1, "x")},
			{"a wrapped row off the values' column", func(s *vt.Screen) *vt.Screen { shiftRight(s, v.policy+1, v.vx); return s }},
			{"a wrapped row left of the values' column", func(s *vt.Screen) *vt.Screen {
				setText(s, v.vx-2, v.policy+1, "x")
				return s
			}},
		}
		checkStatus(t, shot{"claude", v.version, "status-policy-error", 2, 0}, contract.ScreenMenuOrViewer, contract.ComposerAbsent,
			v.want, cases)
	}
}

// TestClaudeStatusRedacted: the rows that may hold a credential carry
// only the values recorded (Auth token "none", API key the variable's
// name, the base URL a bare origin); anything else there is withheld,
// the rest of the panel read as before.
func TestClaudeStatusRedacted(t *testing.T) {
	sh := shot{"claude", "2.1.267", "status", 2, 0}
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
		s := sh.screen(t)
		if !replaceText(s, c.row, c.old, c.repl) {
			t.Fatalf("%s: row %d has no %q", c.name, c.row, c.old)
		}
		want := append([]recognizers.StatusField(nil), claude267Status...)
		want[c.field] = redacted(want[c.field].Name)
		r := recognize(s, "claude", "2.1.267")
		if r.Status == nil || !reflect.DeepEqual(r.Status.Fields, want) {
			t.Errorf("%s: status %+v, want %+v", c.name, r.Status, want)
		}
	}
}
