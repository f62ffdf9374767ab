package refusaltest

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// Other is the controller of ApproveAsOther and RespondAsMCP.
const Other = "mcp:someone-else"

// Request is a case's call as one API request (exactly one is set), and
// the controller it comes from ("": the runner's own, a local person).
type Request struct {
	Controller string
	Approve    *api.ApproveRequest
	Respond    *api.RespondRequest
	Send       *api.SendRequest
	Cancel     *api.CancelRequest
	Answer     *api.AnswerRequest
}

// Build makes the case's request from what the status showed: the
// terminal id and its interaction; turnID is the case's Turn. Ids that
// must exist nowhere are derived from the case's name.
func Build(c Case, terminalID string, in *contract.Interaction, turnID string) (Request, error) {
	id := func(prefix string) string { return prefix + made(c.Name+"/"+prefix) }
	switch c.Call {
	case ApproveTerminal:
		return Request{Approve: &api.ApproveRequest{TerminalID: terminalID}}, nil
	case RejectTerminal:
		return Request{Approve: &api.ApproveRequest{TerminalID: terminalID, Decision: contract.DecisionReject}}, nil
	case ApproveAsOther:
		return Request{Controller: Other, Approve: &api.ApproveRequest{TerminalID: terminalID}}, nil
	case ApproveUnknown:
		return Request{Approve: &api.ApproveRequest{TerminalID: id("term_")}}, nil
	case ApproveTurn:
		return Request{Approve: &api.ApproveRequest{TurnID: turnID}}, nil
	case CancelTurn:
		return Request{Cancel: &api.CancelRequest{TurnID: turnID}}, nil
	case AnswerTurn:
		return Request{Answer: &api.AnswerRequest{TurnID: turnID, Request: c.Text}}, nil
	case SendTerminal:
		return Request{Send: &api.SendRequest{TerminalID: terminalID, Request: c.Text}}, nil
	case SendSession:
		return Request{Send: &api.SendRequest{SessionID: id("ses_"), Request: c.Text}}, nil
	case SendUser:
		return Request{Send: &api.SendRequest{TerminalID: terminalID, Mode: api.SendUserExplicit, Request: c.Text}}, nil
	case SendNoTarget:
		return Request{Send: &api.SendRequest{Request: c.Text}}, nil
	case SendBadMode:
		return Request{Send: &api.SendRequest{TerminalID: terminalID, Mode: api.SendSessionExact, Request: c.Text}}, nil
	}
	req, err := answer(c, terminalID, in, id)
	if err != nil {
		return Request{}, err
	}
	req.DeliveryMode = c.Delivery
	out := Request{Respond: &req}
	switch c.Call {
	case RespondOption, RespondFreeText:
	case RespondOtherID:
		req.InteractionID = id("int_")
	case RespondUnknownID:
		req.Answers[0].SelectedOptionIDs = []string{id("opt_")}
	case RespondAsMCP:
		out.Controller = Other
	case RespondWatch:
		req.TerminalID, req.WatchID = "", id("watch_")
	default:
		return Request{}, fmt.Errorf("call %q: no request for it", c.Call)
	}
	return out, nil
}

// answer is the respond_interaction of option c.Option (or the free_text
// option) of the current question, with c.Text.
func answer(c Case, terminalID string, in *contract.Interaction, id func(string) string) (api.RespondRequest, error) {
	if in != nil && len(in.Questions) == 0 { // a permission prompt: ids of no question
		return api.RespondRequest{TerminalID: terminalID, InteractionID: in.InteractionID, Answers: []api.Answer{{
			QuestionID: id("q_"), ResponseKind: "single_select", SelectedOptionIDs: []string{id("opt_")}}}}, nil
	}
	if c.Call == RespondFreeText && in != nil && len(in.Questions) == 1 && len(in.Questions[0].Options) == 0 {
		q := in.Questions[0] // a free-text question: its answer is the text
		return api.RespondRequest{TerminalID: terminalID, InteractionID: in.InteractionID, Answers: []api.Answer{{
			QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, Text: c.Text}}}, nil
	}
	if in == nil || len(in.Questions) != 1 || len(in.Questions[0].Options) <= c.Option {
		return api.RespondRequest{}, fmt.Errorf("the status shows no question with option %d: %+v", c.Option, in)
	}
	q := in.Questions[0]
	opt := q.Options[c.Option].OptionID
	if c.Call == RespondFreeText {
		opt = ""
		for _, o := range q.Options {
			if o.FreeText {
				opt = o.OptionID
			}
		}
	}
	kind := q.ResponseKind
	if c.Kind != "" {
		kind = c.Kind
	}
	picked := []string{opt}
	if len(c.Select) > 0 {
		picked = nil
		for _, i := range c.Select {
			if i >= len(q.Options) {
				return api.RespondRequest{}, fmt.Errorf("the status shows no option %d: %+v", i, in)
			}
			picked = append(picked, q.Options[i].OptionID)
		}
	}
	return api.RespondRequest{TerminalID: terminalID, InteractionID: in.InteractionID, Answers: []api.Answer{{
		QuestionID: q.QuestionID, ResponseKind: kind, SelectedOptionIDs: picked, Text: c.Text}}}, nil
}

// made is 26 id characters from s: a well-formed id nothing has.
func made(s string) string {
	h := sha256.Sum256([]byte("refusaltest\x00" + s))
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(h[:])[:26]
}
