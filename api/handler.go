package api

import (
	"bytes"
	"context"
	"encoding/json"
)

// Handler is what the daemon provides to Serve: one method per operation
// of the contract, grouped below by what they do. The whole set is one
// interface so that the compiler checks the daemon answers every route;
// a test double embeds Unimplemented for the groups it does not serve.
// An error that is an *Error goes to the client as is; any other becomes
// CodeInternal.
type Handler interface {
	Reader
	Actions
	Inspector
	Identifier
	ModelController
	Threads
	Tasks
	Qualifier
}

// Reader lists, describes and streams terminals.
type Reader interface {
	List(ctx context.Context) (ListResponse, error)
	Status(ctx context.Context, req StatusRequest) (StatusResponse, error)
	Health(ctx context.Context) (Health, error)
	// Events calls emit for every event with Seq > after, oldest first.
	// With follow it then waits for new events until ctx ends (nil) or
	// emit fails.
	Events(ctx context.Context, after uint64, follow bool, emit func(Event) error) error
}

// Actions act on terminals (dispatch).
type Actions interface {
	Approve(ctx context.Context, req ApproveRequest) (ActionResult, error)
	Respond(ctx context.Context, req RespondRequest) (ActionResult, error)
	Send(ctx context.Context, req SendRequest) (ActionResult, error)
	Answer(ctx context.Context, req AnswerRequest) (ActionResult, error)
	Cancel(ctx context.Context, req CancelRequest) (ActionResult, error)
}

// Inspector reads agents' own status.
type Inspector interface {
	NativeInspect(ctx context.Context, req NativeInspectRequest) (ActionResult, error)
}

// Identifier identifies an ambiguous pane's foreground thread.
type Identifier interface {
	IdentifyForeground(ctx context.Context, req IdentifyForegroundRequest) (ActionResult, error)
	IdentifyAndSend(ctx context.Context, req IdentifyAndSendRequest) (ActionResult, error)
}

// ModelController runs native model control.
type ModelController interface {
	ModelOptions(ctx context.Context, req ModelOptionsRequest) (ActionResult, error)
	SetModel(ctx context.Context, req SetModelRequest) (ActionResult, error)
	RepairModelControl(ctx context.Context, req RepairModelControlRequest) (ActionResult, error)
}

// Threads runs native thread transitions.
type Threads interface {
	NewThread(ctx context.Context, req NewThreadRequest) (ActionResult, error)
	ResumeThread(ctx context.Context, req ResumeThreadRequest) (ActionResult, error)
	ThreadCandidates(ctx context.Context, req ThreadCandidatesRequest) (ThreadCandidates, error)
	ReconcileBinding(ctx context.Context, req ReconcileBindingRequest) (ActionResult, error)
}

// Tasks runs monitors and watches.
type Tasks interface {
	Watch(ctx context.Context, req WatchRequest) (Task, error)
	Unwatch(ctx context.Context, req UnwatchRequest) (Task, error)
	Close(ctx context.Context, req CloseRequest) (Task, error)
	Renew(ctx context.Context, req RenewRequest) (Task, error)
	Recover(ctx context.Context, req RecoverRequest) (Task, error)
	RetryCallback(ctx context.Context, req RetryCallbackRequest) (Task, error)
	TaskStatus(ctx context.Context, req TaskRequest) (Task, error)
}

// Qualifier qualifies agent binaries akk does not pin.
type Qualifier interface {
	Qualify(ctx context.Context, req QualifyRequest) (QualifyStarted, error)
}

// route is one row of the table: an operation's name on the wire
// (POST /v1/<op>) and what answers it.
type route struct {
	op string
	fn func(ctx context.Context, body []byte) (any, error)
}

// table is the one table from operation to handler. Every row names a
// Handler method, so a daemon that lacks one does not compile.
func table(h Handler) []route {
	return []route{
		{"list", func(ctx context.Context, _ []byte) (any, error) { return h.List(ctx) }},
		{"health", func(ctx context.Context, _ []byte) (any, error) { return h.Health(ctx) }},
		{"status", func(ctx context.Context, body []byte) (any, error) {
			var req StatusRequest
			if err := decodeBody(body, &req); err != nil {
				return nil, err
			}
			if req.TerminalID == "" {
				return nil, Errorf(CodeBadRequest, "terminal_id is required")
			}
			return h.Status(ctx, req)
		}},
		strict("approve", h.Approve),
		strict("respond_interaction", h.Respond),
		strict("send", h.Send),
		strict("answer", h.Answer),
		strict("cancel", h.Cancel),
		strict(OpNativeInspect, h.NativeInspect),
		strict(OpIdentifyForeground, h.IdentifyForeground),
		strict(OpIdentifyAndSend, h.IdentifyAndSend),
		strict(OpModelOptions, h.ModelOptions),
		strict(OpSetModel, h.SetModel),
		strict(OpRepairModelControl, h.RepairModelControl),
		strict(OpNewThread, h.NewThread),
		strict(OpResumeThread, h.ResumeThread),
		strict("thread_candidates", h.ThreadCandidates),
		strict("reconcile_binding", h.ReconcileBinding),
		strict("watch", h.Watch),
		strict("unwatch", h.Unwatch),
		strict("close", h.Close),
		strict("renew", h.Renew),
		strict("recover", h.Recover),
		strict("retry_callback", h.RetryCallback),
		strict("task_status", h.TaskStatus),
		strict(OpQualify, h.Qualify),
	}
}

// strict is a route whose body must decode into In with no unknown field:
// a request that smuggles a key, an index or a label in a field of its own
// is refused, not ignored.
func strict[In any, Out any](name string, fn func(context.Context, In) (Out, error)) route {
	return route{name, func(ctx context.Context, body []byte) (any, error) {
		var in In
		if len(bytes.TrimSpace(body)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				return nil, Errorf(CodeBadRequest, "%s: %v", name, err)
			}
		}
		return fn(ctx, in)
	}}
}
