package rig

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
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

// claudeIdle waits for the idle composer with its full footer (in auto
// mode: the auto footer without the busy hint).
func claudeIdle(d *Driver) error {
	if d.scenario != nil && d.scenario.AgentMode {
		if err := d.Screen("❯", claudeAutoFooter); err != nil {
			return err
		}
		if err := d.ScreenGone(claudeBusyFooter); err != nil {
			return err
		}
		return d.Quiet(claudeQuiet)
	}
	if err := d.Screen("❯", claudeIdleFooter); err != nil {
		return err
	}
	return d.Quiet(claudeQuiet)
}

func markIdle(d *Driver) error { return d.Mark("idle", recordings.MarkerState{Composer: "empty"}) }

// claudePrompt types a prompt, waits until it shows in the composer, and
// submits it.
func claudePrompt(d *Driver, prompt string) error {
	if err := d.Type(prompt); err != nil {
		return err
	}
	if err := d.Screen("❯ " + prompt); err != nil {
		return err
	}
	return d.Key("Enter")
}

// claudeAsk submits a prompt whose reply is a tool call and waits until
// the model's reply is complete and in the transcript.
func claudeAsk(d *Driver, prompt, tool string) error {
	if err := claudeIdle(d); err != nil {
		return err
	}
	if err := claudePrompt(d, prompt); err != nil {
		return err
	}
	if _, err := d.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool }); err != nil {
		return err
	}
	return d.Journal("assistant "+tool+" tool_use", func(m map[string]any) bool {
		return m["type"] == "assistant" && strings.Contains(jsonString(m), `"name":"`+tool+`"`)
	})
}

// claudeTurnEnd waits for the end of the turn in the transcript and the
// idle screen.
func claudeTurnEnd(d *Driver, n int) error {
	if err := d.Journal("turn end", func(m map[string]any) bool { return countTurnEnds(d, n) }); err != nil {
		return err
	}
	return claudeIdle(d)
}

// claudeToolResult waits for the tool result in the transcript.
func claudeToolResult(d *Driver, isError bool) error {
	return d.Journal("tool_result", func(m map[string]any) bool {
		js := jsonString(m)
		return m["type"] == "user" && strings.Contains(js, `"tool_result"`) &&
			strings.Contains(js, `"is_error":true`) == isError
	})
}

func claudePermissionMarker(d *Driver) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions: []recordings.Question{{Header: "Bash command", Prompt: claudeProceed, Options: []string{
			"Yes", "Yes, and always allow access to " + d.Home.Work + " from this project",
			"Yes, and switch to auto mode", "No"}}},
		Highlighted: recordings.Index(0)}
}

func claudePermission(d *Driver) error {
	if err := claudeAsk(d, "run-touch", "Bash"); err != nil {
		return err
	}
	if err := d.Screen(claudeProceed, claudeDialogFooter, "touch fake-created.txt"); err != nil {
		return err
	}
	if err := d.Quiet(claudeQuiet); err != nil {
		return err
	}
	return d.Mark("awaiting_approval", claudePermissionMarker(d))
}

func claudeColorMarker(highlighted int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
		Questions: []recordings.Question{{Header: "Color", Prompt: "Which color should the button be?",
			Options: []string{"Red", "Green", "Blue", "Type something.", "Chat about this"}}},
		Highlighted: recordings.Index(highlighted)}
}

func claudeColor(d *Driver) error {
	if err := claudeAsk(d, "ask-color", "AskUserQuestion"); err != nil {
		return err
	}
	if err := d.Screen("Which color should the button be?", claudeSelectHint, "Chat about this"); err != nil {
		return err
	}
	if err := d.Quiet(claudeQuiet); err != nil {
		return err
	}
	return d.Mark("questionnaire", claudeColorMarker(0))
}

// then runs steps in order, stopping at the first error.
func then(steps ...func() error) error {
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func init() {
	register(
		&Scenario{Name: "idle", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(func() error { return claudeIdle(d) }, func() error { return markIdle(d) })
		}},
		&Scenario{Name: "idle-narrow", Agent: "claude", Width: 80, Height: 24, Script: claudeScript, Drive: func(d *Driver) error {
			return then(func() error { return claudeIdle(d) }, func() error { return markIdle(d) })
		}},
		&Scenario{Name: "draft", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeIdle(d) },
				func() error { return d.Type("a draft that is not sent") },
				func() error { return d.Screen("❯ a draft that is not sent") },
				func() error { return d.ScreenGone(claudeIdleFooter) },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("idle", recordings.MarkerState{Composer: "draft"}) },
			)
		}},
		&Scenario{Name: "working", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeIdle(d) },
				func() error { return claudePrompt(d, "slow-work please") },
				func() error { _, err := d.Started("slow-work"); return err },
				func() error { return d.Screen(claudeBusyFooter) },
				func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) },
			)
		}},
		&Scenario{Name: "send", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeIdle(d) },
				func() error { return claudePrompt(d, "hello there") },
				func() error { _, err := d.Request("prompt", nil); return err },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "permission-approve", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudePermission(d) },
				func() error { return d.Key("1") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "permission-reject", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudePermission(d) },
				func() error { return d.Key("4") },
				func() error { return claudeToolResult(d, true) },
				func() error { return claudeIdle(d) },
				// "Interrupted · What should Claude do instead?"
				func() error { return markInterrupted(d) },
			)
		}},
		&Scenario{Name: "permission-narrow", Agent: "claude", Width: 80, Height: 24, Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudePermission(d) },
				func() error { return d.Key("1") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "permission-resize", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudePermission(d) },
				func() error { return d.Resize(100, 30) },
				func() error { return d.Screen(claudeProceed, claudeDialogFooter) },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("awaiting_approval", claudePermissionMarker(d)) },
				func() error { return d.Key("1") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "question-digit", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeColor(d) },
				func() error { return d.Key("2") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "question-enter", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeColor(d) },
				func() error { return d.Key("Enter") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "question-escape", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeColor(d) },
				func() error { return d.Key("Escape") },
				func() error { return claudeToolResult(d, true) },
				func() error { return claudeIdle(d) },
				func() error { return markIdle(d) },
			)
		}},
	)
}
