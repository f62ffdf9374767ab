package recognizers

import (
	"log/slog"
	"strconv"

	"github.com/agent-knock-knock/akk/contract"
)

// Plan is the private key plan of one pending interaction: for each
// semantic choice the exact bytes to send and the state the recapture must
// show after each step. It never leaves the daemon: String and LogValue
// redact it.
type Plan struct {
	InteractionID string
	Fingerprint   [32]byte
	Choices       []Choice
	// Multi is set for a multi-select question: its Choices toggle one
	// option each, and MultiSelect composes them into one answer.
	Multi *MultiPlan
}

// Choice is one semantic choice: a permission decision, or an option of
// the current question (by the ids of the projection).
type Choice struct {
	Decision   contract.Decision // approve_once, reject; "" for an option
	QuestionID string
	OptionID   string
	// FreeText: the answer carries text, injected by the step marked Text.
	// MaxText caps it in characters (Claude's editor collapses pastes of
	// 800 and more).
	FreeText bool
	MaxText  int
	// RequireText: the answer text must equal this (a draft already
	// shown in the editor is submitted as it is, never edited).
	RequireText string
	Steps       []PlanStep
	// Toggle, for an option of a multi-select question, is the key that
	// flips its checkbox (Steps is empty: Plan.MultiSelect composes the
	// answer); Index is the option's position in the question.
	Toggle []byte
	Index  int
	// Queue, when set, are the steps of the queue_next_turn delivery of
	// an async answer (Steps steer it into the running turn).
	Queue []PlanStep
}

// PlanStep is one bounded native step.
type PlanStep struct {
	// Text: inject the answer text first (bracketed paste when the app
	// enabled it), then wait QuietMillis of output silence, then Keys.
	Text        bool
	QuietMillis int
	// VerifyText: after the text, the editor must show exactly it before
	// Keys go (seed 000: a queued answer is verified before its final
	// key); otherwise the step stops, uncertain.
	VerifyText bool
	Keys       []byte
	Expect     Expect
}

// Expect is what the recapture after a step must show.
type Expect struct {
	States []contract.ScreenState
	// Highlighted is the row that must be highlighted, or -1.
	Highlighted int
	// Checked, when set, is every checkbox of the question as it must
	// read (Prompt.Boxes: a multi-select toggle flipped exactly its own).
	Checked []bool
	// SameQuestion: the projected question reads as before the step
	// (header, prompt, every option's label and description).
	SameQuestion bool
}

// String never prints keys or the fingerprint.
func (p *Plan) String() string {
	if p == nil {
		return "plan(none)"
	}
	return "plan(" + strconv.Itoa(len(p.Choices)) + " choices, redacted)"
}

// LogValue keeps the plan out of logs.
func (p *Plan) LogValue() slog.Value { return slog.StringValue(p.String()) }

// Find returns the choice for a decision or an option id.
func (p *Plan) Find(decisionOrOption string) (Choice, bool) {
	if p == nil {
		return Choice{}, false
	}
	for _, c := range p.Choices {
		if c.Decision != "" && string(c.Decision) == decisionOrOption || c.OptionID != "" && c.OptionID == decisionOrOption {
			return c, true
		}
	}
	return Choice{}, false
}

// Keys the agents read, as the recordings sent them (send-keys -H).
var (
	KeyEnter = []byte("\r")
	KeyDown  = []byte("\x1b[B")
	KeyTab   = []byte("\t")
	KeyAltUp = []byte("\x1b[1;3A")
)

// ChoiceSpec is a profile's plan for one choice before ids exist (ids
// come from the fingerprint and the key, after recognition).
type ChoiceSpec struct {
	Decision contract.Decision
	Option   int    // index into the question's Options, -1 for none
	Derived  string // label of a choice without a row of its own
	FreeText bool
	MaxText  int
	Require  string
	Steps    []PlanStep
	Toggle   []byte     // a multi-select option's checkbox key
	Queue    []PlanStep // the queue_next_turn steps of an async answer
	// unavailable: listed in the projection, but no native step is
	// proven from this screen (Claude's other rows while its editor row
	// holds the cursor).
	Unavailable bool
}

// RepeatKey is key k n times (n steps down a menu).
func RepeatKey(k []byte, n int) []byte {
	out := make([]byte, 0, len(k)*n)
	for range n {
		out = append(out, k...)
	}
	return out
}

// NewExpect is the recapture that shows one of states with row h
// highlighted (-1: no row).
func NewExpect(h int, states ...contract.ScreenState) Expect {
	return Expect{States: states, Highlighted: h}
}

// AfterAnswer is what follows a question's last step: the agent runs
// (working, idle), or shows the next step of the same flow.
// The agent may also stop at once (blocked: an API error, or its
// interruption note after a rejection).
var AfterAnswer = []contract.ScreenState{contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenQuestionnaire, contract.ScreenConfirmation, contract.ScreenAwaitingApproval}

// AfterQueue is what an async answer queued for the next turn may show:
// the running turn with the answer waiting, the summary, or the next
// question's editor.
var AfterQueue = []contract.ScreenState{contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAsyncQuestion}
