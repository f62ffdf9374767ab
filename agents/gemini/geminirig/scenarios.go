package geminirig

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
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

// idle waits for the empty composer over its footer, and no
// working row ("? for shortcuts" is not drawn below 80 columns).
func (s steps) idle() {
	s.Screen(geminiPlaceholder, geminiFooter)
	s.Gone(geminiBusy)
	s.Quiet(geminiQuiet)
}

// prompt types a prompt, waits until the composer shows it, leaves
// the paste window and submits it.
func (s steps) prompt(prompt string) {
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
		return rig.JSONHas(m, subs...)
	}
}

// ask submits a prompt whose reply is a call of tool and waits for
// the call in the chats file.
func (s steps) ask(prompt, tool string) {
	s.idle()
	s.prompt(prompt)
	s.Request(tool+" call", func(r fakemodel.Request) bool { return r.Tool == tool })
	s.Journal("user prompt", geminiChat("user", prompt))
}

// turnEnd waits for the after-tool reply in the chats file and the
// idle screen.
func (s steps) turnEnd(text string) {
	s.Journal("model reply", geminiChat("gemini", text))
	s.idle()
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

// shell asks to run `touch fake-created.txt` and marks the dialog.
func (s steps) shell() {
	s.ask("run-touch please", "run_shell_command")
	s.Screen(geminiAllowShell, "touch fake-created.txt", "1. Allow once")
	s.Mark("awaiting_approval", geminiShellMarker())
}

// shellResize: the shell dialog, then the pane shrinks to 100x30
// while it is up (as Claude Code's and Codex's permission-resize); Gemini
// redraws it at the new size, marked again, and it is allowed once.
func (s steps) shellResize() {
	s.shell()
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
func (s steps) markResized() {
	s.Do(func() error {
		m := geminiShellMarker()
		if strings.Count(s.d.ScreenText(), "? Shell  ") > 1 {
			m.Actionable = false
		}
		return s.d.Mark("awaiting_approval", m)
	})
}

// edit asks to write notes.txt and marks the dialog.
func (s steps) edit() {
	s.ask("write-notes please", "write_file")
	s.Screen(geminiApplyEdit, "notes.txt", "1. Allow once")
	s.Mark("awaiting_approval", geminiEditMarker())
}

// rejected waits for the cancelled tool in the chats file and the
// "Request cancelled." note above the idle composer: blocked
// (interrupted), as the other agents' rejected approvals are.
func (s steps) rejected(tool string) {
	s.Journal(tool+" cancelled", geminiChat("gemini", `"name":"`+tool+`"`, `"status":"cancelled"`))
	s.Screen(geminiCancelled)
	s.idle()
	s.MarkInterrupted()
}

// markSettled marks the idle composer, or, where Gemini's redraw left
// the footer it drew before the dialog standing over the new one (a pane
// too short for the dialog: permission-approve-h15), an unknown screen:
// nothing on it is a proven state (its rows are stale), so it must read
// as no state at all. The screen is read when the step runs.
func (s steps) markSettled() {
	s.Do(func() error {
		if strings.Count(s.d.ScreenText(), geminiFooterLabel) > 1 {
			return s.d.Mark("unknown", recordings.MarkerState{Composer: "absent"})
		}
		return s.d.Mark("idle", rig.ComposerEmpty)
	})
}

// answered opens a confirmation, allows it with key, waits for the
// turn's end and marks the screen with mark.
func answered(open func(steps), key string, mark func(steps)) func(steps) {
	return func(s steps) {
		open(s)
		s.Key(key)
		s.turnEnd("Done: the tool has run.")
		mark(s)
	}
}

// refused opens a confirmation and refuses it with key: the tool is
// cancelled, and with it the request.
func refused(open func(steps), key, tool string) func(steps) {
	return func(s steps) {
		open(s)
		s.Key(key)
		s.rejected(tool)
	}
}

// apiError: a request the API refuses with a 400 (not retried):
// the error, then "This request failed." above the idle composer read as
// blocked (api_error), as the other agents' API errors are; the next
// prompt goes through.
func apiError(s steps) {
	s.idle()
	s.prompt("fail-bad please")
	s.Request("failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	s.Journal("error", geminiChat("error", "API Error"))
	s.Screen("This request failed.")
	s.idle()
	s.MarkNow("blocked", recordings.MarkerState{Composer: "empty"})
	s.prompt("hello again")
	s.turnEnd("Hello from the fake model")
	s.MarkIdle()
}

// question: ask_user's "Answer Questions" dialog. The profile does
// not read it (yet): it must stay unknown, never actionable.
func question(s steps) {
	s.ask("ask-color please", "ask_user")
	s.Screen("Which color should the button be?", "Enter to select")
	s.Mark("unknown", recordings.MarkerState{Composer: "absent"})
}

// working submits a slow prompt and marks the working row.
func (s steps) working() {
	s.idle()
	s.prompt("slow-work please")
	s.Started("slow-work")
	s.Screen(geminiBusy)
	s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
}

// scenarios are Gemini CLI's scenarios (the matrix adds its variants).
func scenarios() []*rig.Scenario {
	apiErr := &rig.Scenario{Name: "api-error", Agent: "gemini", Script: geminiScript, Drive: drive(apiError)}
	return []*rig.Scenario{apiErr, rig.Variant(apiErr, rig.Colors256),
		&rig.Scenario{Name: "question", Agent: "gemini", Script: geminiScript, Drive: drive(question)},
		&rig.Scenario{Name: "idle", Agent: "gemini", Script: geminiScript, Drive: drive(func(s steps) {
			s.idle()
			s.MarkIdle()
		})},
		&rig.Scenario{Name: "draft", Agent: "gemini", Script: geminiScript, Drive: drive(func(s steps) {
			s.idle()
			s.Type("a draft that is not sent")
			s.Screen("> a draft that is not sent")
			s.Gone(geminiPlaceholder)
			s.Mark("idle", recordings.MarkerState{Composer: "draft"})
		})},
		&rig.Scenario{Name: "working", Agent: "gemini", Script: geminiScript, Drive: drive(steps.working)},
		&rig.Scenario{Name: "cancel", Agent: "gemini", Script: geminiScript, Drive: drive(func(s steps) {
			s.working()
			s.Key("Escape")
			s.Journal("cancelled", geminiChat("info", geminiCancelled))
			s.Screen(geminiCancelled)
			s.idle()
			s.MarkInterrupted()
		})},
		&rig.Scenario{Name: "send", Agent: "gemini", Script: geminiScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("hello there")
			s.Request("prompt", nil)
			s.turnEnd("Hello from the fake model")
			s.MarkIdle()
		})},
		&rig.Scenario{Name: "permission-approve", Agent: "gemini", Script: geminiScript,
			Drive: drive(answered(steps.shell, "1", steps.markSettled))},
		&rig.Scenario{Name: "permission-resize", Agent: "gemini", Script: geminiScript,
			Drive: drive(answered(steps.shellResize, "1", steps.markSettled))},
		&rig.Scenario{Name: "permission-reject", Agent: "gemini", Script: geminiScript,
			Drive: drive(refused(steps.shell, "3", "run_shell_command"))},
		&rig.Scenario{Name: "permission-escape", Agent: "gemini", Script: geminiScript,
			Drive: drive(refused(steps.shell, "Escape", "run_shell_command"))},
		&rig.Scenario{Name: "edit-approve", Agent: "gemini", Script: geminiScript,
			Drive: drive(answered(steps.edit, "1", steps.MarkIdle))},
		&rig.Scenario{Name: "edit-reject", Agent: "gemini", Script: geminiScript,
			Drive: drive(refused(steps.edit, "4", "write_file"))},
	}
}
