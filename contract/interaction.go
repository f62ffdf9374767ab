package contract

import (
	"slices"
	"strconv"
)

// The public projection: exactly seed 000's
// agent-knock-knock/terminal-interaction v1, plus decisions for
// permissions, delivery modes and the queued count for async questions,
// and reasons when manual_required. Nothing private is in it: no
// fingerprint, no keys, no draft text, no row numbers.

// Schema and version of the projection.
const (
	InteractionSchema  = "agent-knock-knock/terminal-interaction"
	InteractionVersion = 1
)

// Interaction is the projected interaction: the one Go type of the
// public contract's interaction. The recognizers make it; the daemon, the
// CLI, the MCP server, the popup and the web page pass it on. Field order
// and tags are the wire's.
type Interaction struct {
	Schema        string           `json:"schema"`
	Version       int              `json:"version"`
	InteractionID string           `json:"interaction_id,omitempty"`
	TurnID        string           `json:"turn_id,omitempty"` // set by the supervisor
	Agent         string           `json:"agent,omitempty"`
	Kind          Kind             `json:"kind"`
	State         InteractionState `json:"state"`
	Reasons       []string         `json:"reasons,omitempty"`
	Step          *Step            `json:"step,omitempty"`
	Questions     []Question       `json:"questions,omitempty"`
	Capabilities  *Capabilities    `json:"capabilities,omitempty"`
	Decisions     []Decision       `json:"decisions,omitempty"`
	DeliveryModes []DeliveryMode   `json:"delivery_modes,omitempty"`
	// Tool names what a permission asks for (shell, edit, write, ...),
	// when the profile knows the dialog.
	Tool Tool `json:"tool,omitempty"`
	// PendingQuestions counts an async question's queued questions.
	PendingQuestions int `json:"pending_questions,omitempty"`
}

// Pending reports whether in is shown and a controller may answer it.
func (in *Interaction) Pending() bool { return in != nil && in.State == StatePending }

// Clone returns a deep copy of in (nil for nil): the daemon keeps the
// projection past the recognition that made it.
func (in *Interaction) Clone() *Interaction {
	if in == nil {
		return nil
	}
	out := *in
	out.Reasons = slices.Clone(in.Reasons)
	out.Decisions = slices.Clone(in.Decisions)
	out.DeliveryModes = slices.Clone(in.DeliveryModes)
	if in.Step != nil {
		st := *in.Step
		out.Step = &st
	}
	if in.Capabilities != nil {
		c := *in.Capabilities
		out.Capabilities = &c
	}
	out.Questions = nil
	for _, q := range in.Questions {
		q.Options = slices.Clone(q.Options)
		out.Questions = append(out.Questions, q)
	}
	return &out
}

// Step places a step in a multi-step interaction (1-based Index).
type Step struct {
	Index, Total int
}

// MarshalJSON of Step: {"index":1,"total":2}.
func (s Step) MarshalJSON() ([]byte, error) {
	return []byte(`{"index":` + strconv.Itoa(s.Index) + `,"total":` + strconv.Itoa(s.Total) + `}`), nil
}

// Question is one question of the projection.
type Question struct {
	QuestionID   string       `json:"question_id"`
	Header       string       `json:"header,omitempty"`
	Prompt       string       `json:"prompt"`
	Required     bool         `json:"required"`
	ResponseKind ResponseKind `json:"response_kind"`
	MaxLength    int          `json:"max_length,omitempty"`
	Options      []Option     `json:"options,omitempty"`
}

// Option is one offered choice of a question. FreeText: choosing it
// carries the answer's text.
type Option struct {
	OptionID    string `json:"option_id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	FreeText    bool   `json:"free_text,omitempty"`
}

// Capabilities is seed 000's capabilities object: what a response to the
// interaction may carry.
type Capabilities struct {
	BatchResponse bool `json:"batch_response"`
	FreeText      bool `json:"free_text"`
	MultiSelect   bool `json:"multi_select"`
}
