package screen_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"

	_ "github.com/agent-knock-knock/akk/agents/parrot/screen" // Parrot's profile
)

// recorded replays agents/parrot/testdata/1.0.0/<surface> to marker k.
func recorded(t testing.TB, surface string, k int) *vt.Screen {
	t.Helper()
	rec := screentest.LoadCast(t, filepath.Join("..", "testdata", "1.0.0", surface+".cast"))
	scr, _ := screentest.ScreenAt(t, rec, k)
	return scr
}

func read(scr *vt.Screen) recognizers.Recognition {
	return screentest.Recognize(scr, "parrot", "1.0.0")
}

// The rows of the recorded 120x40 dialog and composer.
const (
	rowHeader  = 0
	rowRule    = 33 // the dialog's rule
	rowTitle   = 34
	rowYes     = 36
	rowNo      = 37
	rowUnder   = 38 // the blank row under the menu
	rowCancel  = 39
	rowComRule = 37 // the composer's rule
	rowFooter  = 39
)

// TestDialogChanged: the recorded dialog is a pending permission; any
// change of its shape keeps it a permission but manual_required, with
// the reason, or (its last row gone) no permission at all: the profile
// is closed.
func TestDialogChanged(t *testing.T) {
	lit := recognizers.Fg256(114).Bold().Style()
	for _, tc := range []struct {
		name   string
		change func(s *vt.Screen)
		reason string // "": not a permission
	}{
		{"the No row relabelled", func(s *vt.Screen) { screentest.SetText(s, 6, rowNo, "a") }, recognizers.ReasonChangedMenuShape},
		{"a third row", func(s *vt.Screen) {
			screentest.CopyRow(s, rowNo, rowUnder)
			screentest.SetText(s, 2, rowUnder, "3")
		}, recognizers.ReasonContentBelow},
		{"the highlight moved", func(s *vt.Screen) {
			screentest.SetText(s, 0, rowYes, " ")
			screentest.Restyle(s, rowYes, rowYes, vt.Style{})
			screentest.SetText(s, 0, rowNo, "❯")
			screentest.Restyle(s, rowNo, rowNo, lit)
		}, recognizers.ReasonHighlightMoved},
		{"two highlights", func(s *vt.Screen) {
			screentest.SetText(s, 0, rowNo, "❯")
			screentest.Restyle(s, rowNo, rowNo, lit)
		}, recognizers.ReasonHighlightUnproven},
		{"the highlight unstyled", func(s *vt.Screen) { screentest.Restyle(s, rowYes, rowYes, vt.Style{}) }, recognizers.ReasonHighlightUnproven},
		{"numbered out of order", func(s *vt.Screen) { screentest.SetText(s, 2, rowNo, "3") }, recognizers.ReasonOutOfOrderOption},
		{"the title unstyled", func(s *vt.Screen) { screentest.Restyle(s, rowTitle, rowTitle, vt.Style{}) }, recognizers.ReasonUnsupportedShape},
		{"another title", func(s *vt.Screen) { screentest.SetText(s, 7, rowTitle, "W") }, recognizers.ReasonUnsupportedShape},
		{"the rule gone", func(s *vt.Screen) { screentest.BlankRow(s, rowRule) }, recognizers.ReasonFrameMissing},
		{"the header gone", func(s *vt.Screen) { screentest.BlankRow(s, rowHeader) }, recognizers.ReasonFrameMissing},
		{"text under the menu", func(s *vt.Screen) { screentest.SetText(s, 4, rowUnder, "x") }, recognizers.ReasonContentBelow},
		{"the last row restyled", func(s *vt.Screen) { screentest.Restyle(s, rowCancel, rowCancel, vt.Style{}) }, ""},
		{"the last row gone", func(s *vt.Screen) { screentest.BlankRow(s, rowCancel) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scr := recorded(t, "permission-approve", 2)
			if r := read(scr); !r.Actionable() {
				t.Fatalf("the recorded dialog: %s %v", r.ScreenState, r.Reasons)
			}
			tc.change(scr)
			r := read(scr)
			switch {
			case r.Actionable():
				t.Errorf("still actionable")
			case tc.reason == "" && (r.Interaction != nil || r.ScreenState != contract.ScreenUnknown):
				t.Errorf("%s %v: want no permission", r.ScreenState, r.Reasons)
			case tc.reason != "" && (r.Interaction == nil || r.Interaction.Kind != contract.KindPermission || !screentest.HasReason(r, tc.reason)):
				t.Errorf("%s %v, want a manual permission for %s", r.ScreenState, r.Reasons, tc.reason)
			}
		})
	}
}

// TestComposerChanged: the recorded composer is idle (empty, or with its
// draft); any change of its shape makes the screen unknown.
func TestComposerChanged(t *testing.T) {
	if r := read(recorded(t, "draft", 0)); r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != "hello parrot" {
		t.Errorf("the recorded draft: %s %s %q", r.ScreenState, r.Composer, r.Draft)
	}
	for _, tc := range []struct {
		name   string
		change func(s *vt.Screen)
	}{
		{"the footer gone", func(s *vt.Screen) { screentest.BlankRow(s, rowFooter) }},
		{"another footer", func(s *vt.Screen) { screentest.SetText(s, 0, rowFooter, "E") }},
		{"the rule gone", func(s *vt.Screen) { screentest.BlankRow(s, rowComRule) }},
		{"the prompt unstyled", func(s *vt.Screen) { screentest.Restyle(s, rowFooter-1, rowFooter-1, vt.Style{}) }},
		{"the header gone", func(s *vt.Screen) { screentest.BlankRow(s, rowHeader) }},
		{"the header's version not one", func(s *vt.Screen) { screentest.SetText(s, 9, rowHeader, "x") }},
		{"the cursor hidden", func(s *vt.Screen) { s.Write([]byte("\x1b[?25l")) }},
		{"the cursor elsewhere", func(s *vt.Screen) { s.Write([]byte("\x1b[1;1H")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scr := recorded(t, "idle", 0)
			if r := read(scr); r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
				t.Fatalf("the recorded composer: %s %s", r.ScreenState, r.Composer)
			}
			tc.change(scr)
			if r := read(scr); r.ScreenState != contract.ScreenUnknown || r.Interaction != nil {
				t.Errorf("%s %s %v: want unknown", r.ScreenState, r.Composer, r.Reasons)
			}
		})
	}
}

// TestDialogInHistory: the dialog's title in the history over the
// composer is transcript, never a prompt.
func TestDialogInHistory(t *testing.T) {
	scr := recorded(t, "idle", 0)
	screentest.WriteText(scr, 0, 5, "Parrot wants to run: rm -rf /", recognizers.Fg256(214).Bold().Style())
	r := read(scr)
	if r.ScreenState != contract.ScreenIdle || r.Interaction != nil || !screentest.HasReason(r, recognizers.NotePromptInTranscript) {
		t.Errorf("%s %v", r.ScreenState, r.Reasons)
	}
}

// The changes FuzzParrotScreen makes to one cell: a text, or a style.
var (
	fuzzTexts  = []string{"x", " ", "─", "❯", "1", "2", ".", "l\u0354", "Y"}
	fuzzStyles = []vt.Style{{}, recognizers.Plain().Bold().Style(), recognizers.Fg256(214).Style(), recognizers.Fg256(114).Style(),
		recognizers.Fg256(244).Bold().Style(), recognizers.Plain().Reverse().Style()}
)

// structural are the cells the recorded dialog is proven with: the
// header, the rule, the title's words, the menu's rows, the last row.
func structural(scr *vt.Screen) [][2]int {
	w, _ := scr.Size()
	var out [][2]int
	for _, y := range []int{rowHeader, rowRule, rowTitle, rowYes, rowNo, rowCancel} {
		for x := 0; x < w; x++ {
			if y == rowTitle && x >= len("Parrot wants to run:") || y == rowHeader && x >= len("Parrot v") {
				break // the command, the version: the screen's, not the proof's (the process gives the version)
			}
			if c := scr.Cell(x, y); c.Text != " " && c.Width != 0 {
				out = append(out, [2]int{x, y})
			}
		}
	}
	return out
}

// FuzzParrotScreen: output written over a blank screen makes nothing
// actionable; the recorded dialog with one of its structural cells
// changed (its text or its style) is not actionable; output written
// over the recorded dialog panics nothing.
func FuzzParrotScreen(f *testing.F) {
	f.Add(uint8(0), uint16(0), uint8(0), []byte("\x1b[38;5;214mParrot wants to run:\x1b[0m x\r\n\r\n\x1b[1;38;5;114m❯ 1. Yes\r\n  2. No\r\n\r\n\x1b[38;5;244mEsc to cancel"))
	f.Add(uint8(1), uint16(7), uint8(3), []byte(nil))
	f.Add(uint8(2), uint16(0), uint8(0), []byte("\x1b[35;1H\x1b[1;38;5;114m❯ 3. Maybe"))
	dialog := recorded(f, "permission-approve", 2)
	cells := structural(dialog)
	f.Fuzz(func(t *testing.T, mode uint8, pick uint16, change uint8, data []byte) {
		switch mode % 3 {
		case 0:
			scr := vt.New(120, 40, vt.Options{})
			scr.Write(data)
			if r := read(scr); r.Actionable() {
				t.Fatalf("random output actionable:\n%s", scr)
			}
		case 1:
			at := cells[int(pick)%len(cells)]
			scr := screentest.CopyScreen(dialog, 0, 120, 40)
			c := scr.Cell(at[0], at[1])
			if change%2 == 0 {
				c.Text = fuzzTexts[int(change/2)%len(fuzzTexts)]
			} else {
				c.Style = fuzzStyles[int(change/2)%len(fuzzStyles)]
			}
			if c == dialog.Cell(at[0], at[1]) {
				return
			}
			scr.SetCell(at[0], at[1], c)
			if r := read(scr); r.Actionable() {
				t.Fatalf("cell %d,%d changed (%d) and still actionable:\n%s", at[0], at[1], change, scr)
			}
		default:
			scr := screentest.CopyScreen(dialog, 0, 120, 40)
			scr.Write(data)
			read(scr)
		}
	})
}

// TestProfiles: Parrot registers one exact profile, 1.0.0.
func TestProfiles(t *testing.T) {
	var ids []string
	for _, p := range recognizers.Profiles() {
		ids = append(ids, p.ID())
	}
	if !slices.Contains(ids, "parrot@1.0.0") || recognizers.Lookup("parrot", "2.0.0").Exact {
		t.Errorf("profiles %v", ids)
	}
}
