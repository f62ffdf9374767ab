package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's multi-question flow answered to the end (issue 19): the last
// question shown once every question is answered. The model asks two
// questions (ask-multi). Answering the first and moving on leaves the
// second unanswered ("Question 2/2 (1 unanswered)"); the last question
// with every answer given is reached only when it was answered first:
// the person moves to question 2 (→) and answers it by its digit, which
// asks "Submit with unanswered questions?"; "Go back" returns to question
// 1, whose digit answers it and moves on to question 2, now "Question
// 2/2" with no count, its answer highlighted, the footer "enter to submit
// all". Its digit "1" answers it again (Small for Large) and submits
// both. question-unanswered proceeds with question 1 unanswered.

// codexMultiMarker is the ground truth of question i (0-based) of
// codexMultiQ with row h highlighted: its prompt, its options and
// Codex's own "None of the above".
func codexMultiMarker(i, h int) recordings.MarkerState {
	q := codexMultiQ[i].(map[string]any)
	var opts []string
	for _, o := range q["options"].([]any) {
		opts = append(opts, o.(map[string]any)["label"].(string))
	}
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
		Questions:   []recordings.Question{{Prompt: q["question"].(string), Options: append(opts, "None of the above")}},
		Highlighted: recordings.Index(h)}
}

// codexUnansweredMarker is "Submit with unanswered questions?" with row h
// highlighted.
func codexUnansweredMarker(h int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("confirmation"), Actionable: true,
		Questions:   []recordings.Question{{Prompt: "Submit with unanswered questions?", Options: []string{"Proceed", "Go back"}}},
		Highlighted: recordings.Index(h)}
}

func codexSubmitAll(s steps) {
	const color, size = "Which color should the widget use?", "How big should it be?"
	s.ask("ask-multi", "request_user_input")
	// No marker before →: moving to another question is not an answer
	// akk plans (as in question-unanswered).
	s.Screen(color, "Question 1/2 (2 unanswered)", codexQuestionEnd)
	s.Quiet(codexQuiet)
	s.Key("Right")
	s.Screen(size, "Question 2/2 (2 unanswered)", "enter to submit all")
	s.Mark("questionnaire", codexMultiMarker(1, 0))
	s.Key("2") // Large; question 1 is unanswered
	s.Screen("Submit with unanswered questions?", "Go back")
	s.Mark("confirmation", codexUnansweredMarker(0))
	s.Key("2") // here a digit only moves the highlight
	s.Screen("› 2. Go back")
	s.Mark("confirmation", codexUnansweredMarker(1))
	s.Key("Enter")
	s.Screen(color, "Question 1/2 (1 unanswered)", codexQuestionEnd)
	s.Mark("questionnaire", codexMultiMarker(0, 0))
	s.Key("1") // Red: every question is answered
	s.Screen(size, "enter to submit all", "› 2. Large")
	s.Gone("unanswered")
	s.Mark("questionnaire", codexMultiMarker(1, 1))
	s.Key("1") // Small, submitting both
	s.toolOutput("Red", "Small")
	s.turnEnd(false)
	s.MarkIdle()
}

func submitAllScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, &rig.Scenario{Name: "question-submit-all", Agent: "codex", Script: codexScript, Drive: drive(codexSubmitAll)})
	return out
}
