package rig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// The async question of Codex 0.154.0/0.155.1 (model gpt-6-astra offers
// request_user_input_async): the tool returns at once, the questions wait
// collapsed under the transcript until Alt+Up opens them. 0.171.0 shows
// them only while the turn runs (codex_async_0_171.go).

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

func init() {
	register(&Scenario{Name: "async-question", Agent: "codex", Only: codexAsyncVersions,
		Model: codexAsyncModel, Script: codexAsyncQuestionScript, Drive: func(d *Driver) error {
			if codexCodeMode(d.Version) {
				return asyncQuestion171(d)
			}
			color := recordings.Question{Prompt: "Which color should the widget use?"}
			return then(
				func() error { return codexAsk(d, "ask-async", "request_user_input_async") },
				func() error { return codexTurnEnd(d, false) },
				func() error { return d.Screen(codexAsyncCollapsed) },
				func() error { return d.Quiet(codexQuiet) },
				func() error {
					return d.Mark("idle", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
						Actionable: true, Questions: []recordings.Question{color}})
				},
				func() error { return d.Key("M-Up") },
				func() error { return d.Screen(codexAsyncOpen, "Red", "Other") },
				func() error { return d.Quiet(codexQuiet) },
				func() error {
					open := color
					open.Options = []string{"Red", "Green", "Blue", "Other"}
					return d.Mark("async_question", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("async_question"),
						Actionable: true, Questions: []recordings.Question{open}, Highlighted: recordings.Index(0)})
				},
				func() error { return d.Key("2") },
				func() error { _, err := d.Request("answer", nil); return err },
				func() error {
					return d.Journal("second task_complete", nthLine(d, 2, rolloutHas("event_msg", "task_complete")))
				},
				// The next question opens by itself: a free-text one.
				func() error { return d.Screen("Anything else we should know?", "Type your answer", codexAsyncOpen) },
				func() error { return d.Quiet(codexQuiet) },
				func() error {
					return d.Mark("async_question", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
						Actionable: true, Questions: []recordings.Question{{Prompt: "Anything else we should know?"}}})
				},
				func() error { return d.Key("C-]") },
				func() error { return d.ScreenGone(codexAsyncOpen) },
				func() error { return codexIdle(d) },
				func() error { return codexMarkIdle(d) },
			)
		}})
}
