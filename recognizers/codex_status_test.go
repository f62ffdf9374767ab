package recognizers_test

import (
	"testing"
	"unicode"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// shiftIn moves the cells of row y from column x0 one column right
// within x0..x1-1 (the one at x1-1 drops off) and leaves a space in
// column x0's style: a value moved inside a box, its side in place.
func shiftIn(s *vt.Screen, y, x0, x1 int) {
	for c := x1 - 1; c > x0; c-- {
		s.SetCell(c, y, s.Cell(c-1, y))
	}
	setText(s, x0, y, " ")
}

// The recorded cards' rows (ids are the recordings').
var (
	codex155Status = []recognizers.StatusField{
		sf("Model", "gpt-5.5 (reasoning medium, summaries auto)"),
		sf("Model provider", "fake"),
		sf("Directory", "~/project"),
		sf("Permissions", "Read Only (Ask for approval)"),
		sf("Agents.md", "<none>"),
		sf("Collaboration mode", "Default"),
		sf("Session", "01a23cf7-3e0e-7b70-bc47-b1f57fa9fde3"),
		sf("Token usage", "0 total  (0 input + 0 output)"),
		sf("Limits", "data not available yet"),
	}
	codex155Ambiguous = []recognizers.StatusField{
		sf("Model", "gpt-5.5 (reasoning medium, summaries auto)"),
		sf("Model provider", "fake"),
		sf("Directory", "~/project"),
		sf("Permissions", "Read Only (Ask for approval)"),
		sf("Agents.md", "<none>"),
		sf("Collaboration mode", "Default"),
		sf("Session", "01a23cf7-9769-7762-82b0-4228e673c3ba"),
		sf("Token usage", "120 total  (100 input + 20 output)"),
		sf("Context window", "100% left (120 used / 258K)"),
		sf("Limits", "data not available yet"),
	}
	codex171Status = []recognizers.StatusField{
		sf("Model", "GPT-6-Sol (reasoning medium, summaries auto)"),
		sf("Model provider", "fake"),
		sf("Directory", "~/project"),
		sf("Permissions", "Read Only (Ask for approval)"),
		sf("Agents.md", "<none>"),
		sf("Collaboration mode", "Default"),
		sf("Session", "01a23cf7-bdef-7f32-923a-da66ba3ef836"),
		sf("Token usage", "0 total  (0 input + 0 output)"),
		sf("Limits", "data not available yet"),
	}
	codex171Ambiguous = []recognizers.StatusField{
		sf("Model", "GPT-6-Sol (reasoning medium, summaries auto)"),
		sf("Model provider", "fake"),
		sf("Directory", "~/project"),
		sf("Permissions", "Read Only (Ask for approval)"),
		sf("Agents.md", "<none>"),
		sf("Thread name", "hello there"),
		sf("Collaboration mode", "Default"),
		sf("Session", "01a23cf8-181a-70e0-94f7-ec80f3394d6a"),
		sf("Token usage", "120 total  (100 input + 20 output)"),
		sf("Context window", "100% left (120 used / 258K)"),
		sf("Limits", "data not available yet"),
	}
)

// TestCodexStatus: the card /status prints (status marker 1, and
// status-ambiguous marker 5 after a turn: Context window, 0.171.0's
// Thread name) is read only as the newest block over the idle, empty
// composer, whole and in the recorded shape; the screen stays idle. Each
// change below gives no status.
func TestCodexStatus(t *testing.T) {
	for _, v := range []struct {
		sh       shot
		other    string
		want     []recognizers.StatusField
		boxed    bool
		echo     int // the "/status" row
		header   int
		dir      int // the Directory row
		token    int // the Token usage row
		composer int
		x, vx    int // the names' and values' columns
	}{
		{shot{"codex", "0.155.1", "status", 1, 0}, "0.171.0", codex155Status, true, 9, 12, 16, 22, 27, 3, 25},
		{shot{"codex", "0.155.1", "status-ambiguous", 5, 0}, "0.171.0", codex155Ambiguous, true, 18, 21, 25, 31, 37, 3, 25},
		{shot{"codex", "0.171.0", "status", 1, 0}, "0.155.1", codex171Status, false, 4, 6, 10, 16, 36, 2, 23},
		{shot{"codex", "0.171.0", "status-ambiguous", 5, 0}, "0.155.1", codex171Ambiguous, false, 12, 14, 18, 25, 36, 2, 23},
	} {
		right := 120 // the rows' right end: the box's side, or the pane's
		if v.boxed {
			right = 68
		}
		version := "0.155.1"
		if !v.boxed {
			version = "0.171.0"
		}
		cases := []statusCase{
			{"the echo gone", blanked(v.echo)},
			{"another command echoed", replaced(t, v.echo, "/status", "/statux")},
			{"the echo unstyled", restyled(v.echo, vt.Style{})},
			{"the header's version", replaced(t, v.header, version, "9.9.9.9")},
			{"the header unbolded", func(s *vt.Screen) *vt.Screen {
				restyleCols(s, v.header, v.x+3, v.x+15, s.Cell(v.x+15, v.header).Style)
				return s
			}},
			{"a row missing", func(s *vt.Screen) *vt.Screen { return dropRow(s, v.dir) }},
			{"a row renamed", replaced(t, v.dir, "Directory", "Directorx")},
			{"an unknown row", func(s *vt.Screen) *vt.Screen {
				s = insertRow(s, v.token) // the card above moves up a row
				copyRow(s, v.token-1, v.token)
				if !replaceText(s, v.token, "Token usage:", "Account:") {
					t.Fatal("no Token usage row")
				}
				return s
			}},
			{"two rows swapped", func(s *vt.Screen) *vt.Screen { return swapRows(s, v.dir, v.dir+1) }},
			{"no blank row", func(s *vt.Screen) *vt.Screen { return dropRow(s, v.token-1) }},
			{"a value off its column", func(s *vt.Screen) *vt.Screen { shiftIn(s, v.dir, v.vx, right); return s }},
			{"every value off its column", func(s *vt.Screen) *vt.Screen {
				for y := v.header + 2; y < v.composer; y++ {
					if unicode.IsLetter([]rune(s.Cell(v.x, y).Text)[0]) { // a named row
						shiftIn(s, y, v.vx, right)
					}
				}
				return s
			}},
			{"a name off its column", func(s *vt.Screen) *vt.Screen { shiftIn(s, v.dir, v.x, right); return s }},
			{"a name not dim", func(s *vt.Screen) *vt.Screen { restyleCols(s, v.dir, v.x, v.vx, vt.Style{}); return s }},
			{"a value bold", func(s *vt.Screen) *vt.Screen { restyleCols(s, v.dir, v.vx, v.vx+9, fg256(153, true)); return s }},
			{"a row under the card", written(0, v.composer-2, "•")},
			{"a draft in the composer", func(s *vt.Screen) *vt.Screen {
				writeText(s, 2, v.composer, "draft", vt.Style{})
				return s
			}},
		}
		if v.boxed {
			cases = append(cases,
				statusCase{"the box's side gone", written(0, v.dir, " ")},
				statusCase{"the box's right side moved", func(s *vt.Screen) *vt.Screen {
					setText(s, right, v.dir, " ")
					setText(s, right+1, v.dir, "│")
					return s
				}},
				statusCase{"the box's bottom gone", blanked(v.composer - 3)})
		}
		checkStatus(t, v.sh, contract.ScreenIdle, contract.ComposerEmpty, v.want, cases, v.other, "0.154.0", "0.999.0")
	}
}

// TestCodexStatusDraft: with a draft in the composer the card is not
// read, the composer is (a draft, no status).
func TestCodexStatusDraft(t *testing.T) {
	for _, sh := range []shot{{"codex", "0.155.1", "status", 1, 0}, {"codex", "0.171.0", "status", 1, 0}} {
		s := sh.screen(t)
		_, h := s.Size()
		y := 0
		for ; y < h; y++ {
			if findText(s, y, "Ask Codex to do anything") == 2 {
				break
			}
		}
		writeText(s, 2, y, "draft", vt.Style{})
		if r := recognize(s, sh.agent, sh.version); r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Status != nil {
			t.Errorf("%s with a draft: %s %s status %v, want idle, a draft, no status", sh, r.ScreenState, r.Composer, r.Status)
		}
	}
}
