package clauderig

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's stable anchors (2.1.26x and 2.1.332): the idle footer, the
// footer while a turn runs, and the hints of its dialogs. 2.1.332 frames the
// Bash command between ╌ rules, under its description; the anchors below
// do not depend on that order.
const (
	claudeIdleFooter   = "? for shortcuts"
	claudeBusyFooter   = "esc to interrupt"
	claudeProceed      = "Do you want to proceed?"
	claudeDialogFooter = "Esc to cancel"
	claudeSelectHint   = "Enter to select"
	// claudeAutoFooter is the footer's mode chip in auto mode (2.1.332's
	// default): its idle footer has no "? for shortcuts".
	claudeAutoFooter = "auto mode on (shift+tab to cycle)"
	claudeQuiet      = 300 * time.Millisecond
)

var (
	claudeColorQ = map[string]any{"questions": []any{map[string]any{
		"question": "Which color should the button be?", "header": "Color", "multiSelect": false,
		"options": []any{
			map[string]any{"label": "Red", "description": "A warm, attention-grabbing color"},
			map[string]any{"label": "Green", "description": "Calm and positive"},
			map[string]any{"label": "Blue", "description": "Cool and trustworthy"},
		}}}}
	claudeMulti = map[string]any{"questions": []any{map[string]any{
		"question": "Which toppings do you want on the pizza?", "header": "Toppings", "multiSelect": true,
		"options": []any{
			map[string]any{"label": "Cheese", "description": "Extra mozzarella"},
			map[string]any{"label": "Mushrooms", "description": "Sliced champignons"},
			map[string]any{"label": "Olives", "description": "Black olives"},
		}}}}
	claudeMany = map[string]any{"questions": []any{
		map[string]any{"question": "Which language should the service use?", "header": "Language", "multiSelect": false,
			"options": []any{
				map[string]any{"label": "Go", "description": "Compiled, simple concurrency"},
				map[string]any{"label": "Rust", "description": "Memory safe, fast"}}},
		map[string]any{"question": "Which database should it use?", "header": "Database", "multiSelect": false,
			"options": []any{
				map[string]any{"label": "Postgres", "description": "Relational"},
				map[string]any{"label": "SQLite", "description": "Embedded file"}}},
	}}
)

func claudeScript(string) fakemodel.Script {
	return fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-touch", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "Bash",
			Input: map[string]any{"command": "touch fake-created.txt", "description": "Create an empty file"}}}},
		{Word: "ask-color", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "AskUserQuestion", Input: claudeColorQ}}},
		{Word: "ask-multi", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "AskUserQuestion", Input: claudeMulti}}},
		{Word: "ask-many", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "AskUserQuestion", Input: claudeMany}}},
		{Word: "slow-work", Reply: fakemodel.Reply{Text: "This answer took a long time.", FirstDelay: 45 * time.Second}},
		{Word: "hello", Reply: fakemodel.Reply{Text: "Hello! I am the fake model on 127.0.0.1."}},
	}}
}

// idle waits for the idle composer with its full footer (in auto
// mode: the auto footer without the busy hint).
func (s steps) idle() {
	if s.d.Scenario() != nil && s.d.Scenario().AgentMode {
		s.Screen("❯", claudeAutoFooter)
		s.Gone(claudeBusyFooter)
		s.Quiet(claudeQuiet)
		return
	}
	s.Screen("❯", claudeIdleFooter)
	s.Quiet(claudeQuiet)
}

// prompt types a prompt, waits until it shows in the composer, and
// submits it.
func (s steps) prompt(prompt string) {
	s.Type(prompt)
	s.Screen("❯ " + prompt)
	s.Key("Enter")
}

// ask submits a prompt whose reply is a tool call and waits until
// the model's reply is complete and in the transcript.
func (s steps) ask(prompt, tool string) {
	s.idle()
	s.prompt(prompt)
	s.toolUse(tool)
}

// toolUse waits for the model's call of tool, complete, and its
// tool_use in the transcript.
func (s steps) toolUse(tool string) {
	s.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool })
	s.Journal("assistant "+tool+" tool_use", func(m map[string]any) bool {
		return m["type"] == "assistant" && strings.Contains(rig.JSONString(m), `"name":"`+tool+`"`)
	})
}

// countTurnEnds reports whether the transcript has at least n turn ends
// (system turn_duration lines).
func countTurnEnds(d *rig.Driver, n int) bool {
	return rig.CountLines(d.JournalPath(), claudeTurnEndLine) >= n
}

// turnEnd waits for the end of the turn in the transcript and the
// idle screen.
func (s steps) turnEnd(n int) {
	s.Journal("turn end", func(m map[string]any) bool { return countTurnEnds(s.d, n) })
	s.idle()
}

// toolResult waits for the tool result in the transcript.
func (s steps) toolResult(isError bool) {
	s.Journal("tool_result", func(m map[string]any) bool {
		js := rig.JSONString(m)
		return m["type"] == "user" && strings.Contains(js, `"tool_result"`) &&
			strings.Contains(js, `"is_error":true`) == isError
	})
}

func claudePermissionMarker(d *rig.Driver) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions: []recordings.Question{{Header: "Bash command", Prompt: claudeProceed, Options: []string{
			"Yes", "Yes, and always allow access to " + d.Home.Work + " from this project",
			"Yes, and switch to auto mode", "No"}}},
		Highlighted: recordings.Index(0)}
}

// permission asks for `touch fake-created.txt` and marks the Bash
// dialog.
func (s steps) permission() {
	s.ask("run-touch", "Bash")
	s.Screen(claudeProceed, claudeDialogFooter, "touch fake-created.txt")
	s.Mark("awaiting_approval", claudePermissionMarker(s.d))
}

func claudeColorMarker(highlighted int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
		Questions: []recordings.Question{{Header: "Color", Prompt: "Which color should the button be?",
			Options: []string{"Red", "Green", "Blue", "Type something.", "Chat about this"}}},
		Highlighted: recordings.Index(highlighted)}
}

// color asks the color question and marks it.
func (s steps) color() {
	s.ask("ask-color", "AskUserQuestion")
	s.Screen("Which color should the button be?", claudeSelectHint, "Chat about this")
	s.Mark("questionnaire", claudeColorMarker(0))
}

// answered: after the key at a dialog, the tool's result, the
// turn's end and the idle screen, marked.
func (s steps) answered(key string) {
	s.Key(key)
	s.toolResult(false)
	s.turnEnd(1)
	s.MarkIdle()
}

// refused: after the key at a dialog, the tool's error result and
// the idle screen (not marked: what it shows above the composer
// differs).
func (s steps) refused(key string) {
	s.Key(key)
	s.toolResult(true)
	s.idle()
}

func basicScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	questionDigit := &rig.Scenario{Name: "question-digit", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
		s.color()
		s.answered("2")
	})}
	idle := func(s steps) {
		s.idle()
		s.MarkIdle()
	}
	out = append(out,
		&rig.Scenario{Name: "idle", Agent: "claude", Script: claudeScript, Drive: drive(idle)},
		&rig.Scenario{Name: "idle-narrow", Agent: "claude", Width: 80, Height: 24, Script: claudeScript, Drive: drive(idle)},
		&rig.Scenario{Name: "draft", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.idle()
			s.Type("a draft that is not sent")
			s.Screen("❯ a draft that is not sent")
			s.Gone(claudeIdleFooter)
			s.Mark("idle", recordings.MarkerState{Composer: "draft"})
		})},
		&rig.Scenario{Name: "working", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("slow-work please")
			s.Started("slow-work")
			s.Screen(claudeBusyFooter)
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
		})},
		&rig.Scenario{Name: "send", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("hello there")
			s.Request("prompt", nil)
			s.turnEnd(1)
			s.MarkIdle()
		})},
		&rig.Scenario{Name: "permission-approve", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.permission()
			s.answered("1")
		})},
		&rig.Scenario{Name: "permission-reject", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.permission()
			s.refused("4")
			s.MarkInterrupted() // "Interrupted · What should Claude do instead?"
		})},
		&rig.Scenario{Name: "permission-narrow", Agent: "claude", Width: 80, Height: 24, Script: claudeScript, Drive: drive(func(s steps) {
			s.permission()
			s.answered("1")
		})},
		&rig.Scenario{Name: "permission-resize", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.permission()
			s.Resize(100, 30)
			s.Screen(claudeProceed, claudeDialogFooter)
			s.Mark("awaiting_approval", claudePermissionMarker(s.d))
			s.answered("1")
		})},
		questionDigit,
		// The single-select question (issue 19: it came back unknown in
		// the light themes) in the themes that restyle it.
		rig.Variant(questionDigit, claudeThemeLight), rig.Variant(questionDigit, claudeThemeLightANSI),
		&rig.Scenario{Name: "question-enter", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.color()
			s.answered("Enter")
		})},
		&rig.Scenario{Name: "question-escape", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.color()
			s.refused("Escape")
			s.MarkIdle()
		})},
	)
	return out
}
