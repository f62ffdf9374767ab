package recognizers

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/agent-knock-knock/akk/contract"
)

// A multi-select question is answered in one call: the options named end
// ticked, every other unticked, each flipped by its own key with a
// recapture after it that must show exactly the boxes so far, then the
// move to the review. The toggles live in the plan's Choices (Toggle);
// the rest is here.

// Boxes are a multi-select question's checkboxes, one per row but "Chat
// about this" (nil for any other prompt): what a toggle's recapture is
// compared with.
func (p *Prompt) Boxes() []bool {
	if p == nil || !p.MultiSelect || len(p.Questions) == 0 {
		return nil
	}
	var out []bool
	for _, o := range p.Questions[0].Options {
		if o.Role != RoleChat {
			out = append(out, o.Checked)
		}
	}
	return out
}

// MultiSpec is a profile's multi-select plan before ids exist.
type MultiSpec struct {
	Checked     []bool // every option's box as recognized
	Highlighted int    // the current row, which a toggle leaves alone
	Submit      []PlanStep
}

func (m *MultiSpec) plan(questionID string) *MultiPlan {
	return &MultiPlan{QuestionID: questionID, Checked: slices.Clone(m.Checked), Highlighted: m.Highlighted,
		Submit: m.Submit}
}

// MultiPlan is the private part of a multi-select question's plan.
type MultiPlan struct {
	QuestionID  string
	Checked     []bool
	Highlighted int
	Submit      []PlanStep
}

// String never prints keys.
func (m *MultiPlan) String() string {
	if m == nil {
		return "multi(none)"
	}
	return fmt.Sprintf("multi(%d options, redacted)", len(m.Checked))
}

// LogValue keeps the keys out of logs.
func (m *MultiPlan) LogValue() slog.Value { return slog.StringValue(m.String()) }

// ErrSelection: a multi-select answer names what the question does not
// offer, or nothing, or an option twice.
var ErrSelection = errors.New("not a selection this question offers")

// MultiSelect returns the native steps that leave exactly the options ids
// ticked and then submit the question to its review.
func (p *Plan) MultiSelect(questionID string, ids []string) ([]PlanStep, error) {
	if p == nil || p.Multi == nil || p.Multi.QuestionID != questionID {
		return nil, fmt.Errorf("%w: not a multi-select question", ErrSelection)
	}
	m := p.Multi
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: name at least one option", ErrSelection)
	}
	want := slices.Clone(m.Checked)
	toggles := make([]*Choice, len(want))
	for i := range p.Choices {
		c := &p.Choices[i]
		if c.Toggle != nil && c.QuestionID == questionID && c.Index >= 0 && c.Index < len(want) {
			toggles[c.Index] = c
			want[c.Index] = false
		}
	}
	for _, id := range ids {
		i := slices.IndexFunc(toggles, func(c *Choice) bool { return c != nil && c.OptionID == id })
		switch {
		case i < 0:
			return nil, fmt.Errorf("%w: an option id is not offered", ErrSelection)
		case want[i]:
			return nil, fmt.Errorf("%w: an option is named twice", ErrSelection)
		}
		want[i] = true
	}
	cur := slices.Clone(m.Checked)
	var steps []PlanStep
	for i, c := range toggles {
		if c == nil || cur[i] == want[i] {
			continue
		}
		cur[i] = want[i]
		steps = append(steps, PlanStep{Keys: c.Toggle, Expect: Expect{States: []contract.ScreenState{contract.ScreenQuestionnaire},
			Highlighted: m.Highlighted, Checked: slices.Clone(cur), SameQuestion: true}})
	}
	return append(steps, m.Submit...), nil
}
