package api

import (
	"bytes"
	"context"
	"encoding/json"
)

// ActionHandler is implemented by a daemon that can act on terminals
// (dispatch). A Handler without it answers these operations with
// unknown_operation.
type ActionHandler interface {
	Approve(ctx context.Context, req ApproveRequest) (ActionResult, error)
	Respond(ctx context.Context, req RespondRequest) (ActionResult, error)
	Send(ctx context.Context, req SendRequest) (ActionResult, error)
	Answer(ctx context.Context, req AnswerRequest) (ActionResult, error)
	Cancel(ctx context.Context, req CancelRequest) (ActionResult, error)
}

// InspectHandler is implemented by a daemon that reads agents' own status.
type InspectHandler interface {
	NativeInspect(ctx context.Context, req NativeInspectRequest) (ActionResult, error)
}

// ThreadHandler is implemented by a daemon that runs native thread
// transitions.
type ThreadHandler interface {
	NewThread(ctx context.Context, req NewThreadRequest) (ActionResult, error)
	ResumeThread(ctx context.Context, req ResumeThreadRequest) (ActionResult, error)
	ThreadCandidates(ctx context.Context, req ThreadCandidatesRequest) (ThreadCandidates, error)
	ReconcileBinding(ctx context.Context, req ReconcileBindingRequest) (ActionResult, error)
}

// TaskHandler is implemented by a daemon with monitors and watches.
type TaskHandler interface {
	Watch(ctx context.Context, req WatchRequest) (Task, error)
	Unwatch(ctx context.Context, req UnwatchRequest) (Task, error)
	Close(ctx context.Context, req CloseRequest) (Task, error)
	Renew(ctx context.Context, req RenewRequest) (Task, error)
	Recover(ctx context.Context, req RecoverRequest) (Task, error)
	RetryCallback(ctx context.Context, req RetryCallbackRequest) (Task, error)
	TaskStatus(ctx context.Context, req TaskRequest) (Task, error)
}

type opFunc func(ctx context.Context, body []byte) (any, error)

// strictOp registers an operation whose body must decode into In with no
// unknown field: a request that smuggles a key, an index or a label in a
// field of its own is refused, not ignored.
func strictOp[In any, Out any](op func(string, func(context.Context, []byte) (any, error)), name string,
	fn func(context.Context, In) (Out, error)) {
	op(name, func(ctx context.Context, body []byte) (any, error) {
		var in In
		if len(bytes.TrimSpace(body)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				return nil, Errorf(CodeBadRequest, "%s: %v", name, err)
			}
		}
		return fn(ctx, in)
	})
}

func actionRoutes(h Handler, op func(string, func(context.Context, []byte) (any, error))) {
	ah, ok := h.(ActionHandler)
	if !ok {
		return
	}
	strictOp(op, "approve", ah.Approve)
	strictOp(op, "respond_interaction", ah.Respond)
	strictOp(op, "send", ah.Send)
	strictOp(op, "answer", ah.Answer)
	strictOp(op, "cancel", ah.Cancel)
	if ih, ok := h.(InspectHandler); ok {
		strictOp(op, OpNativeInspect, ih.NativeInspect)
	}
	if ih, ok := h.(IdentifyHandler); ok {
		strictOp(op, OpIdentifyForeground, ih.IdentifyForeground)
		strictOp(op, OpIdentifyAndSend, ih.IdentifyAndSend)
	}
	modelRoutes(h, op)
	if th, ok := h.(ThreadHandler); ok {
		strictOp(op, OpNewThread, th.NewThread)
		strictOp(op, OpResumeThread, th.ResumeThread)
		strictOp(op, "thread_candidates", th.ThreadCandidates)
		strictOp(op, "reconcile_binding", th.ReconcileBinding)
	}
}

func taskRoutes(h Handler, op func(string, func(context.Context, []byte) (any, error))) {
	th, ok := h.(TaskHandler)
	if !ok {
		return
	}
	strictOp(op, "watch", th.Watch)
	strictOp(op, "unwatch", th.Unwatch)
	strictOp(op, "close", th.Close)
	strictOp(op, "renew", th.Renew)
	strictOp(op, "recover", th.Recover)
	strictOp(op, "retry_callback", th.RetryCallback)
	strictOp(op, "task_status", th.TaskStatus)
}
