package recognizers

import "github.com/agent-knock-knock/akk/contract"

// The public projection: exactly seed 000's
// agent-knock-knock/terminal-interaction v1, plus decisions for
// permissions, delivery modes and the queued count for async questions,
// and reasons when manual_required. Nothing private is in it: no
// fingerprint, no keys, no draft text, no row numbers.

// project builds the interaction and, when it is pending, the plan.
func (r *Recognition) project(d ids) {
	pr := r.Prompt
	in := &contract.Interaction{Schema: contract.InteractionSchema, Version: contract.InteractionVersion, InteractionID: d.interaction(),
		Agent: r.Agent, Kind: pr.Kind, State: contract.StatePending}
	for _, rs := range r.Reasons {
		if !isNote(rs.Code) {
			in.State = contract.StateManualRequired
			in.Reasons = append(in.Reasons, rs.Code)
		}
	}
	offered := 0
	for _, s := range r.Specs {
		if !s.Unavailable {
			offered++
		}
	}
	if in.State == contract.StatePending && offered == 0 {
		r.Reasons = append(r.Reasons, NewReason(ReasonNoSafeAction, ""))
		in.State, in.Reasons = contract.StateManualRequired, []string{ReasonNoSafeAction}
	}
	if pr.Step.Total > 0 {
		st := pr.Step
		in.Step = &st
	}
	if pr.Kind == contract.KindAsyncQuestion {
		in.DeliveryModes, in.PendingQuestions = []contract.DeliveryMode{contract.DeliverySteerCurrentTurn}, pr.Pending
		for _, s := range r.Specs {
			if len(s.Queue) > 0 && !s.Unavailable {
				in.DeliveryModes = append(in.DeliveryModes, contract.DeliveryQueueNextTurn)
				break
			}
		}
	}
	r.Interaction = in
	if pr.Kind == contract.KindPermission {
		in.Tool = pr.Tool
		if in.State == contract.StatePending {
			in.Decisions = pr.Decisions
		}
	} else if len(pr.Questions) > 0 {
		r.projectQuestion(in, d)
	}
	if in.State == contract.StatePending {
		r.Plan = r.plan(in, d)
	}
}

// projectQuestion projects the one current question and its offered
// choices: never "Chat about this", persistent grants or auto mode (they
// have no spec).
func (r *Recognition) projectQuestion(in *contract.Interaction, d ids) {
	pr := r.Prompt
	q := pr.Questions[0]
	pq := contract.Question{QuestionID: d.question(0), Header: q.Header, Prompt: q.Prompt, Required: true,
		ResponseKind: contract.ResponseSingleSelect}
	caps := &contract.Capabilities{MultiSelect: pr.MultiSelect}
	switch {
	case pr.MultiSelect:
		pq.ResponseKind = contract.ResponseMultiSelect
	case q.Options == nil && len(r.Specs) == 1 && r.Specs[0].Derived == "open":
		pq.ResponseKind = contract.ResponseOpen
	case q.Options == nil:
		pq.ResponseKind = contract.ResponseFreeText
		caps.FreeText = true
		if len(r.Specs) == 1 {
			pq.MaxLength = r.Specs[0].MaxText
		}
	}
	if q.Options != nil {
		for _, s := range r.Specs {
			o := contract.Option{OptionID: d.option(0, s.Option, s.Derived), Label: s.Derived, FreeText: s.FreeText}
			if s.Option >= 0 {
				o.Label, o.Description = q.Options[s.Option].Label, q.Options[s.Option].Description
			}
			caps.FreeText = caps.FreeText || s.FreeText
			pq.Options = append(pq.Options, o)
		}
	}
	in.Questions = []contract.Question{pq}
	in.Capabilities = caps
}

// plan resolves the specs to the projection's ids.
func (r *Recognition) plan(in *contract.Interaction, d ids) *Plan {
	p := &Plan{InteractionID: in.InteractionID, Fingerprint: r.Fingerprint}
	for _, s := range r.Specs {
		if s.Unavailable {
			continue
		}
		c := Choice{Decision: s.Decision, FreeText: s.FreeText, MaxText: s.MaxText, RequireText: s.Require, Steps: s.Steps, Queue: s.Queue,
			Toggle: s.Toggle, Index: s.Option}
		if s.Decision == "" {
			c.QuestionID = in.Questions[0].QuestionID
			if s.Option >= 0 || s.Derived != "" && s.Derived != "open" {
				c.OptionID = d.option(0, s.Option, s.Derived)
			}
		}
		p.Choices = append(p.Choices, c)
	}
	if r.Multi != nil {
		p.Multi = r.Multi.plan(in.Questions[0].QuestionID)
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
