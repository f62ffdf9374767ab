package replaycheck

import (
	"bytes"

	"github.com/agent-knock-knock/akk/recognizers"
)

// PlanSends reports whether some choice of p sends exactly sent as its
// first step: its keys, or (a text step) some text followed by its keys
// or by nothing when the rig marked the draft before Enter; for a
// multi-select, the toggles of some selection, with or without the move
// to the review. Where the rig answered a prompt with sent, it proves the
// keys akk would send are the keys that had the recorded effect.
func PlanSends(p *recognizers.Plan, sent []byte) bool {
	if p == nil {
		return false
	}
	if p.Multi != nil {
		return multiSends(p, sent)
	}
	for _, c := range p.Choices {
		for _, steps := range [][]recognizers.PlanStep{c.Steps, c.Queue} { // an async answer's queue too
			if len(steps) == 0 {
				continue
			}
			st := steps[0]
			switch {
			case !st.Text && bytes.Equal(sent, st.Keys):
				return true
			case st.Text && printable(bytes.TrimSuffix(sent, st.Keys)):
				return true
			}
		}
	}
	return false
}

// printable: typed text, no control bytes.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return len(b) > 0
}

// multiSends tries every selection of a multi-select plan.
func multiSends(p *recognizers.Plan, sent []byte) bool {
	found := false
	Selections(p, func(_ []string, steps []recognizers.PlanStep) {
		var keys []byte
		for i, s := range steps {
			keys = append(keys, s.Keys...)
			if i == len(steps)-2 && bytes.Equal(keys, sent) {
				found = true // the rig marked the screen before the move to the review
			}
		}
		found = found || bytes.Equal(keys, sent)
	})
	return found
}

// Selections calls fn with every non-empty selection of a multi-select
// plan's options the plan accepts, and the steps that make it.
func Selections(p *recognizers.Plan, fn func(pick []string, steps []recognizers.PlanStep)) {
	var ids []string
	for _, c := range p.Choices {
		if c.Toggle != nil {
			ids = append(ids, c.OptionID)
		}
	}
	for set := 1; set < 1<<len(ids); set++ {
		var pick []string
		for i, id := range ids {
			if set&(1<<i) != 0 {
				pick = append(pick, id)
			}
		}
		if steps, err := p.MultiSelect(p.Multi.QuestionID, pick); err == nil {
			fn(pick, steps)
		}
	}
}
