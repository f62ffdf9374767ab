package screen_test

import (
	"testing"
	"unicode"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
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
	screentest.SetText(s, x0, y, " ")
}

// The recorded cards' rows (ids are the recordings').
var (
	codex155Status = []recognizers.StatusField{
		screentest.Carried("Model", "gpt-5.5 (reasoning medium, summaries auto)"),
		screentest.Carried("Model provider", "fake"),
		screentest.Carried("Directory", "~/project"),
		screentest.Carried("Permissions", "Read Only (Ask for approval)"),
		screentest.Carried("Agents.md", "<none>"),
		screentest.Carried("Collaboration mode", "Default"),
		screentest.Carried("Session", "01a23cf7-3e0e-7b70-bc47-b1f57fa9fde3"),
		screentest.Carried("Token usage", "0 total  (0 input + 0 output)"),
		screentest.Carried("Limits", "data not available yet"),
	}
	codex155Ambiguous = []recognizers.StatusField{
		screentest.Carried("Model", "gpt-5.5 (reasoning medium, summaries auto)"),
		screentest.Carried("Model provider", "fake"),
		screentest.Carried("Directory", "~/project"),
		screentest.Carried("Permissions", "Read Only (Ask for approval)"),
		screentest.Carried("Agents.md", "<none>"),
		screentest.Carried("Collaboration mode", "Default"),
		screentest.Carried("Session", "01a23cf7-9769-7762-82b0-4228e673c3ba"),
		screentest.Carried("Token usage", "120 total  (100 input + 20 output)"),
		screentest.Carried("Context window", "100% left (120 used / 258K)"),
		screentest.Carried("Limits", "data not available yet"),
	}
	codex171Status = []recognizers.StatusField{
		screentest.Carried("Model", "GPT-6-Sol (reasoning medium, summaries auto)"),
		screentest.Carried("Model provider", "fake"),
		screentest.Carried("Directory", "~/project"),
		screentest.Carried("Permissions", "Read Only (Ask for approval)"),
		screentest.Carried("Agents.md", "<none>"),
		screentest.Carried("Collaboration mode", "Default"),
		screentest.Carried("Session", "01a23cf7-bdef-7f32-923a-da66ba3ef836"),
		screentest.Carried("Token usage", "0 total  (0 input + 0 output)"),
		screentest.Carried("Limits", "data not available yet"),
	}
	codex171Ambiguous = []recognizers.StatusField{
		screentest.Carried("Model", "GPT-6-Sol (reasoning medium, summaries auto)"),
		screentest.Carried("Model provider", "fake"),
		screentest.Carried("Directory", "~/project"),
		screentest.Carried("Permissions", "Read Only (Ask for approval)"),
		screentest.Carried("Agents.md", "<none>"),
		screentest.Carried("Thread name", "hello there"),
		screentest.Carried("Collaboration mode", "Default"),
		screentest.Carried("Session", "01a23cf8-181a-70e0-94f7-ec80f3394d6a"),
		screentest.Carried("Token usage", "120 total  (100 input + 20 output)"),
		screentest.Carried("Context window", "100% left (120 used / 258K)"),
		screentest.Carried("Limits", "data not available yet"),
	}
)

// TestCodexStatus: the card /status prints (status marker 1, and
// status-ambiguous marker 5 after a turn: Context window, 0.171.0's
// Thread name) is read only as the newest block over the idle, empty
// composer, whole and in the recorded shape; the screen stays idle. Each
// change below gives no status.
func TestCodexStatus(t *testing.T) {
	for _, v := range []struct {
		sh       screentest.Shot
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
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "status", Marker: 1}, "0.171.0", codex155Status, true, 9, 12, 16, 22, 27, 3, 25},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "status-ambiguous", Marker: 5}, "0.171.0", codex155Ambiguous, true, 18, 21, 25, 31, 37, 3, 25},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "status", Marker: 1}, "0.155.1", codex171Status, false, 4, 6, 10, 16, 36, 2, 23},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "status-ambiguous", Marker: 5}, "0.155.1", codex171Ambiguous, false, 12, 14, 18, 25, 36, 2, 23},
	} {
		right := 120 // the rows' right end: the box's side, or the pane's
		if v.boxed {
			right = 68
		}
		version := "0.155.1"
		if !v.boxed {
			version = "0.171.0"
		}
		cases := []screentest.Change{
			{Name: "the echo gone", Mut: screentest.Blanked(v.echo)},
			{Name: "another command echoed", Mut: screentest.Replaced(t, v.echo, "/status", "/statux")},
			{Name: "the echo unstyled", Mut: screentest.Restyled(v.echo, vt.Style{})},
			{Name: "the header's version", Mut: screentest.Replaced(t, v.header, version, "9.9.9.9")},
			{Name: "the header unbolded", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, v.header, v.x+3, v.x+15, s.Cell(v.x+15, v.header).Style)
				return s
			}},
			{Name: "a row missing", Mut: func(s *vt.Screen) *vt.Screen { return screentest.DropRow(s, v.dir) }},
			{Name: "a row renamed", Mut: screentest.Replaced(t, v.dir, "Directory", "Directorx")},
			{Name: "an unknown row", Mut: func(s *vt.Screen) *vt.Screen {
				s = screentest.InsertRow(s, v.token) // the card above moves up a row
				screentest.CopyRow(s, v.token-1, v.token)
				if !screentest.ReplaceText(s, v.token, "Token usage:", "Account:") {
					t.Fatal("no Token usage row")
				}
				return s
			}},
			{Name: "two rows swapped", Mut: func(s *vt.Screen) *vt.Screen { return screentest.SwapRows(s, v.dir, v.dir+1) }},
			{Name: "no blank row", Mut: func(s *vt.Screen) *vt.Screen { return screentest.DropRow(s, v.token-1) }},
			{Name: "a value off its column", Mut: func(s *vt.Screen) *vt.Screen { shiftIn(s, v.dir, v.vx, right); return s }},
			{Name: "every value off its column", Mut: func(s *vt.Screen) *vt.Screen {
				for y := v.header + 2; y < v.composer; y++ {
					if unicode.IsLetter([]rune(s.Cell(v.x, y).Text)[0]) { // a named row
						shiftIn(s, y, v.vx, right)
					}
				}
				return s
			}},
			{Name: "a name off its column", Mut: func(s *vt.Screen) *vt.Screen { shiftIn(s, v.dir, v.x, right); return s }},
			{Name: "a name not dim", Mut: func(s *vt.Screen) *vt.Screen { screentest.RestyleCols(s, v.dir, v.x, v.vx, vt.Style{}); return s }},
			{Name: "a value bold", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, v.dir, v.vx, v.vx+9, screentest.Fg256(153, true))
				return s
			}},
			{Name: "a row under the card", Mut: screentest.Written(0, v.composer-2, "•")},
			{Name: "a draft in the composer", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.WriteText(s, 2, v.composer, "draft", vt.Style{})
				return s
			}},
		}
		if v.boxed {
			cases = append(cases,
				screentest.Change{Name: "the box's side gone", Mut: screentest.Written(0, v.dir, " ")},
				screentest.Change{Name: "the box's right side moved", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.SetText(s, right, v.dir, " ")
					screentest.SetText(s, right+1, v.dir, "│")
					return s
				}},
				screentest.Change{Name: "the box's bottom gone", Mut: screentest.Blanked(v.composer - 3)})
		}
		screentest.CheckStatus(t, v.sh, contract.ScreenIdle, contract.ComposerEmpty, v.want, cases, v.other, "0.154.0", "0.999.0")
	}
}

// TestCodexStatusDraft: with a draft in the composer the card is not
// read, the composer is (a draft, no status).
func TestCodexStatusDraft(t *testing.T) {
	for _, sh := range []screentest.Shot{{Agent: "codex", Version: "0.155.1", Surface: "status", Marker: 1}, {Agent: "codex", Version: "0.171.0", Surface: "status", Marker: 1}} {
		s := sh.Screen(t)
		_, h := s.Size()
		y := 0
		for ; y < h; y++ {
			if screentest.FindText(s, y, "Ask Codex to do anything") == 2 {
				break
			}
		}
		screentest.WriteText(s, 2, y, "draft", vt.Style{})
		if r := screentest.Recognize(s, sh.Agent, sh.Version); r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Status != nil {
			t.Errorf("%s with a draft: %s %s status %v, want idle, a draft, no status", sh, r.ScreenState, r.Composer, r.Status)
		}
	}
}
