package api

import "context"

// SetController names the controller this client acts as (sent with every
// request); "" leaves it to the daemon (cli:<uid>).
func (c *Client) SetController(name string) { c.controller = name }

// As is a client of the same socket and connections that acts as
// controller name (`akk web` serves one controller per paired browser).
func (c *Client) As(name string) *Client {
	cp := *c
	cp.controller = name
	return &cp
}

// Approve is POST /v1/approve.
func (c *Client) Approve(ctx context.Context, req ApproveRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "approve", req, &out)
}

// Respond is POST /v1/respond_interaction.
func (c *Client) Respond(ctx context.Context, req RespondRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "respond_interaction", req, &out)
}

// Send is POST /v1/send.
func (c *Client) Send(ctx context.Context, req SendRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "send", req, &out)
}

// Answer is POST /v1/answer.
func (c *Client) Answer(ctx context.Context, req AnswerRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "answer", req, &out)
}

// Cancel is POST /v1/cancel.
func (c *Client) Cancel(ctx context.Context, req CancelRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "cancel", req, &out)
}

// Watch is POST /v1/watch.
func (c *Client) Watch(ctx context.Context, req WatchRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "watch", req, &out)
}

// Unwatch is POST /v1/unwatch.
func (c *Client) Unwatch(ctx context.Context, req UnwatchRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "unwatch", req, &out)
}

// CloseTurn is POST /v1/close.
func (c *Client) CloseTurn(ctx context.Context, req CloseRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "close", req, &out)
}

// Renew is POST /v1/renew.
func (c *Client) Renew(ctx context.Context, req RenewRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "renew", req, &out)
}

// Recover is POST /v1/recover.
func (c *Client) Recover(ctx context.Context, req RecoverRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "recover", req, &out)
}

// RetryCallback is POST /v1/retry_callback.
func (c *Client) RetryCallback(ctx context.Context, req RetryCallbackRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "retry_callback", req, &out)
}

// TaskStatus is POST /v1/task_status.
func (c *Client) TaskStatus(ctx context.Context, req TaskRequest) (Task, error) {
	var out Task
	return out, c.call(ctx, "task_status", req, &out)
}

// NewThread is POST /v1/new_thread.
func (c *Client) NewThread(ctx context.Context, req NewThreadRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, OpNewThread, req, &out)
}

// ResumeThread is POST /v1/resume_thread.
func (c *Client) ResumeThread(ctx context.Context, req ResumeThreadRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, OpResumeThread, req, &out)
}

// ThreadCandidates is POST /v1/thread_candidates.
func (c *Client) ThreadCandidates(ctx context.Context, req ThreadCandidatesRequest) (ThreadCandidates, error) {
	var out ThreadCandidates
	return out, c.call(ctx, "thread_candidates", req, &out)
}

// ReconcileBinding is POST /v1/reconcile_binding.
func (c *Client) ReconcileBinding(ctx context.Context, req ReconcileBindingRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, "reconcile_binding", req, &out)
}

// NativeInspect is POST /v1/native_inspect.
func (c *Client) NativeInspect(ctx context.Context, req NativeInspectRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, OpNativeInspect, req, &out)
}

// IdentifyForeground is POST /v1/identify_foreground.
func (c *Client) IdentifyForeground(ctx context.Context, req IdentifyForegroundRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, OpIdentifyForeground, req, &out)
}

// IdentifyAndSend is POST /v1/identify_and_send.
func (c *Client) IdentifyAndSend(ctx context.Context, req IdentifyAndSendRequest) (ActionResult, error) {
	var out ActionResult
	return out, c.call(ctx, OpIdentifyAndSend, req, &out)
}
