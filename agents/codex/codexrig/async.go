package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The async question of Codex 0.154.0/0.155.1 (model gpt-6-astra offers
// request_user_input_async): the tool returns at once, the questions wait
// collapsed under the transcript until Alt+Up opens them. 0.171.0 shows
// them only while the turn runs (async_0_171.go).

const (
	codexAsyncCollapsed = "alt + ↑ to answer"
	codexAsyncOpen      = "ctrl + ] skip"
)

// codexAsyncVersions are the versions whose async question is recorded
// (0.153.4 has no request_user_input_async).
var codexAsyncVersions = []string{"0.154.0", "0.155.1", "0.171.0"}

// codexAsyncModel is a model each version offers request_user_input_async:
// gpt-6-astra on 0.154.0/0.155.1; on 0.171.0 the rig's own gpt-6-sol (""),
// whose bundled catalog entry lists "send_user_message_async" in
// "experimental_supported_tools", which 0.171.0 registers as
// request_user_input_async (a plain function beside code mode's `exec`).
// No feature flag or config gates it (`codex features list` has none).
func codexAsyncModel(version string) string {
	if codexCodeMode(version) {
		return ""
	}
	return "gpt-6-astra"
}

// codexAsyncQuestionScript: on 0.171.0 the model's reply after the async
// tool is held back (the questions live only while the turn runs).
func codexAsyncQuestionScript(version string) fakemodel.Script {
	if codexCodeMode(version) {
		return codexAsyncWorkingScript(version)
	}
	return codexScript(version)
}

func asyncScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, &rig.Scenario{Name: "async-question", Agent: "codex", Only: codexAsyncVersions,
		Model: codexAsyncModel, Script: codexAsyncQuestionScript, Drive: drive(asyncDrive(asyncQuestion, asyncQuestion171))})
	return out
}

// asyncDrive drives a version's async surface: code mode's
// (0.171.0, async_0_171.go) or the one before it.
func asyncDrive(before, codeMode func(steps)) func(steps) {
	return func(s steps) {
		if codexCodeMode(s.d.Version) {
			codeMode(s)
			return
		}
		before(s)
	}
}

// asyncQuestion: the questions collapsed after the turn's end, opened,
// the first answered by its digit (a turn of its own), the free-text one
// skipped.
func asyncQuestion(s steps) {
	color := recordings.Question{Prompt: "Which color should the widget use?"}
	s.ask("ask-async", "request_user_input_async")
	s.turnEnd(false)
	s.Screen(codexAsyncCollapsed)
	s.Mark("idle", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{color}})
	s.Key("M-Up")
	s.Screen(codexAsyncOpen, "Red", "Other")
	open := color
	open.Options = []string{"Red", "Green", "Blue", "Other"}
	s.Mark("async_question", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{open}, Highlighted: recordings.Index(0)})
	s.Key("2")
	s.Request("answer", nil)
	s.Journal("second task_complete", rig.NthLine(s.d, 2, rolloutHas("event_msg", "task_complete")))
	// The next question opens by itself: a free-text one.
	s.Screen("Anything else we should know?", "Type your answer", codexAsyncOpen)
	s.Mark("async_question", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{{Prompt: "Anything else we should know?"}}})
	s.Key("C-]")
	s.Gone(codexAsyncOpen)
	s.idle()
	s.MarkIdle()
}
