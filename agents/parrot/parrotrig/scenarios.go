package parrotrig

import (
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Parrot's anchors (1.0.0): its header, the composer's prompt and
// footer, the dialog's title and last row.
const (
	header  = "Parrot v1.0.0"
	glyph   = "parrot>"
	footer  = "enter to send · ctrl+d to quit"
	askText = "Parrot wants to run:"
	cancel  = "Esc to cancel"
	quiet   = 300 * time.Millisecond
	command = "touch notes.txt"
)

// scenarios are Parrot's: its composer empty and with a draft, a prompt
// echoed, and a command's permission approved, rejected and cancelled.
func scenarios() []*rig.Scenario {
	return []*rig.Scenario{
		{Name: "idle", Agent: "parrot", Drive: drive(func(s steps) {
			s.idle()
			s.MarkIdle()
		})},
		{Name: "draft", Agent: "parrot", Drive: drive(func(s steps) {
			s.idle()
			s.Type("hello parrot")
			s.Screen(glyph + " hello parrot")
			s.Mark("idle", rig.ComposerDraft)
		})},
		{Name: "hello", Agent: "parrot", Drive: drive(func(s steps) {
			s.idle()
			s.MarkIdle()
			s.prompt("hello parrot")
			s.turnEnd("completed")
			s.MarkIdle()
		})},
		{Name: "permission-approve", Agent: "parrot", Drive: drive(func(s steps) {
			s.ask()
			s.Key("1")
			s.Journal("the command ran", record("tool_result", "decision", "yes"))
			s.turnEnd("completed")
			s.MarkIdle()
		})},
		{Name: "permission-reject", Agent: "parrot", Drive: drive(func(s steps) {
			s.ask()
			s.Key("2")
			s.Journal("the command declined", record("tool_result", "decision", "no"))
			s.turnEnd("declined")
			s.MarkIdle()
		})},
		{Name: "permission-escape", Agent: "parrot", Drive: drive(func(s steps) {
			s.ask()
			s.Key("Escape")
			s.Journal("the command cancelled", record("tool_result", "decision", "cancel"))
			s.turnEnd("declined")
			s.MarkIdle()
		})},
	}
}

// idle waits for the composer at rest (no dialog) and a still screen.
func (s steps) idle() {
	s.Screen(header, glyph, footer)
	s.Gone(askText)
	s.Quiet(quiet)
}

// prompt types a prompt, waits until the composer shows it and submits
// it.
func (s steps) prompt(text string) {
	s.Type(text)
	s.Screen(glyph + " " + text)
	s.Key("Enter")
	s.Journal("the prompt", record("prompt", "text", text))
}

// ask asks to run the command and marks the dialog (and the composer
// with the prompt before it).
func (s steps) ask() {
	s.idle()
	s.MarkIdle()
	s.Type("run " + command)
	s.Screen(glyph + " run " + command)
	s.Mark("idle", rig.ComposerDraft)
	s.Key("Enter")
	s.Journal("the call", record("tool_call", "name", "run"))
	s.Screen(askText+" "+command, "1. Yes", "2. No", cancel)
	s.Mark("awaiting_approval", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions:   []recordings.Question{{Prompt: askText + " " + command, Options: []string{"Yes", "No"}}},
		Highlighted: recordings.Index(0)})
}

// turnEnd waits for the turn's end in the journal and the composer at
// rest.
func (s steps) turnEnd(outcome string) {
	s.Journal("the turn's end", record("turn_end", "outcome", outcome))
	s.idle()
}

// record matches a journal line by its type and one field.
func record(typ, field, value string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["type"] == typ && m[field] == value }
}
