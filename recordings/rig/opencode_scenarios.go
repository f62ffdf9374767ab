package rig

import (
	"strings"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// OpenCode 1.18.33's permission dialog (measured in its TUI and read in
// its bundle): "△ Permission required" over the tool's title ("# Shell
// command", "→ Edit notes.txt") and what it would do, then three buttons
// "Allow once", "Allow always", "Reject", the first selected. ←/→ (h/l)
// move the selection, cyclically; Enter takes the selected button; Esc
// is bound to "Reject permission" (the same reply as the Reject button).
// "Allow always" opens a second stage ("△ Always allow": Confirm, Cancel;
// Esc goes back). Allow once runs the tool once; Reject fails the tool
// ("The user rejected permission to use this specific tool call.") and
// ends the turn with no further request to the model.
var openCodeOptions = []string{"Allow once", "Allow always", "Reject"}

func openCodeMarker(header string, lit int, actionable bool) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: actionable,
		Questions:   []recordings.Question{{Header: header, Prompt: "Permission required", Options: openCodeOptions}},
		Highlighted: recordings.Index(lit)}
}

// openCodeDialog is one tool's permission: the prompt that makes the
// fake model call it, the tool, the header and the text the dialog shows.
type openCodeDialog struct {
	prompt, tool, header, shows string
}

var (
	openCodeShell = openCodeDialog{"run-touch please", "bash", "Shell command", "$ touch fake-created.txt"}
	openCodeWrite = openCodeDialog{"write-notes please", "write", "Edit notes.txt", "1 + written by the fake model"}
)

// open submits the prompt, waits for the call and the dialog, and marks
// it.
func (o openCodeDialog) open(s *sticky) {
	s.openCodeIdle()
	s.openCodePrompt(o.prompt)
	s.request(o.tool+" call", func(r fakemodel.Request) bool { return r.Tool == o.tool })
	s.screen(openCodePermTitle, o.header, o.shows, openCodeButtons)
	s.mark("awaiting_approval", openCodeMarker(o.header, 0, true))
}

// approved allows once with Enter: the tool runs, the after-tool reply
// ends the turn.
func (o openCodeDialog) approved(d *Driver) error {
	s := &sticky{d: d}
	o.open(s)
	s.key("Enter")
	s.do(func() error {
		return openCodeParts(d, o.tool+" completed", openCodePart("tool", `"status":"completed"`))
	})
	s.screen("Done: the tool has run.")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

// resized opens the dialog, shrinks the pane to 100x30 while it is up
// (as Claude Code's and Codex's permission-resize), marks the dialog
// OpenCode redraws at the new size, and allows once with Enter.
func (o openCodeDialog) resized(d *Driver) error {
	s := &sticky{d: d}
	o.open(s)
	s.resize(100, 30)
	s.screen(openCodePermTitle, o.header, o.shows, openCodeButtons)
	s.mark("awaiting_approval", openCodeMarker(o.header, 0, true))
	s.key("Enter")
	s.do(func() error {
		return openCodeParts(d, o.tool+" completed", openCodePart("tool", `"status":"completed"`))
	})
	s.screen("Done: the tool has run.")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

// rejected moves the selection to Reject with ← (from the first button
// it wraps to the last), marks it, and takes it with Enter; with escape,
// Esc instead.
func (o openCodeDialog) rejected(escape bool) func(d *Driver) error {
	return func(d *Driver) error {
		s := &sticky{d: d}
		o.open(s)
		if escape {
			s.key("Escape")
		} else {
			s.key("Left")
			s.mark("awaiting_approval", openCodeMarker(o.header, 2, false))
			s.key("Enter")
		}
		s.do(func() error {
			return openCodeParts(d, o.tool+" rejected", openCodePart("tool", `"status":"error"`, "rejected permission"))
		})
		s.openCodeIdle()
		s.markIdle()
		return s.err
	}
}

// always opens the "Allow always" stage (→, Enter), marks it, goes back
// with Esc, and allows once from the first stage.
func openCodeAlwaysStage(d *Driver) error {
	o := openCodeShell
	s := &sticky{d: d}
	o.open(s)
	s.key("Right")
	s.mark("awaiting_approval", openCodeMarker(o.header, 1, false))
	s.key("Enter")
	s.screen(openCodeAlways, "This will allow the following patterns until OpenCode is restarted", "- touch *", "Confirm   Cancel")
	s.quiet(openCodeQuiet)
	s.do(func() error {
		return d.Mark("awaiting_approval", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission")})
	})
	s.key("Escape")
	s.screen(openCodePermTitle, openCodeButtons)
	s.gone(openCodeAlways)
	s.mark("awaiting_approval", openCodeMarker(o.header, 0, true))
	s.key("Enter")
	s.openCodeParts("bash completed", openCodePart("tool", `"status":"completed"`))
	s.screen("Done: the tool has run.")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

var openCodeQuestion = recordings.Question{Prompt: "Which color should the button be?",
	Options: []string{"Red", "Green", "Blue", "Type your own answer"}}

// openCodeAsk asks the color question and marks it: four numbered rows
// (the model's three and "Type your own answer"), the first current;
// a digit answers at once, ↑↓ move, Enter takes the current row, Esc
// dismisses the question.
func openCodeAsk(s *sticky) {
	s.openCodeIdle()
	s.openCodePrompt("ask-color please")
	s.request("question call", func(r fakemodel.Request) bool { return r.Tool == "question" })
	s.screen("Which color should the button be?", "4. Type your own answer", "↑↓ select  enter submit  esc dismiss")
	s.quiet(openCodeQuiet)
	s.do(func() error {
		return s.d.Mark("questionnaire", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"),
			Actionable: true, Questions: []recordings.Question{openCodeQuestion}, Highlighted: recordings.Index(0)})
	})
}

func openCodeWorking(s *sticky) {
	s.openCodeIdle()
	s.openCodePrompt("slow-work please")
	s.started("slow-work")
	s.screen(openCodeBusy)
	// The spinner animates: marked at once.
	s.markNow("working", recordings.MarkerState{Composer: "empty"})
}

func openCodeIdleScenario(d *Driver) error {
	s := &sticky{d: d}
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

func openCodeDraft(d *Driver) error {
	s := &sticky{d: d}
	s.openCodeIdle()
	s.typ("a draft that is not sent")
	s.screen("┃  a draft that is not sent")
	s.gone("Ask anything")
	s.mark("idle", recordings.MarkerState{Composer: "draft"})
	return s.err
}

func openCodeSend(d *Driver) error {
	s := &sticky{d: d}
	s.openCodeIdle()
	s.openCodePrompt("hello there")
	s.request("prompt", nil)
	s.openCodeParts("reply", openCodePart("step-finish", `"reason":"stop"`))
	s.screen("Hello from the fake model")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

// openCodeCancel: the first Esc arms the interrupt ("esc again to
// interrupt"), the second stops the turn: the reply's footer reads
// "· interrupted".
func openCodeCancel(d *Driver) error {
	s := &sticky{d: d}
	openCodeWorking(s)
	s.key("Escape")
	s.screen(openCodeBusyAgain)
	s.markNow("working", recordings.MarkerState{Composer: "empty"})
	s.key("Escape")
	s.screen(openCodeInterrupt)
	s.openCodeIdle()
	s.markInterrupted()
	return s.err
}

func openCodeQuestionDigit(d *Driver) error {
	s := &sticky{d: d}
	openCodeAsk(s)
	s.key("2")
	s.do(func() error {
		return openCodeParts(d, "question answered", openCodePart("tool", `"tool":"question"`, `"status":"completed"`))
	})
	s.screen("Done: the tool has run.")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

func openCodeQuestionEscape(d *Driver) error {
	s := &sticky{d: d}
	openCodeAsk(s)
	s.key("Escape")
	s.do(func() error {
		return openCodeParts(d, "question dismissed", openCodePart("tool", `"tool":"question"`, `"status":"error"`))
	})
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

// openCodeQuotaError: a 403 OpenCode does not retry. It prints the
// error's message in a box of the error colour as the turn's reply (and
// for a few seconds in a toast over the top right corner), and waits at
// its composer: blocked until the next prompt, which goes through.
func openCodeQuotaError(d *Driver) error {
	const msg = "You exceeded your current quota"
	s := &sticky{d: d}
	s.openCodeIdle()
	s.openCodePrompt("quota-error please")
	s.request("the failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	// The box is drawn first, the toast a moment later; both go on until
	// the toast times out.
	s.do(func() error {
		return d.ScreenFunc("the error and its toast", func(t string) bool { return strings.Count(t, msg) == 2 })
	})
	s.do(func() error {
		return d.ScreenFunc("the error without its toast", func(t string) bool { return strings.Count(t, msg) == 1 })
	})
	s.openCodeIdle()
	s.markNow("blocked", recordings.MarkerState{Composer: "empty"})
	s.openCodePrompt("hello again")
	s.request("the next prompt", func(r fakemodel.Request) bool { return r.Status == 0 })
	s.screen("Hello from the fake model")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

// openCodeRateLimit: a 429 with retry-after 30 s, which OpenCode retries by
// itself; while it waits, the working row shows the error and "[retrying
// in Ns attempt #1]" in the error colour instead of its interrupt hint.
func openCodeRateLimit(d *Driver) error {
	s := &sticky{d: d}
	s.openCodeIdle()
	s.openCodePrompt("rate-limit please")
	s.request("the failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	s.screen("attempt #1]")
	s.markNow("working", recordings.MarkerState{Composer: "empty"})
	s.request("the retry", func(r fakemodel.Request) bool { return r.Status == 0 })
	s.screen("Answered after a retry.")
	s.openCodeIdle()
	s.markIdle()
	return s.err
}

func init() {
	sc := func(name string, drive func(*Driver) error) *Scenario {
		return &Scenario{Name: name, Agent: "opencode", Script: openCodeScript, Drive: drive}
	}
	register(
		sc("idle", openCodeIdleScenario),
		sc("draft", openCodeDraft),
		sc("working", func(d *Driver) error { s := &sticky{d: d}; openCodeWorking(s); return s.err }),
		sc("send", openCodeSend),
		sc("cancel", openCodeCancel),
		sc("permission-approve", openCodeShell.approved),
		sc("permission-resize", openCodeShell.resized),
		sc("permission-reject", openCodeShell.rejected(false)),
		sc("permission-escape", openCodeShell.rejected(true)),
		sc("permission-always", openCodeAlwaysStage),
		sc("edit-approve", openCodeWrite.approved),
		sc("edit-reject", openCodeWrite.rejected(false)),
		sc("question-digit", openCodeQuestionDigit),
		sc("question-escape", openCodeQuestionEscape),
		sc("api-error-403", openCodeQuotaError),
		sc("api-retry-429", openCodeRateLimit),
	)
}
