// Package answer is what a person's face (the tmux popup, the web page)
// may answer on a terminal's Status, and the check that a fresh Status
// still shows what the person saw. Both faces keep the same rules
// (DESIGN invariants 7-9): by terminal_id a permission is approved once
// only, a manual_required or uncertain interaction is shown with its
// reasons and never answered, and an answer goes only with a fresh Status
// that shows the same interaction and the same styled prompt.
package answer

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// Choice is one thing the person may answer.
type Choice struct {
	Label    string
	Decision contract.Decision // approve_once (a permission)
	Question *contract.Question
	OptionID string // "" for a free_text question
	FreeText bool   // the answer carries typed text
}

// Choices lists what may be answered on t by terminal_id, or says why
// nothing may (manual is "" when something can).
func Choices(t api.Terminal) (choices []Choice, manual string) {
	in := t.Interaction
	if in == nil {
		switch t.ScreenState {
		case contract.ScreenExited:
			return nil, "the agent exited"
		case contract.ScreenIdle:
			return nil, "the agent is idle: go to the pane to give it a task"
		}
		return nil, "nothing to answer here (" + string(t.ScreenState) + "): go to the pane"
	}
	switch in.State {
	case contract.StatePending:
	case contract.StateManualRequired:
		return nil, "manual required: " + strings.Join(in.Reasons, ", ") + " — answer it in the pane"
	case contract.StateResponseUncertain:
		return nil, "an earlier answer may or may not have arrived: look at the pane (akk never retries)"
	default:
		return nil, "interaction " + string(in.State)
	}
	if in.Kind == contract.KindPermission {
		// By terminal_id only approve_once (DESIGN invariant 9); a reject
		// is made in the pane.
		for _, d := range in.Decisions {
			if d == contract.DecisionApproveOnce {
				return []Choice{{Label: "Approve once", Decision: d}}, ""
			}
		}
		return nil, "no decision offered: answer it in the pane"
	}
	if len(in.Questions) != 1 {
		return nil, fmt.Sprintf("%d questions at once: answer them in the pane", len(in.Questions))
	}
	q := &in.Questions[0]
	switch q.ResponseKind {
	case contract.ResponseSingleSelect:
		var cs []Choice
		for _, o := range q.Options {
			cs = append(cs, Choice{Label: o.Label, Question: q, OptionID: o.OptionID, FreeText: o.FreeText})
		}
		return cs, ""
	case contract.ResponseFreeText:
		return []Choice{{Label: "Type an answer", Question: q, FreeText: true}}, ""
	}
	return nil, string(q.ResponseKind) + " questions are answered in the pane"
}

// SameShown reports whether a fresh Status shows what the person saw: the
// same terminal, interaction and styled prompt region. The interaction id
// is derived from the prompt's exact fingerprint; the rendering is
// compared as well because it is what the person read.
func SameShown(shown, fresh api.StatusResponse) bool {
	a, b := shown.Terminal, fresh.Terminal
	if a.TerminalID != b.TerminalID || a.ScreenState != b.ScreenState || (a.Interaction == nil) != (b.Interaction == nil) {
		return false
	}
	if a.Interaction != nil && (a.Interaction.InteractionID != b.Interaction.InteractionID ||
		a.Interaction.State != b.Interaction.State) {
		return false
	}
	if (shown.Prompt == nil) != (fresh.Prompt == nil) {
		return false
	}
	return shown.Prompt == nil || (shown.Prompt.ANSI == fresh.Prompt.ANSI && shown.Prompt.Text == fresh.Prompt.Text)
}

// Request builds the request that answers choice c of the shown Status
// by terminal_id: approve for a permission, respond_interaction with the
// question's ids otherwise (text only for a choice that carries it).
func Request(shown api.StatusResponse, c Choice, text string) (*api.ApproveRequest, *api.RespondRequest) {
	id := shown.Terminal.TerminalID
	if c.Decision != "" {
		return &api.ApproveRequest{TerminalID: id, Decision: c.Decision}, nil
	}
	ans := api.Answer{QuestionID: c.Question.QuestionID, ResponseKind: c.Question.ResponseKind}
	if c.FreeText {
		ans.Text = text
	}
	if c.OptionID != "" {
		ans.SelectedOptionIDs = []string{c.OptionID}
	}
	var iid string
	if in := shown.Terminal.Interaction; in != nil {
		iid = in.InteractionID
	}
	return nil, &api.RespondRequest{TerminalID: id, InteractionID: iid, Answers: []api.Answer{ans}}
}

// Say tells the person what an answer did, and whether that is bad news.
// Every outcome but accepted says whether anything reached the agent:
// an uncertain one may have, and is never retried.
func Say(r api.ActionResult, err error) (msg string, bad bool) {
	if err != nil {
		if api.IsCode(err, api.CodeNoOp) {
			return "This daemon cannot answer yet (no dispatch): answer in the pane.", true
		}
		return "Answer: " + err.Error(), true
	}
	switch r.Outcome {
	case api.OutcomeAccepted, api.OutcomeAlreadyDone:
		return "Sent (" + r.Outcome + ").", false
	case api.OutcomeRejected:
		if r.Reason == api.ReasonPromptChanged || r.Reason == api.ReasonStaleInteraction {
			return "The screen changed before the answer: nothing was sent (" + r.Reason + ").", true
		}
		return "Nothing was sent: " + r.Reason + ".", true
	case api.OutcomeManual:
		return "Manual required: " + r.Reason + " — answer it in the pane.", true
	}
	return "Uncertain (" + r.Reason + "): the answer may have arrived; look at the pane, akk will not retry.", true
}

// Age is how long ago t was, as both faces list it: to the second under
// a minute, the minute under an hour, else the hour ("12s", "3m0s").
func Age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return (d / time.Second * time.Second).String()
	case d < time.Hour:
		return (d / time.Minute * time.Minute).String()
	}
	return (d / time.Hour * time.Hour).String()
}

// AgentLabel is a terminal's agent as both faces name it: its version,
// and what akk may do with it when that version is not pinned: "claude
// 2.1.337 (as 2.1.332, 3/7)" for a binary a qualification covers on 3 of
// 7 surfaces, "claude 2.1.340 (watch only: akk qualify)" for one none
// covers.
func AgentLabel(t api.Terminal) string {
	agent := t.Agent
	if t.Version != "" {
		agent += " " + t.Version
	}
	switch q := t.Qualification; {
	case q != nil:
		agent += fmt.Sprintf(" (as %s, %d/%d)", q.Base, q.Passed, q.Judged)
	case t.Profile == "generic" && !t.Replica:
		agent += " (watch only: akk qualify)"
	}
	return agent
}
