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
	return WriteFile(filepath.Join(h.Home, ".gemini", "settings.json"),
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
func (s *Steps) geminiIdle() {
	s.Screen(geminiPlaceholder, geminiFooter)
	s.Gone(geminiBusy)
	s.Quiet(geminiQuiet)
}

// geminiPrompt types a prompt, waits until the composer shows it, leaves
// the paste window and submits it.
func (s *Steps) geminiPrompt(prompt string) {
	s.Type(prompt)
	s.Screen("> " + prompt)
	s.Pause(geminiEnterGap)
	s.Key("Enter")
}

// geminiChat matches a record of the chats file by its type and content.
func geminiChat(typ string, subs ...string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		if m["type"] != typ {
			return false
		}
		js := JSONString(m)
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
func (s *Steps) geminiAsk(prompt, tool string) {
	s.geminiIdle()
	s.geminiPrompt(prompt)
	s.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool })
	s.Journal("user prompt", geminiChat("user", prompt))
}

// geminiTurnEnd waits for the after-tool reply in the chats file and the
// idle screen.
func (s *Steps) geminiTurnEnd(text string) {
	s.Journal("model reply", geminiChat("gemini", text))
	s.geminiIdle()
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
func (s *Steps) geminiShell() {
	s.geminiAsk("run-touch please", "run_shell_command")
	s.Screen(geminiAllowShell, "touch fake-created.txt", "1. Allow once")
	s.Mark("awaiting_approval", geminiShellMarker())
}

// geminiShellResize: the shell dialog, then the pane shrinks to 100x30
// while it is up (as Claude Code's and Codex's permission-resize); Gemini
// redraws it at the new size, marked again, and it is allowed once.
func (s *Steps) geminiShellResize() {
	s.geminiShell()
	s.Resize(100, 30)
	s.Screen(geminiAllowShell, "touch fake-created.txt", "1. Allow once")
	s.Quiet(geminiQuiet)
	s.markResized()
}

// markResized marks the dialog Gemini redrew at the narrower
// size. Measured (0.61.0, 120x40 to 100x30): Gemini does not clear the
// screen when the pane narrows; its renderer erases as many rows as its
// last frame had, but tmux has already rewrapped each 120-column row of
// the old dialog into two, so the old dialog's top (its border, the
// "? Shell  touch fake-created.txt" title row and the command's box, ten
// rows) stays above the redrawn dialog until the next full clear. The
// profile refuses a dialog with another's title above it
// (stale_prompt_above): the live dialog then reads awaiting_approval,
// not actionable (manual_required), which is what it must read.
// The screen is read when the step runs.
func (s *Steps) markResized() {
	s.Do(func() error {
		m := geminiShellMarker()
		if strings.Count(s.d.ScreenText(), "? Shell  ") > 1 {
			m.Actionable = false
		}
		return s.d.Mark("awaiting_approval", m)
	})
}

// geminiEdit asks to write notes.txt and marks the dialog.
func (s *Steps) geminiEdit() {
	s.geminiAsk("write-notes please", "write_file")
	s.Screen(geminiApplyEdit, "notes.txt", "1. Allow once")
	s.Mark("awaiting_approval", geminiEditMarker())
}

// geminiRejected waits for the cancelled tool in the chats file and the
// "Request cancelled." note above the idle composer: blocked
// (interrupted), as the other agents' rejected approvals are.
func (s *Steps) geminiRejected(tool string) {
	s.Journal(tool+" cancelled", geminiChat("gemini", `"name":"`+tool+`"`, `"status":"cancelled"`))
	s.Screen(geminiCancelled)
	s.geminiIdle()
	s.MarkInterrupted()
}

// markSettled marks the idle composer, or, where Gemini's redraw left
// the footer it drew before the dialog standing over the new one (a pane
// too short for the dialog: permission-approve-h15), an unknown screen:
// nothing on it is a proven state (its rows are stale), so it must read
// as no state at all. The screen is read when the step runs.
func (s *Steps) markSettled() {
	s.Do(func() error {
		if strings.Count(s.d.ScreenText(), geminiFooterLabel) > 1 {
			return s.d.Mark("unknown", recordings.MarkerState{Composer: "absent"})
		}
		return s.d.Mark("idle", ComposerEmpty)
	})
}

// geminiAnswered opens a confirmation, allows it with key, waits for the
// turn's end and marks the screen with mark.
func geminiAnswered(open func(*Steps), key string, mark func(*Steps)) func(*Steps) {
	return func(s *Steps) {
		open(s)
		s.Key(key)
		s.geminiTurnEnd("Done: the tool has run.")
		mark(s)
	}
}

// geminiRefused opens a confirmation and refuses it with key: the tool is
// cancelled, and with it the request.
func geminiRefused(open func(*Steps), key, tool string) func(*Steps) {
	return func(s *Steps) {
		open(s)
		s.Key(key)
		s.geminiRejected(tool)
	}
}

// geminiAPIError: a request the API refuses with a 400 (not retried):
// the error, then "This request failed." above the idle composer read as
// blocked (api_error), as the other agents' API errors are; the next
// prompt goes through.
func geminiAPIError(s *Steps) {
	s.geminiIdle()
	s.geminiPrompt("fail-bad please")
	s.Request("failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	s.Journal("error", geminiChat("error", "API Error"))
	s.Screen("This request failed.")
	s.geminiIdle()
	s.MarkNow("blocked", recordings.MarkerState{Composer: "empty"})
	s.geminiPrompt("hello again")
	s.geminiTurnEnd("Hello from the fake model")
	s.MarkIdle()
}

// geminiQuestion: ask_user's "Answer Questions" dialog. The profile does
// not read it (yet): it must stay unknown, never actionable.
func geminiQuestion(s *Steps) {
	s.geminiAsk("ask-color please", "ask_user")
	s.Screen("Which color should the button be?", "Enter to select")
	s.Mark("unknown", recordings.MarkerState{Composer: "absent"})
}

// geminiWorking submits a slow prompt and marks the working row.
func (s *Steps) geminiWorking() {
	s.geminiIdle()
	s.geminiPrompt("slow-work please")
	s.Started("slow-work")
	s.Screen(geminiBusy)
	s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
}

func init() {
	apiErr := &Scenario{Name: "api-error", Agent: "gemini", Script: geminiScript, Drive: geminiAPIError}
	register(apiErr, Variant(apiErr, Colors256),
		&Scenario{Name: "question", Agent: "gemini", Script: geminiScript, Drive: geminiQuestion},
		&Scenario{Name: "idle", Agent: "gemini", Script: geminiScript, Drive: func(s *Steps) {
			s.geminiIdle()
			s.MarkIdle()
		}},
		&Scenario{Name: "draft", Agent: "gemini", Script: geminiScript, Drive: func(s *Steps) {
			s.geminiIdle()
			s.Type("a draft that is not sent")
			s.Screen("> a draft that is not sent")
			s.Gone(geminiPlaceholder)
			s.Mark("idle", recordings.MarkerState{Composer: "draft"})
		}},
		&Scenario{Name: "working", Agent: "gemini", Script: geminiScript, Drive: (*Steps).geminiWorking},
		&Scenario{Name: "cancel", Agent: "gemini", Script: geminiScript, Drive: func(s *Steps) {
			s.geminiWorking()
			s.Key("Escape")
			s.Journal("cancelled", geminiChat("info", geminiCancelled))
			s.Screen(geminiCancelled)
			s.geminiIdle()
			s.MarkInterrupted()
		}},
		&Scenario{Name: "send", Agent: "gemini", Script: geminiScript, Drive: func(s *Steps) {
			s.geminiIdle()
			s.geminiPrompt("hello there")
			s.Request("prompt", nil)
			s.geminiTurnEnd("Hello from the fake model")
			s.MarkIdle()
		}},
		&Scenario{Name: "permission-approve", Agent: "gemini", Script: geminiScript,
			Drive: geminiAnswered((*Steps).geminiShell, "1", (*Steps).markSettled)},
		&Scenario{Name: "permission-resize", Agent: "gemini", Script: geminiScript,
			Drive: geminiAnswered((*Steps).geminiShellResize, "1", (*Steps).markSettled)},
		&Scenario{Name: "permission-reject", Agent: "gemini", Script: geminiScript,
			Drive: geminiRefused((*Steps).geminiShell, "3", "run_shell_command")},
		&Scenario{Name: "permission-escape", Agent: "gemini", Script: geminiScript,
			Drive: geminiRefused((*Steps).geminiShell, "Escape", "run_shell_command")},
		&Scenario{Name: "edit-approve", Agent: "gemini", Script: geminiScript,
			Drive: geminiAnswered((*Steps).geminiEdit, "1", (*Steps).MarkIdle)},
		&Scenario{Name: "edit-reject", Agent: "gemini", Script: geminiScript,
			Drive: geminiRefused((*Steps).geminiEdit, "4", "write_file")},
	)
}
