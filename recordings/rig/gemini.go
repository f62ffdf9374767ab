package rig

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Gemini CLI's stable anchors (0.61): the composer's placeholder and the
// footer hint of the idle screen, the working row's hint, and the
// questions of its confirmation dialogs.
const (
	geminiPlaceholder = "Type your message or @path/to/file"
	geminiFooter      = "/model"
	geminiFooterLabel = "workspace (/directory)"
	geminiBusy        = "esc to cancel"
	geminiAllowShell  = "Allow execution of [Shell]?"
	geminiApplyEdit   = "Apply this change?"
	geminiCancelled   = "Request cancelled."
	geminiQuiet       = 300 * time.Millisecond
	// geminiEnterGap: Gemini CLI reads a burst of keys as a paste, where
	// Enter is a newline; the rig submits after a pause.
	geminiEnterGap = 300 * time.Millisecond
)

// geminiKey is the API key of the fake server (sent as x-goog-api-key).
const geminiKey = "fake-gemini-key-local"

// geminiEnv is Gemini CLI's whole environment. COLORTERM says what most
// terminals say (truecolor); without it the CLI adds a warning row (the
// colors256 variant records that).
func geminiEnv(h *Home, url string) []string {
	return []string{"HOME=" + h.Home, "TMPDIR=" + h.Tmp, "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin", "GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=" + geminiKey,
		"GEMINI_CLI_TRUST_WORKSPACE=true"}
}

// writeGeminiConfig writes ~/.gemini/settings.json: the API key as the
// auth method (else the CLI exits 41), no update check, no usage
// statistics or telemetry (docs/research/gemini-opencode-offline.md).
func writeGeminiConfig(h *Home) error {
	return writeFile(filepath.Join(h.Home, ".gemini", "settings.json"),
		`{"security":{"auth":{"selectedType":"gemini-api-key"}},`+
			`"general":{"disableAutoUpdate":true,"disableUpdateNag":true},`+
			`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`+"\n")
}

var geminiColorQ = map[string]any{"questions": []any{map[string]any{
	"question": "Which color should the button be?", "header": "Color", "type": "choice",
	"options": []any{
		map[string]any{"label": "Red", "description": "A warm, attention-grabbing color"},
		map[string]any{"label": "Green", "description": "Calm and positive"},
		map[string]any{"label": "Blue", "description": "Cool and trustworthy"},
	}}}}

func geminiScript(string) fakemodel.Script {
	return fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-touch", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "run_shell_command",
			Input: map[string]any{"command": "touch fake-created.txt", "description": "Create an empty file"}}}},
		{Word: "run-ls", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "run_shell_command",
			Input: map[string]any{"command": "ls -la", "description": "List the files in the workspace"}}}},
		{Word: "write-notes", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "write_file",
			Input: map[string]any{"file_path": "notes.txt", "content": "written by the fake model\n"}}}},
		{Word: "ask-color", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "ask_user", Input: geminiColorQ}}},
		{Word: "slow-work", Reply: fakemodel.Reply{Text: "This answer took a long time.", FirstDelay: 45 * time.Second}},
		// A 400 is not retried: the error shows at once.
		{Word: "fail-bad", Reply: fakemodel.Reply{Text: "Through after the API error."},
			Fail: &fakemodel.Failure{Kind: fakemodel.FailServerError, Status: 400}},
		{Word: "hello", Reply: fakemodel.Reply{Text: "Hello from the fake model on 127.0.0.1."}},
	}, AfterTool: func(result string, isError bool) fakemodel.Reply {
		return fakemodel.Reply{Text: "Done: the tool has run."}
	}}
}

// geminiIdle waits for the empty composer over its footer, and no
// working row ("? for shortcuts" is not drawn below 80 columns).
func geminiIdle(d *Driver) error {
	return then(
		func() error { return d.Screen(geminiPlaceholder, geminiFooter) },
		func() error { return d.ScreenGone(geminiBusy) },
		func() error { return d.Quiet(geminiQuiet) },
	)
}

// geminiPrompt types a prompt, waits until the composer shows it, leaves
// the paste window and submits it.
func geminiPrompt(d *Driver, prompt string) error {
	return then(
		func() error { return d.Type(prompt) },
		func() error { return d.Screen("> " + prompt) },
		func() error { d.Pause(geminiEnterGap); return nil },
		func() error { return d.Key("Enter") },
	)
}

// geminiChat matches a record of the chats file by its type and content.
func geminiChat(typ string, subs ...string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		if m["type"] != typ {
			return false
		}
		js := jsonString(m)
		for _, s := range subs {
			if !strings.Contains(js, s) {
				return false
			}
		}
		return true
	}
}

// geminiAsk submits a prompt whose reply is a call of tool and waits for
// the call in the chats file.
func geminiAsk(d *Driver, prompt, tool string) error {
	return then(
		func() error { return geminiIdle(d) },
		func() error { return geminiPrompt(d, prompt) },
		func() error {
			_, err := d.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool })
			return err
		},
		func() error { return d.Journal("user prompt", geminiChat("user", prompt)) },
	)
}

// geminiTurnEnd waits for the after-tool reply in the chats file and the
// idle screen.
func geminiTurnEnd(d *Driver, text string) error {
	return then(
		func() error { return d.Journal("model reply", geminiChat("gemini", text)) },
		func() error { return geminiIdle(d) },
	)
}

var (
	geminiShellOptions = []string{"Allow once", "Allow for this session", "No, suggest changes (esc)"}
	geminiEditOptions  = []string{"Allow once", "Allow for this session", "Modify with external editor", "No, suggest changes (esc)"}
)

func geminiShellMarker() recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions:   []recordings.Question{{Header: "Shell", Prompt: geminiAllowShell, Options: geminiShellOptions}},
		Highlighted: recordings.Index(0)}
}

func geminiEditMarker() recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions:   []recordings.Question{{Header: "WriteFile", Prompt: geminiApplyEdit, Options: geminiEditOptions}},
		Highlighted: recordings.Index(0)}
}

// geminiShell asks to run `touch fake-created.txt` and marks the dialog.
func geminiShell(d *Driver) error {
	return then(
		func() error { return geminiAsk(d, "run-touch please", "run_shell_command") },
		func() error { return d.Screen(geminiAllowShell, "touch fake-created.txt", "1. Allow once") },
		func() error { return d.Quiet(geminiQuiet) },
		func() error { return d.Mark("awaiting_approval", geminiShellMarker()) },
	)
}

// geminiShellResize: the shell dialog, then the pane shrinks to 100x30
// while it is up (as Claude Code's and Codex's permission-resize); Gemini
// redraws it at the new size, marked again, and it is allowed once.
func geminiShellResize(d *Driver) error {
	return then(
		func() error { return geminiShell(d) },
		func() error { return d.Resize(100, 30) },
		func() error { return d.Screen(geminiAllowShell, "touch fake-created.txt", "1. Allow once") },
		func() error { return d.Quiet(geminiQuiet) },
		func() error { return d.Mark("awaiting_approval", geminiResizedMarker(d)) },
	)
}

// geminiResizedMarker marks the dialog Gemini redrew at the narrower
// size. Measured (0.61.0, 120x40 to 100x30): Gemini does not clear the
// screen when the pane narrows; its renderer erases as many rows as its
// last frame had, but tmux has already rewrapped each 120-column row of
// the old dialog into two, so the old dialog's top (its border, the
// "? Shell  touch fake-created.txt" title row and the command's box, ten
// rows) stays above the redrawn dialog until the next full clear. The
// profile refuses a dialog with another's title above it
// (stale_prompt_above): the live dialog then reads awaiting_approval,
// not actionable (manual_required), which is what it must read.
func geminiResizedMarker(d *Driver) recordings.MarkerState {
	m := geminiShellMarker()
	if strings.Count(d.rec.ScreenText(), "? Shell  ") > 1 {
		m.Actionable = false
	}
	return m
}

// geminiEdit asks to write notes.txt and marks the dialog.
func geminiEdit(d *Driver) error {
	return then(
		func() error { return geminiAsk(d, "write-notes please", "write_file") },
		func() error { return d.Screen(geminiApplyEdit, "notes.txt", "1. Allow once") },
		func() error { return d.Quiet(geminiQuiet) },
		func() error { return d.Mark("awaiting_approval", geminiEditMarker()) },
	)
}

// geminiRejected waits for the cancelled tool in the chats file and the
// "Request cancelled." note above the idle composer: blocked
// (interrupted), as the other agents' rejected approvals are.
func geminiRejected(d *Driver, tool string) error {
	return then(
		func() error {
			return d.Journal(tool+" cancelled", geminiChat("gemini", `"name":"`+tool+`"`, `"status":"cancelled"`))
		},
		func() error { return d.Screen(geminiCancelled) },
		func() error { return geminiIdle(d) },
		func() error { return markInterrupted(d) },
	)
}

// markSettled marks the idle composer, or, where Gemini's redraw left
// the footer it drew before the dialog standing over the new one (a pane
// too short for the dialog: permission-approve-h15), an unknown screen:
// nothing on it is a proven state (its rows are stale), so it must read
// as no state at all.
func markSettled(d *Driver) error {
	if strings.Count(d.rec.ScreenText(), geminiFooterLabel) > 1 {
		return d.Mark("unknown", recordings.MarkerState{Composer: "absent"})
	}
	return markIdle(d)
}

// geminiAnswered opens a confirmation, allows it with key, waits for the
// turn's end and marks the screen with mark.
func geminiAnswered(open func(*Driver) error, key string, mark func(*Driver) error) func(*Driver) error {
	return func(d *Driver) error {
		return then(
			func() error { return open(d) },
			func() error { return d.Key(key) },
			func() error { return geminiTurnEnd(d, "Done: the tool has run.") },
			func() error { return mark(d) },
		)
	}
}

// geminiRefused opens a confirmation and refuses it with key: the tool is
// cancelled, and with it the request.
func geminiRefused(open func(*Driver) error, key, tool string) func(*Driver) error {
	return func(d *Driver) error {
		return then(
			func() error { return open(d) },
			func() error { return d.Key(key) },
			func() error { return geminiRejected(d, tool) },
		)
	}
}

func geminiIdleScenario(d *Driver) error {
	return then(func() error { return geminiIdle(d) }, func() error { return markIdle(d) })
}

// geminiAPIError: a request the API refuses with a 400 (not retried):
// the error, then "This request failed." above the idle composer read as
// blocked (api_error), as the other agents' API errors are; the next
// prompt goes through.
func geminiAPIError(d *Driver) error {
	return then(
		func() error { return geminiIdle(d) },
		func() error { return geminiPrompt(d, "fail-bad please") },
		func() error {
			_, err := d.Request("failure", func(r fakemodel.Request) bool { return r.Status != 0 })
			return err
		},
		func() error { return d.Journal("error", geminiChat("error", "API Error")) },
		func() error { return d.Screen("This request failed.") },
		func() error { return geminiIdle(d) },
		func() error { return d.Mark("blocked", recordings.MarkerState{Composer: "empty"}) },
		func() error { return geminiPrompt(d, "hello again") },
		func() error { return geminiTurnEnd(d, "Hello from the fake model") },
		func() error { return markIdle(d) },
	)
}

// geminiQuestion: ask_user's "Answer Questions" dialog. The profile does
// not read it (yet): it must stay unknown, never actionable.
func geminiQuestion(d *Driver) error {
	return then(
		func() error { return geminiAsk(d, "ask-color please", "ask_user") },
		func() error { return d.Screen("Which color should the button be?", "Enter to select") },
		func() error { return d.Quiet(geminiQuiet) },
		func() error { return d.Mark("unknown", recordings.MarkerState{Composer: "absent"}) },
	)
}

// geminiWorking submits a slow prompt and marks the working row.
func geminiWorking(d *Driver) error {
	return then(
		func() error { return geminiIdle(d) },
		func() error { return geminiPrompt(d, "slow-work please") },
		func() error { _, err := d.Started("slow-work"); return err },
		func() error { return d.Screen(geminiBusy) },
		func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) },
	)
}

func init() {
	apiErr := &Scenario{Name: "api-error", Agent: "gemini", Script: geminiScript, Drive: geminiAPIError}
	register(apiErr, variant(apiErr, "colors256"),
		&Scenario{Name: "question", Agent: "gemini", Script: geminiScript, Drive: geminiQuestion},
		&Scenario{Name: "idle", Agent: "gemini", Script: geminiScript, Drive: geminiIdleScenario},
		&Scenario{Name: "draft", Agent: "gemini", Script: geminiScript, Drive: func(d *Driver) error {
			return then(
				func() error { return geminiIdle(d) },
				func() error { return d.Type("a draft that is not sent") },
				func() error { return d.Screen("> a draft that is not sent") },
				func() error { return d.ScreenGone(geminiPlaceholder) },
				func() error { return d.Quiet(geminiQuiet) },
				func() error { return d.Mark("idle", recordings.MarkerState{Composer: "draft"}) },
			)
		}},
		&Scenario{Name: "working", Agent: "gemini", Script: geminiScript, Drive: geminiWorking},
		&Scenario{Name: "cancel", Agent: "gemini", Script: geminiScript, Drive: func(d *Driver) error {
			return then(
				func() error { return geminiWorking(d) },
				func() error { return d.Key("Escape") },
				func() error { return d.Journal("cancelled", geminiChat("info", geminiCancelled)) },
				func() error { return d.Screen(geminiCancelled) },
				func() error { return geminiIdle(d) },
				func() error { return markInterrupted(d) },
			)
		}},
		&Scenario{Name: "send", Agent: "gemini", Script: geminiScript, Drive: func(d *Driver) error {
			return then(
				func() error { return geminiIdle(d) },
				func() error { return geminiPrompt(d, "hello there") },
				func() error { _, err := d.Request("prompt", nil); return err },
				func() error { return geminiTurnEnd(d, "Hello from the fake model") },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "permission-approve", Agent: "gemini", Script: geminiScript, Drive: geminiAnswered(geminiShell, "1", markSettled)},
		&Scenario{Name: "permission-resize", Agent: "gemini", Script: geminiScript, Drive: geminiAnswered(geminiShellResize, "1", markSettled)},
		&Scenario{Name: "permission-reject", Agent: "gemini", Script: geminiScript, Drive: geminiRefused(geminiShell, "3", "run_shell_command")},
		&Scenario{Name: "permission-escape", Agent: "gemini", Script: geminiScript, Drive: geminiRefused(geminiShell, "Escape", "run_shell_command")},
		&Scenario{Name: "edit-approve", Agent: "gemini", Script: geminiScript, Drive: geminiAnswered(geminiEdit, "1", markIdle)},
		&Scenario{Name: "edit-reject", Agent: "gemini", Script: geminiScript, Drive: geminiRefused(geminiEdit, "4", "write_file")},
	)
}
