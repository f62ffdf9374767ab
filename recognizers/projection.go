package recognizers

import "slices"

// The public projection: exactly seed 000's
// agent-knock-knock/terminal-interaction v1, plus decisions for
// permissions, delivery modes and the queued count for async questions,
// and reasons when manual_required. Nothing private is in it: no
// fingerprint, no keys, no draft text, no row numbers.

// Schema and version of the projection.
const (
	Schema        = "agent-knock-knock/terminal-interaction"
	SchemaVersion = 1
)

// Interaction states.
const (
	StatePending           = "pending"
	StateManualRequired    = "manual_required"
	StateResponseUncertain = "response_uncertain"
	StateResolved          = "resolved"
)

// Response kinds of a projected question.
const (
	ResponseSingleSelect = "single_select"
	ResponseMultiSelect  = "multi_select"
	ResponseFreeText     = "free_text"
	// ResponseOpen: a collapsed Codex async summary; answering expands the
	// native editor, whose question is the next interaction.
	ResponseOpen = "open"
)

// Interaction is the projected interaction: the one Go type of the public
// contract's interaction (api.Interaction is this type; the CLI, the MCP
// server and the popup share it). Field order and tags are the wire's.
type Interaction struct {
	Schema        string               `json:"schema"`
	Version       int                  `json:"version"`
	InteractionID string               `json:"interaction_id,omitempty"`
	TurnID        string               `json:"turn_id,omitempty"` // set by the supervisor
	Agent         string               `json:"agent,omitempty"`
	Kind          Kind                 `json:"kind"`
	State         string               `json:"state"`
	Reasons       []string             `json:"reasons,omitempty"`
	Step          *Step                `json:"step,omitempty"`
	Questions     []ProjectedQuestion  `json:"questions,omitempty"`
	Capabilities  *ProjectedCapability `json:"capabilities,omitempty"`
	Decisions     []string             `json:"decisions,omitempty"`
	DeliveryModes []string             `json:"delivery_modes,omitempty"`
	// Tool names what a permission asks for (shell, edit, write, ...),
	// when the profile knows the dialog.
	Tool string `json:"tool,omitempty"`
	// PendingQuestions counts a Codex async question's queued questions.
	PendingQuestions int `json:"pending_questions,omitempty"`
}

// ProjectedQuestion is one question of the projection.
type ProjectedQuestion struct {
	QuestionID   string            `json:"question_id"`
	Header       string            `json:"header,omitempty"`
	Prompt       string            `json:"prompt"`
	Required     bool              `json:"required"`
	ResponseKind string            `json:"response_kind"`
	MaxLength    int               `json:"max_length,omitempty"`
	Options      []ProjectedOption `json:"options,omitempty"`
}

// ProjectedOption is one offered option. FreeText: choosing it carries
// the answer's text.
type ProjectedOption struct {
	OptionID    string `json:"option_id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	FreeText    bool   `json:"free_text,omitempty"`
}

// ProjectedCapability is seed 000's capabilities object.
type ProjectedCapability struct {
	BatchResponse bool `json:"batch_response"`
	FreeText      bool `json:"free_text"`
	MultiSelect   bool `json:"multi_select"`
}

// MarshalJSON of Step: {"index":1,"total":2}.
func (s Step) MarshalJSON() ([]byte, error) {
	return []byte(`{"index":` + itoa(s.Index) + `,"total":` + itoa(s.Total) + `}`), nil
}

// project builds the interaction and, when it is pending, the plan.
func (r *Recognition) project(d ids) {
	pr := r.Prompt
	in := &Interaction{Schema: Schema, Version: SchemaVersion, InteractionID: d.interaction(),
		Agent: r.Agent, Kind: pr.Kind, State: StatePending}
	for _, rs := range r.Reasons {
		if !isNote(rs.Code) {
			in.State = StateManualRequired
			in.Reasons = append(in.Reasons, rs.Code)
		}
	}
	offered := 0
	for _, s := range r.specs {
		if !s.unavailable {
			offered++
		}
	}
	if in.State == StatePending && offered == 0 {
		r.Reasons = append(r.Reasons, reason(ReasonNoSafeAction, ""))
		in.State, in.Reasons = StateManualRequired, []string{ReasonNoSafeAction}
	}
	if pr.Step.Total > 0 {
		st := pr.Step
		in.Step = &st
	}
	if pr.Kind == KindAsyncQuestion {
		in.DeliveryModes, in.PendingQuestions = []string{SteerCurrentTurn}, pr.Pending
		for _, s := range r.specs {
			if len(s.queue) > 0 && !s.unavailable {
				in.DeliveryModes = append(in.DeliveryModes, QueueNextTurn)
				break
			}
		}
	}
	r.Interaction = in
	if pr.Kind == KindPermission {
		in.Tool = pr.Tool
		if in.State == StatePending {
			in.Decisions = pr.Decisions
		}
	} else if len(pr.Questions) > 0 {
		r.projectQuestion(in, d)
	}
	if in.State == StatePending {
		r.Plan = r.plan(in, d)
	}
}

// projectQuestion projects the one current question and its offered
// choices: never "Chat about this", persistent grants or auto mode (they
// have no spec).
func (r *Recognition) projectQuestion(in *Interaction, d ids) {
	pr := r.Prompt
	q := pr.Questions[0]
	pq := ProjectedQuestion{QuestionID: d.question(0), Header: q.Header, Prompt: q.Prompt, Required: true,
		ResponseKind: ResponseSingleSelect}
	caps := &ProjectedCapability{MultiSelect: pr.MultiSelect}
	switch {
	case pr.MultiSelect:
		pq.ResponseKind = ResponseMultiSelect
	case q.Options == nil && len(r.specs) == 1 && r.specs[0].derived == "open":
		pq.ResponseKind = ResponseOpen
	case q.Options == nil:
		pq.ResponseKind = ResponseFreeText
		caps.FreeText = true
		if len(r.specs) == 1 {
			pq.MaxLength = r.specs[0].maxText
		}
	}
	if q.Options != nil {
		for _, s := range r.specs {
			o := ProjectedOption{OptionID: d.option(0, s.option, s.derived), Label: s.derived, FreeText: s.freeText}
			if s.option >= 0 {
				o.Label, o.Description = q.Options[s.option].Label, q.Options[s.option].Description
			}
			caps.FreeText = caps.FreeText || s.freeText
			pq.Options = append(pq.Options, o)
		}
	}
	in.Questions = []ProjectedQuestion{pq}
	in.Capabilities = caps
}

// plan resolves the specs to the projection's ids.
func (r *Recognition) plan(in *Interaction, d ids) *Plan {
	p := &Plan{InteractionID: in.InteractionID, Fingerprint: r.Fingerprint}
	for _, s := range r.specs {
		if s.unavailable {
			continue
		}
		c := Choice{Decision: s.decision, FreeText: s.freeText, MaxText: s.maxText, RequireText: s.require, Steps: s.steps, Queue: s.queue,
			Toggle: s.toggle, Index: s.option}
		if s.decision == "" {
			c.QuestionID = in.Questions[0].QuestionID
			if s.option >= 0 || s.derived != "" && s.derived != "open" {
				c.OptionID = d.option(0, s.option, s.derived)
			}
		}
		p.Choices = append(p.Choices, c)
	}
	if r.multi != nil {
		p.Multi = r.multi.plan(in.Questions[0].QuestionID)
	}
	return p
}

// isNote reports a reason that explains a non-prompt, not a manual state.
func isNote(code string) bool {
	switch code {
	case NoteUnstyledLookalike, NotePromptInTranscript, NoteUnrecognized, NoteFooterUnknown:
		return true
	}
	return false
}

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
