package opencoderig

import (
	"strings"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
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
func (o openCodeDialog) open(s steps) {
	s.idle()
	s.prompt(o.prompt)
	s.Request(o.tool+" call", func(r fakemodel.Request) bool { return r.Tool == o.tool })
	s.Screen(openCodePermTitle, o.header, o.shows, openCodeButtons)
	s.Mark("awaiting_approval", openCodeMarker(o.header, 0, true))
}

// approved allows once with Enter: the tool runs, the after-tool reply
// ends the turn.
func (o openCodeDialog) approved(s steps) {
	o.open(s)
	s.Key("Enter")
	s.parts(o.tool+" completed", openCodePart("tool", `"status":"completed"`))
	s.Screen("Done: the tool has run.")
	s.idle()
	s.MarkIdle()
}

// resized opens the dialog, shrinks the pane to 100x30 while it is up
// (as Claude Code's and Codex's permission-resize), marks the dialog
// OpenCode redraws at the new size, and allows once with Enter.
func (o openCodeDialog) resized(s steps) {
	o.open(s)
	s.Resize(100, 30)
	s.Screen(openCodePermTitle, o.header, o.shows, openCodeButtons)
	s.Mark("awaiting_approval", openCodeMarker(o.header, 0, true))
	s.Key("Enter")
	s.parts(o.tool+" completed", openCodePart("tool", `"status":"completed"`))
	s.Screen("Done: the tool has run.")
	s.idle()
	s.MarkIdle()
}

// rejected moves the selection to Reject with ← (from the first button
// it wraps to the last), marks it, and takes it with Enter; with escape,
// Esc instead.
func (o openCodeDialog) rejected(escape bool) func(s steps) {
	return func(s steps) {
		o.open(s)
		if escape {
			s.Key("Escape")
		} else {
			s.Key("Left")
			s.Mark("awaiting_approval", openCodeMarker(o.header, 2, false))
			s.Key("Enter")
		}
		s.parts(o.tool+" rejected", openCodePart("tool", `"status":"error"`, "rejected permission"))
		s.idle()
		s.MarkIdle()
	}
}

// always opens the "Allow always" stage (→, Enter), marks it, goes back
// with Esc, and allows once from the first stage.
func alwaysStage(s steps) {
	o := openCodeShell
	o.open(s)
	s.Key("Right")
	s.Mark("awaiting_approval", openCodeMarker(o.header, 1, false))
	s.Key("Enter")
	s.Screen(openCodeAlways, "This will allow the following patterns until OpenCode is restarted", "- touch *", "Confirm   Cancel")
	s.Quiet(openCodeQuiet)
	s.MarkNow("awaiting_approval", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission")})
	s.Key("Escape")
	s.Screen(openCodePermTitle, openCodeButtons)
	s.Gone(openCodeAlways)
	s.Mark("awaiting_approval", openCodeMarker(o.header, 0, true))
	s.Key("Enter")
	s.parts("bash completed", openCodePart("tool", `"status":"completed"`))
	s.Screen("Done: the tool has run.")
	s.idle()
	s.MarkIdle()
}

var openCodeQuestion = recordings.Question{Prompt: "Which color should the button be?",
	Options: []string{"Red", "Green", "Blue", "Type your own answer"}}

// askColor asks the color question and marks it: four numbered rows
// (the model's three and "Type your own answer"), the first current;
// a digit answers at once, ↑↓ move, Enter takes the current row, Esc
// dismisses the question.
func askColor(s steps) {
	s.idle()
	s.prompt("ask-color please")
	s.Request("question call", func(r fakemodel.Request) bool { return r.Tool == "question" })
	s.Screen("Which color should the button be?", "4. Type your own answer", "↑↓ select  enter submit  esc dismiss")
	s.Quiet(openCodeQuiet)
	s.MarkNow("questionnaire", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"),
		Actionable: true, Questions: []recordings.Question{openCodeQuestion}, Highlighted: recordings.Index(0)})
}

func working(s steps) {
	s.idle()
	s.prompt("slow-work please")
	s.Started("slow-work")
	s.Screen(openCodeBusy)
	// The spinner animates: marked at once.
	s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
}

func idleScene(s steps) {
	s.idle()
	s.MarkIdle()
}

func draft(s steps) {
	s.idle()
	s.Type("a draft that is not sent")
	s.Screen("┃  a draft that is not sent")
	s.Gone("Ask anything")
	s.Mark("idle", recordings.MarkerState{Composer: "draft"})
}

func send(s steps) {
	s.idle()
	s.prompt("hello there")
	s.Request("prompt", nil)
	s.parts("reply", openCodePart("step-finish", `"reason":"stop"`))
	s.Screen("Hello from the fake model")
	s.idle()
	s.MarkIdle()
}

// cancel: the first Esc arms the interrupt ("esc again to
// interrupt"), the second stops the turn: the reply's footer reads
// "· interrupted".
func cancel(s steps) {
	working(s)
	s.Key("Escape")
	s.Screen(openCodeBusyAgain)
	s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
	s.Key("Escape")
	s.Screen(openCodeInterrupt)
	s.idle()
	s.MarkInterrupted()
}

func questionDigit(s steps) {
	askColor(s)
	s.Key("2")
	s.parts("question answered", openCodePart("tool", `"tool":"question"`, `"status":"completed"`))
	s.Screen("Done: the tool has run.")
	s.idle()
	s.MarkIdle()
}

func questionEscape(s steps) {
	askColor(s)
	s.Key("Escape")
	s.parts("question dismissed", openCodePart("tool", `"tool":"question"`, `"status":"error"`))
	s.idle()
	s.MarkIdle()
}

// quotaError: a 403 OpenCode does not retry. It prints the
// error's message in a box of the error colour as the turn's reply (and
// for a few seconds in a toast over the top right corner), and waits at
// its composer: blocked until the next prompt, which goes through.
func quotaError(s steps) {
	const msg = "You exceeded your current quota"
	s.idle()
	s.prompt("quota-error please")
	s.Request("the failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	// The box is drawn first, the toast a moment later; both go on until
	// the toast times out.
	s.ScreenFunc("the error and its toast", func(t string) bool { return strings.Count(t, msg) == 2 })
	s.ScreenFunc("the error without its toast", func(t string) bool { return strings.Count(t, msg) == 1 })
	s.idle()
	s.MarkNow("blocked", recordings.MarkerState{Composer: "empty"})
	s.prompt("hello again")
	s.Request("the next prompt", func(r fakemodel.Request) bool { return r.Status == 0 })
	s.Screen("Hello from the fake model")
	s.idle()
	s.MarkIdle()
}

// rateLimit: a 429 with retry-after 30 s, which OpenCode retries by
// itself; while it waits, the working row shows the error and "[retrying
// in Ns attempt #1]" in the error colour instead of its interrupt hint.
func rateLimit(s steps) {
	s.idle()
	s.prompt("rate-limit please")
	s.Request("the failure", func(r fakemodel.Request) bool { return r.Status != 0 })
	s.Screen("attempt #1]")
	s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
	s.Request("the retry", func(r fakemodel.Request) bool { return r.Status == 0 })
	s.Screen("Answered after a retry.")
	s.idle()
	s.MarkIdle()
}

// scenarios are OpenCode's scenarios (the matrix adds its variants).
func scenarios() []*rig.Scenario {
	sc := func(name string, f func(steps)) *rig.Scenario {
		return &rig.Scenario{Name: name, Agent: "opencode", Script: openCodeScript, Drive: drive(f)}
	}
	return []*rig.Scenario{
		sc("idle", idleScene),
		sc("draft", draft),
		sc("working", working),
		sc("send", send),
		sc("cancel", cancel),
		sc("permission-approve", openCodeShell.approved),
		sc("permission-resize", openCodeShell.resized),
		sc("permission-reject", openCodeShell.rejected(false)),
		sc("permission-escape", openCodeShell.rejected(true)),
		sc("permission-always", alwaysStage),
		sc("edit-approve", openCodeWrite.approved),
		sc("edit-reject", openCodeWrite.rejected(false)),
		sc("question-digit", questionDigit),
		sc("question-escape", questionEscape),
		sc("api-error-403", quotaError),
		sc("api-retry-429", rateLimit),
	}
}
