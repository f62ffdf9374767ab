package screen_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// recordedQuestion is one version's recorded question screen
// (question-digit, marker 0) and the recognition of a copy of it.
type recordedQuestion struct {
	v    string
	scr  *vt.Screen
	base recognizers.Recognition
}

// recordedQuestions are the recorded questions of every version that has
// one, each proven actionable; no version with one fails t.
func recordedQuestions(t *testing.T) []recordedQuestion {
	t.Helper()
	var out []recordedQuestion
	for _, v := range versions {
		if scr, base := screentest.RecordedSource(t, "codex", v, question); scr != nil {
			out = append(out, recordedQuestion{v, scr, base})
		}
	}
	if len(out) == 0 {
		t.Fatal("no Codex profile with a recorded question (question-digit)")
	}
	return out
}

// TestCodexQuestionBounds: request_user_input asks 1-3 questions with 2-3
// options each (seed 000; the tool schema says so), "None of the above"
// not counted. A question outside those bounds is changed_menu_shape and
// nothing else, so the bound is what refuses it; the same edits within
// the bounds stay actionable.
func TestCodexQuestionBounds(t *testing.T) {
	for _, q := range recordedQuestions(t) {
		v, scr, base := q.v, q.scr, q.base
		w, h := scr.Size()
		opts := screentest.Options(&base) // Red, Green, Blue, None of the above
		notes := opts[3]
		top, foot := base.Region.Top, base.Region.Bottom()

		fourOptions := func() *vt.Screen {
			s := screentest.InsertRow(screentest.CopyScreen(scr, 0, w, h), opts[2].Row)
			screentest.CopyRowFrom(s, scr, opts[2].Row, opts[2].Row)
			screentest.SetText(s, screentest.FindText(s, opts[2].Row, "3. "), opts[2].Row, "4")
			screentest.ReplaceText(s, opts[2].Row, "Blue", "Teal")
			screentest.SetText(s, screentest.FindText(s, notes.Row, "4. "), notes.Row, "5")
			return s
		}
		oneOption := func() *vt.Screen {
			// Green and Blue go; the rows above them move down two.
			s := screentest.CopyScreen(scr, 0, w, h)
			for y := opts[2].Row; y >= 2; y-- {
				screentest.BlankRow(s, y)
				screentest.CopyRowFrom(s, scr, y-2, y)
			}
			screentest.BlankRow(s, 0)
			screentest.BlankRow(s, 1)
			screentest.SetText(s, screentest.FindText(s, notes.Row, "4. "), notes.Row, "2")
			return s
		}
		// questions rewrites the progress row to "1/n (n unanswered)" and
		// the footer to the one of several questions.
		questions := func(n int) *vt.Screen {
			s := screentest.CopyScreen(scr, 0, w, h)
			if !screentest.ReplaceText(s, top, "Question 1/1 (1 unanswered)", fmt.Sprintf("Question 1/%d (%d unanswered)", n, n)) {
				t.Fatalf("%s: no progress row at %d", v, top)
			}
			footer := "tab to add notes | enter to submit answer | ←/→ to navigate questions | esc to interrupt"
			st := s.Cell(2, foot).Style
			for x := 2; x < w; x++ {
				s.SetCell(x, foot, vt.Cell{Text: " ", Width: 1})
			}
			screentest.WriteText(s, 2, foot, footer, st)
			return s
		}

		for _, tc := range []struct {
			name   string
			scr    *vt.Screen
			detail string // "" : actionable
		}{
			{"three questions", questions(3), ""},
			{"four questions", questions(4), "3 options, 4 questions"},
			{"four options", fourOptions(), "4 options, 1 questions"},
			{"one option", oneOption(), "1 options, 1 questions"},
		} {
			got := screentest.Recognize(tc.scr, "codex", v)
			switch {
			case tc.detail == "" && !got.Actionable():
				t.Errorf("%s %s: not actionable: %v", v, tc.name, got.Reasons)
			case tc.detail == "":
			case got.Actionable():
				t.Errorf("%s %s: FALSE ACTIONABLE %v", v, tc.name, got.Interaction)
			case !slices.Equal(screentest.ReasonCodes(got), []string{recognizers.ReasonChangedMenuShape}) || got.Reasons[0].Detail != tc.detail:
				t.Errorf("%s %s: reasons %v, want changed_menu_shape (%s) only", v, tc.name, got.Reasons, tc.detail)
			}
		}
	}
}

// TestCodexMaskedNotes: Codex masks the Notes draft of a question whose
// request set isSecret (question-secret, one "*" a character). The mask
// alone is secret_input: with the prompt's words made harmless the typed
// step stays manual, and the recorded screen names both.
func TestCodexMaskedNotes(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		scr := screentest.MarkerScreen(t, "codex", v, "question-secret", 3)
		r := screentest.Recognize(scr, "codex", v)
		if r.ScreenState != contract.ScreenFreeText || r.Composer != contract.ComposerDraft || strings.Trim(r.Draft, "*") != "" ||
			!slices.Equal(screentest.ReasonCodes(r), []string{recognizers.ReasonSecretInput, recognizers.ReasonSecretInput}) {
			t.Fatalf("%s: %s/%s draft %q reasons %v", v, r.ScreenState, r.Composer, r.Draft, r.Reasons)
		}
		w, h := scr.Size()
		mut := screentest.CopyScreen(scr, 0, w, h)
		if !screentest.ReplaceText(mut, r.Region.Top+1, "What is the database password?", "Which color should it be?") {
			t.Fatalf("%s: no prompt row", v)
		}
		got := screentest.Recognize(mut, "codex", v)
		if got.Actionable() || !slices.Equal(screentest.ReasonCodes(got), []string{recognizers.ReasonSecretInput}) ||
			!strings.HasPrefix(got.Reasons[0].Detail, "masked editor") {
			t.Errorf("%s, harmless prompt: actionable %v, reasons %v, want the masked editor's secret_input", v, got.Actionable(), got.Reasons)
		}
	}
}

// TestCodexTypeSomethingOption: a model-supplied option of a blocking
// Codex question (request_user_input) labelled "Type something." reads as
// a free-text row, but its digit submits the literal label: the question
// is free_text_label_collision on that row and nothing else, on every
// Codex profile with a recorded question, whichever option carries it
// (the highlighted one too) and in the spellings labelKey folds. The
// same rows relabelled with a harmless label of the same length stay
// actionable and offer it: the label alone refuses.
func TestCodexTypeSomethingOption(t *testing.T) {
	for _, q := range recordedQuestions(t) {
		v, scr, base := q.v, q.scr, q.base
		w, h := scr.Size()
		opts := screentest.Options(&base) // Red (Recommended), Green, Blue, None of the above
		for _, tc := range []struct {
			option int
			label  string
			// collides: the relabelled option is a free-text lookalike.
			collides bool
		}{
			{1, "Type something.", true},
			{0, "Type something.", true}, // the highlighted row
			{2, "type something", true},
			{1, "Type something…", true},
			{1, "Type carefully.", false},
			{0, "Type carefully.", false},
		} {
			name := fmt.Sprintf("codex@%s, option %d labelled %q", v, tc.option, tc.label)
			s := screentest.CopyScreen(scr, 0, w, h)
			o := opts[tc.option]
			relabel(t, s, o, tc.label)
			got := screentest.Recognize(s, "codex", v)
			if tc.collides {
				if got.Actionable() {
					t.Errorf("%s: FALSE ACTIONABLE %v", name, got.Interaction)
				} else if want := "row " + fmt.Sprint(o.Row); !slices.Equal(screentest.ReasonCodes(got), []string{recognizers.ReasonFreeTextLookalike}) ||
					got.Reasons[0].Detail != want {
					t.Errorf("%s: reasons %v, want %s (%s) only", name, got.Reasons, recognizers.ReasonFreeTextLookalike, want)
				}
				continue
			}
			want := slices.Clone(question.Expect)
			want[tc.option] = tc.label
			screentest.AssertActionable(t, name, &got, screentest.Source{Kind: contract.KindQuestionnaire, Expect: want})
		}
	}
}

// relabel writes label over option o's label, in the label's style, on
// the label's cells and the blank cells after them (never closer than two
// cells to the description); the rest of the old label is blanked.
func relabel(t *testing.T, s *vt.Screen, o recognizers.Option, label string) {
	t.Helper()
	x := screentest.FindText(s, o.Row, o.Label)
	if x < 0 {
		t.Fatalf("no label %q on row %d", o.Label, o.Row)
	}
	n, old := len([]rune(label)), len([]rune(o.Label))
	w, _ := s.Size()
	for cx := x + old; cx < x+n+2; cx++ {
		if cx >= w || strings.TrimSpace(s.Cell(cx, o.Row).Text) != "" {
			t.Fatalf("%q does not fit over %q on row %d", label, o.Label, o.Row)
		}
	}
	st := s.Cell(x, o.Row).Style
	screentest.WriteText(s, x, o.Row, label+strings.Repeat(" ", max(0, old-n)), st)
}
