package screen_test

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// TestCodexSubmitAll: the last of several questions once every question
// is answered (question-submit-all, marker 4) shows "Question 2/2" with
// no count and its prompt in the default colours; it is actionable, its
// answer highlighted. Its progress row and prompt style are proven
// together: each shape next to it that no recording shows is
// changed_menu_shape and nothing else.
func TestCodexSubmitAll(t *testing.T) {
	for _, v := range versions {
		all := screentest.MarkerScreen(t, "codex", v, "question-submit-all", 4)
		base := screentest.Recognize(all, "codex", v)
		if !base.Actionable() || base.Prompt.Step != (contract.Step{Index: 2, Total: 2}) || base.Prompt.Highlighted != 1 {
			t.Fatalf("%s: %s actionable %v step %+v highlighted %d %v", v, base.ScreenState, base.Actionable(),
				base.Prompt.Step, base.Prompt.Highlighted, base.Reasons)
		}
		// The same question unanswered (marker 0): its prompt in colour.
		unanswered := screentest.MarkerScreen(t, "codex", v, "question-submit-all", 0)
		ur := screentest.Recognize(unanswered, "codex", v)
		if !ur.Actionable() || ur.Region.Top != base.Region.Top {
			t.Fatalf("%s: marker 0 %s actionable %v top %d, want the same overlay", v, ur.ScreenState, ur.Actionable(), ur.Region.Top)
		}
		top := base.Region.Top
		w, h := all.Size()
		progress := func(s *vt.Screen, text string) *vt.Screen {
			x := screentest.FindText(s, top, "Question ")
			if x < 0 {
				t.Fatalf("%s: no progress row at %d", v, top)
			}
			st := s.Cell(x, top).Style
			for c := x; c < w; c++ {
				s.SetCell(c, top, vt.Cell{Text: " ", Width: 1})
			}
			screentest.WriteText(s, x, top, text, st)
			return s
		}
		colouredPrompt := func(s *vt.Screen) *vt.Screen {
			screentest.CopyRowFrom(s, unanswered, top+1, top+1)
			return s
		}
		notLast := func(s *vt.Screen) *vt.Screen {
			foot := base.Region.Bottom()
			if !screentest.ReplaceText(s, foot, "enter to submit all", "enter to submit answer") {
				// "answer" is longer: the footer is rewritten whole.
				x := screentest.FindText(s, foot, "enter to submit all")
				if x < 0 {
					t.Fatalf("%s: no footer at %d", v, foot)
				}
				tail := screentest.CopyScreen(s, 0, w, h)
				screentest.WriteText(s, x, foot, "enter to submit answer", s.Cell(x, foot).Style)
				for c := x + len("enter to submit all"); c+3 < w; c++ {
					if cl := tail.Cell(c, foot); cl.Width != 0 {
						s.SetCell(c+3, foot, cl)
					}
				}
			}
			return progress(s, "Question 1/2")
		}
		for _, tc := range []struct {
			name string
			scr  *vt.Screen
		}{
			{"no count, prompt in the unanswered colour", colouredPrompt(screentest.CopyScreen(all, 0, w, h))},
			{"no count on the first question", notLast(screentest.CopyScreen(all, 0, w, h))},
			{"a count of zero", progress(colouredPrompt(screentest.CopyScreen(all, 0, w, h)), "Question 2/2 (0 unanswered)")},
			{"a count, prompt in the answered colours", progress(screentest.CopyScreen(all, 0, w, h), "Question 2/2 (1 unanswered)")},
		} {
			got := screentest.Recognize(tc.scr, "codex", v)
			if got.Actionable() {
				t.Errorf("%s %s: FALSE ACTIONABLE %v", v, tc.name, got.Interaction)
			} else if !slices.Equal(screentest.ReasonCodes(got), []string{recognizers.ReasonChangedMenuShape}) {
				t.Errorf("%s %s: reasons %v, want changed_menu_shape only", v, tc.name, got.Reasons)
			}
		}
	}
}
