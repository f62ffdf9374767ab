package recognizers_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestMultiSelectSteps composes answers from the recorded multi-select
// (marker 0: nothing ticked; marker 1: Cheese and Olives ticked): the
// toggles go in screen order, only where a box must change, each
// expecting exactly the boxes so far, then Tab to the review.
func TestMultiSelectSteps(t *testing.T) {
	type step struct {
		keys    string
		checked []bool
	}
	cases := []struct {
		marker int
		pick   []string
		want   []step
	}{
		{0, []string{"Olives", "Cheese"}, []step{{"1", []bool{true, false, false, false}}, {"3", []bool{true, false, true, false}}}},
		{0, []string{"Mushrooms"}, []step{{"2", []bool{false, true, false, false}}}},
		{1, []string{"Cheese", "Olives"}, nil}, // already so: only the move to the review
		{1, []string{"Mushrooms"}, []step{
			{"1", []bool{false, false, true, false}}, {"2", []bool{false, true, true, false}}, {"3", []bool{false, true, false, false}}}},
	}
	for _, v := range claudeVersions {
		for _, c := range cases {
			r := screentest.Recognize(screentest.MarkerScreen(t, "claude", v, "multi-select", c.marker), "claude", v)
			if !r.Actionable() || r.Plan == nil || r.Plan.Multi == nil {
				t.Fatalf("%s marker %d: not an actionable multi-select: %v %v", v, c.marker, r.Interaction, r.Reasons)
			}
			q := r.Interaction.Questions[0]
			ids := byLabel(q)
			var pick []string
			for _, l := range c.pick {
				pick = append(pick, ids[l])
			}
			steps, err := r.Plan.MultiSelect(q.QuestionID, pick)
			if err != nil {
				t.Fatalf("%s %v: %v", v, c.pick, err)
			}
			if len(steps) != len(c.want)+1 {
				t.Fatalf("%s marker %d %v: %d steps, want %d toggles and the submit", v, c.marker, c.pick, len(steps), len(c.want))
			}
			for i, w := range c.want {
				s := steps[i]
				if string(s.Keys) != w.keys || !slices.Equal(s.Expect.Checked, w.checked) || s.Expect.Highlighted != 0 ||
					!slices.Equal(s.Expect.States, []contract.ScreenState{contract.ScreenQuestionnaire}) {
					t.Errorf("%s marker %d %v step %d: keys %q expect %+v, want %q %v", v, c.marker, c.pick, i, s.Keys, s.Expect, w.keys, w.checked)
				}
			}
			last := steps[len(steps)-1]
			if string(last.Keys) != "\t" || !slices.Equal(last.Expect.States, []contract.ScreenState{contract.ScreenConfirmation}) {
				t.Errorf("%s: last step %q %v, want Tab to the review", v, last.Keys, last.Expect.States)
			}
		}
	}
}

// TestMultiSelectRefusals: what no answer may name.
func TestMultiSelectRefusals(t *testing.T) {
	r := screentest.Recognize(screentest.MarkerScreen(t, "claude", "2.1.267", "multi-select", 0), "claude", "2.1.267")
	q := r.Interaction.Questions[0]
	ids := byLabel(q)
	single := screentest.Recognize(screentest.MarkerScreen(t, "claude", "2.1.267", "question-digit", 0), "claude", "2.1.267")
	for name, call := range map[string]func() error{
		"nothing": func() error { _, err := r.Plan.MultiSelect(q.QuestionID, nil); return err },
		"an option twice": func() error {
			_, err := r.Plan.MultiSelect(q.QuestionID, []string{ids["Cheese"], ids["Cheese"]})
			return err
		},
		"an unknown id":          func() error { _, err := r.Plan.MultiSelect(q.QuestionID, []string{"opt_nope"}); return err },
		"another question":       func() error { _, err := r.Plan.MultiSelect("q_other", []string{ids["Cheese"]}); return err },
		"a single-select's plan": func() error { _, err := single.Plan.MultiSelect(q.QuestionID, []string{ids["Cheese"]}); return err },
	} {
		if err := call(); !errors.Is(err, recognizers.ErrSelection) {
			t.Errorf("%s: %v, want ErrSelection", name, err)
		}
	}
	if _, ok := ids["Type something"]; ok {
		t.Errorf("the free-text row is offered in a multi-select: %v", q.Options)
	}
}

func byLabel(q contract.Question) map[string]string {
	m := map[string]string{}
	for _, o := range q.Options {
		m[o.Label] = o.OptionID
	}
	return m
}
