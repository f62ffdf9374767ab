package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// Tool names: api's advertised names where it has them, the same scheme
// for the rest.
const (
	toolPrefix        = "agent_knock_knock_"
	ToolList          = toolPrefix + "list"
	ToolStatus        = api.ToolStatus
	ToolSend          = api.ToolSend
	ToolAnswer        = api.ToolAnswer
	ToolApprove       = api.ToolApprove
	ToolRespond       = api.ToolRespond
	ToolCancel        = api.ToolCancel
	ToolWatch         = api.ToolWatch
	ToolUnwatch       = toolPrefix + "unwatch"
	ToolClose         = toolPrefix + "close"
	ToolRenew         = toolPrefix + "renew"
	ToolRecover       = toolPrefix + "recover"
	ToolRetryCallback = toolPrefix + "retry_callback"
	ToolNewThread     = api.ToolNewThread
	ToolResumeThread  = api.ToolResumeThread
	ToolReconcile     = api.ToolReconcile
	ToolNativeInspect = api.ToolNativeInspect
	ToolModelOptions  = api.ToolModelOptions
	ToolSetModel      = api.ToolSetModel
	ToolRepairModel   = api.ToolRepairModelCtl
)

// explicitIntent ends the description of every tool that answers an agent
// on the user's behalf (seed 003: approval and native interaction
// responses require explicit user intent and fresh source state).
const explicitIntent = " This acts on the user's behalf: call it only when the user has explicitly decided this, " +
	"after you showed them a fresh agent_knock_knock_status of the same subject in this conversation. " +
	"Never decide an approval or an answer yourself, never retry a result with do_not_retry true, " +
	"and never guess ids: use only those status returned."

// Input shapes where the api request differs from what a model may send.
type (
	statusIn struct {
		TerminalID string `json:"terminal_id"`
		TurnID     string `json:"turn_id"`
		WatchID    string `json:"watch_id"`
	}
	// respondIn has no terminal_id: MCP never carries terminal-scoped
	// response authority.
	respondIn struct {
		TurnID        string                `json:"turn_id"`
		WatchID       string                `json:"watch_id"`
		InteractionID string                `json:"interaction_id"`
		Answers       []api.Answer          `json:"answers"`
		DeliveryMode  contract.DeliveryMode `json:"delivery_mode"`
	}
	sendIn struct {
		SessionID  string `json:"session_id"`
		TerminalID string `json:"terminal_id"`
		Mode       string `json:"mode"`
		Request    string `json:"request"`
		MessageID  string `json:"message_id"`
	}
	renewIn struct {
		WatchID string `json:"watch_id"`
		TurnID  string `json:"turn_id"`
		Minutes string `json:"minutes"`
	}
)

var messageIDRe = regexp.MustCompile(messageIDPattern)

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

func acting() *mcp.ToolAnnotations {
	t := true
	return &mcp.ToolAnnotations{DestructiveHint: &t}
}

func tool(name, desc string, in *jsonschema.Schema, ann *mcp.ToolAnnotations) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: desc, InputSchema: in, Annotations: ann}
}

// addTools registers the twelve tools: one row each, the handler a single
// call of the daemon client.
func (s *Server) addTools() {
	mcp.AddTool(s.srv, tool(ToolList, "List every pane of the supervised tmux server: which coding agent runs there, its screen "+
		"and activity state, the interaction it shows (if any) and the actions currently advertised for it. Call this first "+
		"to find terminal ids; it changes nothing.", emptyInput(), readOnly),
		handle(s, func(ctx context.Context, se *session, _ struct{}) (any, error) { return se.client.List(ctx) }))
	mcp.AddTool(s.srv, tool(ToolStatus, "Show one terminal (terminal_id), managed Turn (turn_id) or Watch (watch_id) with its "+
		"evidence and the current interaction projection (questions, options and their ids). Call it before every approve or "+
		"respond_interaction and show the result to the user: a fresh status in this conversation is what makes the "+
		"interaction answerable here, for about a minute. It changes nothing in the terminal.", statusInput(), readOnly),
		handle(s, status))
	mcp.AddTool(s.srv, tool(ToolSend, "Give a coding agent a new task: the request is typed into its composer and "+
		"submitted with one Enter, creating a managed Turn (turn_id) that akk monitors. Copy the arguments of an action "+
		"list or status advertises: send_session (mode session_exact, session_id: continue that conversation), send "+
		"(mode terminal_follow_current, terminal_id: whatever conversation the terminal runs), both refused unless the "+
		"agent is idle with an empty composer; send_user_explicit (mode terminal_user_explicit, terminal_id) only when "+
		"the user explicitly asked to send to that terminal now: it also goes to a working agent or over a draft (the "+
		"draft is deleted, or stashed and put back where the agent stashes), never into a dialog. With no target akk sends to the one "+
		"idle terminal, or refuses. The request's first line may not be a slash command. Send only what the user asked for. "+
		"Give a message_id of your own to make a retry safe: sending the same message_id again in this MCP session "+
		"returns the first Turn (outcome already_done) and types nothing.",
		sendInput(), acting()), handle(s, send))
	mcp.AddTool(s.srv, tool(ToolAnswer, "Reply to a coding agent that ended its turn with its own text (often a question such "+
		"as \"Which file?\"), inside the same managed Turn: status of the turn_id says answerable true once it completed so. "+
		"The reply is typed into the agent's idle, empty composer with one Enter and the Turn runs again under the same "+
		"turn_id. Refused (nothing typed) when the Turn is not answerable, a newer Turn was sent to the terminal, the agent "+
		"is busy or holds a draft. Reply only with what the user said; a new task is a send.",
		answerInput(), acting()), handle(s, answer))
	mcp.AddTool(s.srv, tool(ToolApprove, "Answer the permission prompt an agent shows: approve_once (the one-time Yes) or, "+
		"by turn_id, reject. Persistent grants (always allow, don't ask again, auto mode) are never offered, and Escape is "+
		"cancel, not reject."+explicitIntent, approveInput(), acting()), handle(s, approve))
	mcp.AddTool(s.srv, tool(ToolRespond, "Answer the current step of an agent's question (questionnaire, free text, "+
		"confirmation, or an async question) with the interaction_id, question ids and option ids from status, or "+
		"typed text where the projection allows it. One call answers one step; call status again for the next step."+
		explicitIntent, respondInput(), acting()), handle(s, respond))
	mcp.AddTool(s.srv, tool(ToolCancel, "Interrupt a managed Turn (the agent's native interrupt). Use it when the user asks to "+
		"stop the work; it is not a way to reject a permission prompt.", turnInput("The Turn to interrupt."), acting()),
		relay(s, (*api.Client).Cancel))
	mcp.AddTool(s.srv, tool(ToolWatch, "Observe work a person started in a terminal: returns a watch_id whose completion and "+
		"interaction wake-ups akk reports. Read-only: a Watch never types into the terminal and never approves.",
		terminalInput("The terminal to observe."), nil),
		relay(s, (*api.Client).Watch))
	mcp.AddTool(s.srv, tool(ToolUnwatch, "Stop a Watch and withdraw its notifications not yet sent. A managed send stays managed.",
		unwatchInput(), nil),
		relay(s, (*api.Client).Unwatch))
	mcp.AddTool(s.srv, tool(ToolClose, "Release akk's management of a managed Turn and stop observing it. It does not stop the "+
		"agent (use cancel) and cannot be undone; a Watch uses unwatch instead. When status shows the Turn's handoff "+
		"decision (a person switched the agent's conversation while it ran) and the user confirms the takeover, close it with "+
		"reason "+api.CloseSupersededByHuman+".", closeInput(), acting()),
		relay(s, (*api.Client).CloseTurn))
	s.addNativeTools()
	s.addIdentifyTools()
	s.addModelTools()
	mcp.AddTool(s.srv, tool(ToolRenew, "Extend the observation of a Watch or managed Turn whose original task is still running "+
		"in that terminal (an expired or stopped Watch can resume while the same task is active).", renewInput(), nil),
		handle(s, renew))
	mcp.AddTool(s.srv, tool(ToolRecover, "Re-read the original task of a Watch or managed Turn and reconcile its state after a "+
		"restart or a lost notification. It neither extends the deadline nor resumes a stopped Watch, and never picks "+
		"another task.", taskInput("Exactly one of watch_id and turn_id."), nil),
		handle(s, func(ctx context.Context, se *session, in api.RecoverRequest) (any, error) {
			if err := exactlyOne("watch_id", in.WatchID, "turn_id", in.TurnID); err != nil {
				return nil, err
			}
			return se.client.Recover(ctx, in)
		}))
	mcp.AddTool(s.srv, tool(ToolRetryCallback, "Send again one notification that failed with a retryable failure (from status), "+
		"with its original id. It does not rerun the task and never replays an accepted or uncertain notification.",
		retryInput(), nil),
		handle(s, func(ctx context.Context, se *session, in api.RetryCallbackRequest) (any, error) {
			if err := exactlyOne("watch_id", in.WatchID, "turn_id", in.TurnID); err != nil {
				return nil, err
			}
			return se.client.RetryCallback(ctx, in)
		}))
}

// addNativeTools adds the tools that act on the agent's own state: its
// conversation (new, resume, a stale binding detached) and its status.
func (s *Server) addNativeTools() {
	mcp.AddTool(s.srv, tool(ToolNewThread, "Start a new conversation in the terminal's coding agent (its own /clear or "+
		"/new), when the user asks for a fresh context. Only when status advertises new_thread: the agent idle with an empty "+
		"composer and no managed Turn. It creates no Turn: the next send (refresh list first) starts the new conversation's "+
		"first Turn, under a new session_id. The earlier conversation stays on disk and can be resumed.", terminalInput("The terminal whose agent starts a new conversation."), acting()),
		relay(s, (*api.Client).NewThread))
	mcp.AddTool(s.srv, tool(ToolResumeThread, "Resume an earlier conversation of the terminal's coding agent (its /resume), "+
		"when the user asks for it: pass one native_thread_id from status's available_actions.resume_thread.candidates, "+
		"exactly. It creates no Turn; the next send continues that conversation under its own session_id.",
		resumeThreadInput(), acting()),
		relay(s, (*api.Client).ResumeThread))
	mcp.AddTool(s.srv, tool(ToolNativeInspect, "Read the coding agent's own status panel (its /status: version, session, "+
		"model, account source...), when the user asks what the agent itself reports. Read-only: the panel is dismissed and the "+
		"composer left as it was; no Turn, no callback. Only when status advertises native_inspect (idle, empty composer, no "+
		"managed Turn). Other slash commands are never run.", inspectInput(), nil),
		relay(s, (*api.Client).NativeInspect))
	mcp.AddTool(s.srv, tool(ToolReconcile, "Detach a terminal's stale binding to a conversation a person left in the pane "+
		"(status names it conflicting), so akk can find the one the agent runs now. Types nothing into the terminal and "+
		"adopts nothing; refused unless the binding is proven stale.", reconcileInput(), acting()),
		relay(s, (*api.Client).ReconcileBinding))
}

// handle adapts fn to the SDK: it finds the session's daemon client and
// turns daemon errors into tool errors a model can read.
func handle[In any](s *Server, fn func(context.Context, *session, In) (any, error)) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		se, err := s.sessionOf(req.Session)
		if err != nil {
			return nil, nil, err
		}
		out, err := fn(ctx, se, in)
		if errors.Is(err, api.ErrNoReply) {
			// Sent, and no answer: the model must not try it again.
			return nil, api.ActionResult{V: api.SchemaVersion, Outcome: api.OutcomeUncertain, Reason: api.ReasonNoReply,
				DoNotRetry: true}, nil
		}
		if err != nil {
			return nil, nil, toolError(err)
		}
		return nil, scrub(out), nil
	}
}

// relay is the handler of a tool whose input is the daemon request as
// is: the daemon's answer to it, with nothing checked first.
func relay[In, Out any](s *Server, call func(*api.Client, context.Context, In) (Out, error)) mcp.ToolHandlerFor[In, any] {
	return handle(s, func(ctx context.Context, se *session, in In) (any, error) { return call(se.client, ctx, in) })
}

// toolError is the message a model gets for a call that did not reach an
// outcome: the daemon's own code and message, or how to start it.
func toolError(err error) error {
	var ae *api.Error
	switch {
	case errors.Is(err, api.ErrDaemonNotRunning):
		return fmt.Errorf("the akk daemon is not running: the user must start it with `akk attach`")
	case errors.As(err, &ae) && ae.Code == api.CodeNoOp:
		return fmt.Errorf("unknown_operation: this akk daemon does not implement this operation yet")
	case errors.As(err, &ae):
		return fmt.Errorf("%s: %s", ae.Code, ae.Message)
	}
	return err
}

func exactlyOne(pairs ...string) error {
	n := 0
	names := ""
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			n++
		}
		if names != "" {
			names += ", "
		}
		names += pairs[i]
	}
	if n != 1 {
		return fmt.Errorf("bad_request: give exactly one of %s", names)
	}
	return nil
}

func status(ctx context.Context, se *session, in statusIn) (any, error) {
	if err := exactlyOne("terminal_id", in.TerminalID, "turn_id", in.TurnID, "watch_id", in.WatchID); err != nil {
		return nil, err
	}
	if in.TerminalID != "" {
		// Never Render: styled prompts and the screen are for a person's
		// own terminal and may show a draft.
		return se.client.Status(ctx, api.StatusRequest{TerminalID: in.TerminalID})
	}
	return se.client.TaskStatus(ctx, api.TaskRequest{TurnID: in.TurnID, WatchID: in.WatchID})
}

func send(ctx context.Context, se *session, in sendIn) (any, error) {
	if in.SessionID != "" && in.TerminalID != "" {
		return nil, fmt.Errorf("bad_request: give at most one of session_id and terminal_id")
	}
	if in.MessageID != "" && !messageIDRe.MatchString(in.MessageID) {
		// The host validates the schema too; this holds for one that
		// does not.
		return nil, fmt.Errorf("bad_request: message_id must match %s", messageIDPattern)
	}
	if r := checkText(in.Request, api.MaxRequestText); r != "" {
		return refused("send", r), nil
	}
	return se.client.Send(ctx, api.SendRequest{SessionID: in.SessionID, TerminalID: in.TerminalID, Mode: in.Mode,
		Request: in.Request, MessageID: in.MessageID})
}

func answer(ctx context.Context, se *session, in api.AnswerRequest) (any, error) {
	if r := checkText(in.Request, api.MaxRequestText); r != "" {
		return refused("answer", r), nil
	}
	return se.client.Answer(ctx, in)
}

func approve(ctx context.Context, se *session, in api.ApproveRequest) (any, error) {
	if err := exactlyOne("turn_id", in.TurnID, "terminal_id", in.TerminalID); err != nil {
		return nil, err
	}
	if in.TerminalID != "" && in.Decision == contract.DecisionReject {
		return nil, errors.New("bad_request: reject needs turn_id; by terminal_id only approve_once is possible")
	}
	return se.client.Approve(ctx, in)
}

func respond(ctx context.Context, se *session, in respondIn) (any, error) {
	if err := exactlyOne("turn_id", in.TurnID, "watch_id", in.WatchID); err != nil {
		return nil, err
	}
	for _, a := range in.Answers {
		if a.Text == "" {
			continue
		}
		if r := checkText(a.Text, api.MaxAnswerText); r != "" {
			return refused("respond_interaction", r), nil
		}
	}
	return se.client.Respond(ctx, api.RespondRequest{TurnID: in.TurnID, WatchID: in.WatchID,
		InteractionID: in.InteractionID, Answers: in.Answers, DeliveryMode: in.DeliveryMode})
}

func renew(ctx context.Context, se *session, in renewIn) (any, error) {
	if err := exactlyOne("watch_id", in.WatchID, "turn_id", in.TurnID); err != nil {
		return nil, err
	}
	req := api.RenewRequest{WatchID: in.WatchID, TurnID: in.TurnID}
	if in.Minutes != "" {
		n, err := strconv.Atoi(in.Minutes)
		if err != nil {
			return nil, fmt.Errorf("bad_request: minutes %q: %w", in.Minutes, err)
		}
		req.Minutes = n
	}
	return se.client.Renew(ctx, req)
}

// refused is the outcome of text this server would not pass on: nothing
// was reserved and no input happened, so it is safe to correct and call
// again (do_not_retry false).
func refused(op, reason string) api.ActionResult {
	return api.ActionResult{V: api.SchemaVersion, Op: op, Outcome: api.OutcomeRejected, Reason: reason}
}

// scrub removes what only a person's own terminal may see, should a
// daemon ever send it to a controller: the styled prompt and the screen
// (both may show a draft), and an advertised respond_interaction by
// terminal_id, which this server's schema cannot carry.
func scrub(out any) any {
	switch v := out.(type) {
	case api.StatusResponse:
		v.Screen = ""
		if v.Prompt != nil {
			p := *v.Prompt
			p.ANSI = ""
			v.Prompt = &p
		}
		v.Terminal = scrubRow(v.Terminal)
		return v
	case api.ListResponse:
		rows := make([]api.Terminal, len(v.Terminals))
		for i, r := range v.Terminals {
			rows[i] = scrubRow(r)
		}
		v.Terminals = rows
		return v
	}
	return out
}

func scrubRow(r api.Terminal) api.Terminal {
	drop := false
	for _, a := range r.AvailableActions {
		if a.Tool == ToolRespond && a.Arguments["terminal_id"] != nil {
			drop = true
		}
	}
	if !drop {
		return r
	}
	acts := make(map[string]api.Action, len(r.AvailableActions))
	for k, a := range r.AvailableActions {
		if !(a.Tool == ToolRespond && a.Arguments["terminal_id"] != nil) {
			acts[k] = a
		}
	}
	r.AvailableActions = acts
	return r
}
