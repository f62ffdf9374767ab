package codexrig

import (
	"encoding/json"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's stable anchors (0.153-0.155 and 0.171): the status line under
// the composer, the working row's hint, and the footers of its dialogs.
const (
	// the status line: "gpt-5.5 default · ~/project"; 0.171.0: "GPT-6-Sol
	// default · ~/project", after a turn "GPT-6-Sol default fast ·
	// ~/project · <thread title>"
	codexStatus      = "· ~/project"
	codexBusy        = "esc to interrupt"
	codexApproval    = "Would you like to run the following command?"
	codexApprovalEnd = "Press enter to confirm or esc to cancel"
	codexQuestionEnd = "enter to submit"
	codexQuiet       = 300 * time.Millisecond
	// codexEnterGap: Codex takes an Enter within ~120 ms of typed text as
	// a newline (paste burst detection).
	codexEnterGap = 400 * time.Millisecond
)

var (
	codexColorQ = []any{map[string]any{"id": "color", "header": "Color", "question": "Which color should the widget use?",
		"options": []any{
			map[string]any{"label": "Red (Recommended)", "description": "Warm and loud."},
			map[string]any{"label": "Green", "description": "Calm and natural."},
			map[string]any{"label": "Blue", "description": "Cool and corporate."},
		}}}
	codexMultiQ = []any{
		map[string]any{"id": "color", "header": "Color", "question": "Which color should the widget use?",
			"options": []any{map[string]any{"label": "Red", "description": "Warm."}, map[string]any{"label": "Blue", "description": "Cool."}}},
		map[string]any{"id": "size", "header": "Size", "question": "How big should it be?",
			"options": []any{map[string]any{"label": "Small", "description": "16px."}, map[string]any{"label": "Large", "description": "64px."}}},
	}
)

// codexCodeMode: from 0.171 the rig runs gpt-6-sol, whose catalog offers
// no exec_command function: shell commands go through the freeform `exec`
// tool (JavaScript calling tools.exec_command), as a custom_tool_call.
func codexCodeMode(version string) bool { return rig.VersionAtLeast(version, "0.171.0") }

// codexShellTool is the tool the fake model calls to run `ls -la`: exec
// in code mode, unless the scenario's model is one Codex has no metadata
// for (FallbackTools), which gets exec_command on every version.
func codexShellTool(version string, sc *rig.Scenario) string {
	if codexCodeMode(version) && (sc == nil || !sc.FallbackTools) {
		return "exec"
	}
	return "exec_command"
}

func codexScript(version string) fakemodel.Script { return codexScriptMode(codexCodeMode(version)) }

// codexScriptMode is codexScript with run-ls calling exec (code mode) or
// exec_command.
func codexScriptMode(codeMode bool) fakemodel.Script {
	exec := map[string]any{"cmd": "ls -la", "sandbox_permissions": "require_escalated",
		"justification": "Fake model wants to list the files in the workspace."}
	shell := &fakemodel.ToolCall{Name: "exec_command", Input: exec}
	if codeMode {
		js, _ := json.Marshal(exec)
		shell = &fakemodel.ToolCall{Name: "exec", Custom: true,
			Input: "const r = await tools.exec_command(" + string(js) + ");\ntext(r.output);\n"}
	}
	return fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-ls", Reply: fakemodel.Reply{Tool: shell}},
		{Word: "ask-color", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "request_user_input",
			Input: map[string]any{"questions": codexColorQ}}}},
		{Word: "ask-multi", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "request_user_input",
			Input: map[string]any{"questions": codexMultiQ}}}},
		{Word: "ask-async", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "request_user_input_async",
			Input: map[string]any{"questions": []any{
				map[string]any{"title": "Which color should the widget use?", "options": []string{"Red", "Green", "Blue"}},
				map[string]any{"title": "Anything else we should know?"}}}}}},
		{Word: "slow-work", Reply: fakemodel.Reply{Text: "This answer took a long time.", FirstDelay: 45 * time.Second}},
		{Word: "hello", Reply: fakemodel.Reply{Text: "Hello from the fake model on 127.0.0.1."}},
	}}
}

// idle waits for the composer and its status line.
func (s steps) idle() {
	s.Screen("› ", codexStatus)
	s.Gone(codexBusy)
	s.Quiet(codexQuiet)
}

// prompt types a prompt, waits until it shows, leaves the paste-burst
// window, and submits it.
func (s steps) prompt(prompt string) {
	s.Type(prompt)
	s.Screen("› " + prompt)
	s.Pause(codexEnterGap)
	s.Key("Enter")
}

// rolloutHas matches a rollout line by its type and payload type.
func rolloutHas(typ, payloadType string, subs ...string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		p, _ := m["payload"].(map[string]any)
		if m["type"] != typ || p == nil || p["type"] != payloadType {
			return false
		}
		return rig.JSONHas(m, subs...)
	}
}

// ask submits a prompt whose reply is a tool call and waits until
// the call is complete and in the rollout.
func (s steps) ask(prompt, tool string) {
	s.idle()
	s.prompt(prompt)
	s.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool })
	call, custom := rolloutHas("response_item", "function_call", `"name":"`+tool+`"`),
		rolloutHas("response_item", "custom_tool_call", `"name":"`+tool+`"`)
	s.Journal("function_call "+tool, func(m map[string]any) bool { return call(m) || custom(m) })
}

// turnEnd waits for n task_complete (or, aborted, turn_aborted) lines
// and the idle screen.
func (s steps) turnEnd(aborted bool) {
	kind := "task_complete"
	if aborted {
		kind = "turn_aborted"
	}
	s.Journal(kind, rolloutHas("event_msg", kind))
	s.idle()
}

// toolOutput waits for the tool's output in the rollout (a
// custom_tool_call_output for code mode's exec).
func (s steps) toolOutput(subs ...string) {
	fn, custom := rolloutHas("response_item", "function_call_output", subs...),
		rolloutHas("response_item", "custom_tool_call_output", subs...)
	s.Journal("function_call_output", func(m map[string]any) bool { return fn(m) || custom(m) })
}

func codexApprovalMarker() recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions: []recordings.Question{{Prompt: codexApproval, Options: []string{
			"Yes, proceed", "Yes, and don't ask again for commands that start with `ls -la`",
			"No, and tell Codex what to do differently"}}},
		Highlighted: recordings.Index(0)}
}

// approve asks to run `ls -la` and marks the exec overlay.
func (s steps) approve() {
	s.ask("run-ls", codexShellTool(s.d.Version, s.d.Scenario()))
	s.Screen(codexApproval, codexApprovalEnd, "$ ls -la")
	s.Mark("awaiting_approval", codexApprovalMarker())
}

func codexColorMarker(highlighted int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
		Questions: []recordings.Question{{Prompt: "Which color should the widget use?",
			Options: []string{"Red (Recommended)", "Green", "Blue", "None of the above"}}},
		Highlighted: recordings.Index(highlighted)}
}

// color asks the color question and marks it.
func (s steps) color() {
	s.ask("ask-color", "request_user_input")
	s.Screen("Which color should the widget use?", "None of the above", codexQuestionEnd)
	s.Mark("questionnaire", codexColorMarker(0))
}

// approveThen: after the key, the tool's output (with subs) in the
// rollout, the turn's end and the idle screen, marked.
func (s steps) approveThen(key string, subs ...string) {
	s.Key(key)
	s.toolOutput(subs...)
	s.turnEnd(false)
	s.MarkIdle()
}

// refused: after the key, the aborted turn and the idle composer
// under the interruption note ("■ Conversation interrupted ..."), marked.
func (s steps) refused(key string) {
	s.Key(key)
	s.turnEnd(true)
	s.MarkInterrupted()
}

// draft types a draft into the idle composer and marks it.
func (s steps) draft() {
	s.idle()
	s.Type("a draft that is not sent")
	s.Screen("› a draft that is not sent")
	s.Mark("idle", recordings.MarkerState{Composer: "draft"})
}

// codexDraftScenario is the draft, the base of draft-bwrap (matrix.go).
var codexDraftScenario = &rig.Scenario{Name: "draft", Agent: "codex", Script: codexScript, Drive: drive(steps.draft)}

func basicScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	idle := func(s steps) {
		s.idle()
		s.MarkIdle()
	}
	approve := func(s steps) {
		s.approve()
		s.approveThen("y")
	}
	answer := func(key string) func(s steps) {
		return func(s steps) {
			s.color()
			s.approveThen(key)
		}
	}
	out = append(out,
		&rig.Scenario{Name: "idle", Agent: "codex", Script: codexScript, Drive: drive(idle)},
		&rig.Scenario{Name: "idle-narrow", Agent: "codex", Width: 80, Height: 24, Script: codexScript, Drive: drive(idle)},
		codexDraftScenario,
		&rig.Scenario{Name: "working", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("slow-work please")
			s.Started("slow-work")
			s.Journal("task_started", rolloutHas("event_msg", "task_started"))
			s.Screen(codexBusy)
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
		})},
		&rig.Scenario{Name: "send", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("hello there")
			s.Request("prompt", nil)
			s.turnEnd(false)
			s.MarkIdle()
		})},
		&rig.Scenario{Name: "permission-approve", Agent: "codex", Script: codexScript, Drive: drive(approve)},
		&rig.Scenario{Name: "permission-narrow", Agent: "codex", Width: 80, Height: 24, Script: codexScript, Drive: drive(approve)},
		&rig.Scenario{Name: "permission-reject", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.approve()
			s.refused("Escape")
		})},
		&rig.Scenario{Name: "permission-resize", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.approve()
			s.Resize(100, 30)
			s.Screen(codexApproval, codexApprovalEnd)
			s.Mark("awaiting_approval", codexApprovalMarker())
			s.approveThen("y")
		})},
		&rig.Scenario{Name: "question-digit", Agent: "codex", Script: codexScript, Drive: drive(answer("2"))},
		&rig.Scenario{Name: "question-enter", Agent: "codex", Script: codexScript, Drive: drive(answer("Enter"))},
		&rig.Scenario{Name: "question-escape", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.color()
			s.refused("Escape")
		})},
		&rig.Scenario{Name: "question-notes", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.color()
			s.Key("Down")
			s.Key("Down")
			s.Key("Down")
			s.Screen("› 4. None of the above")
			s.Mark("questionnaire", codexColorMarker(3))
			s.Key("Tab")
			s.Screen("Add notes")
			s.Mark("free_text", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("free_text"), Actionable: true,
				Questions: []recordings.Question{{Prompt: "Which color should the widget use?"}}})
			s.Type("Purple please")
			s.Screen("Purple please")
			s.Pause(codexEnterGap)
			s.approveThen("Enter", "user_note: Purple please")
		})},
		&rig.Scenario{Name: "question-unanswered", Agent: "codex", Script: codexScript, Drive: drive(func(s steps) {
			s.ask("ask-multi", "request_user_input")
			s.Screen("Which color should the widget use?", "Question 1/2")
			s.Quiet(codexQuiet)
			s.Key("Right")
			s.Screen("How big should it be?")
			s.Key("Enter")
			s.Screen("Submit with unanswered questions?", "Proceed", "Go back")
			s.Mark("confirmation", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("confirmation"),
				Actionable: true, Questions: []recordings.Question{{Prompt: "Submit with unanswered questions?",
					Options: []string{"Proceed", "Go back"}}}, Highlighted: recordings.Index(0)})
			s.approveThen("Enter")
		})},
	)
	return out
}
