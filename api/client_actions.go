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
	return callFor[ActionResult](ctx, c, "approve", req)
}

// Respond is POST /v1/respond_interaction.
func (c *Client) Respond(ctx context.Context, req RespondRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, "respond_interaction", req)
}

// Send is POST /v1/send.
func (c *Client) Send(ctx context.Context, req SendRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, "send", req)
}

// Answer is POST /v1/answer.
func (c *Client) Answer(ctx context.Context, req AnswerRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, "answer", req)
}

// Cancel is POST /v1/cancel.
func (c *Client) Cancel(ctx context.Context, req CancelRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, "cancel", req)
}

// Watch is POST /v1/watch.
func (c *Client) Watch(ctx context.Context, req WatchRequest) (Task, error) {
	return callFor[Task](ctx, c, "watch", req)
}

// Unwatch is POST /v1/unwatch.
func (c *Client) Unwatch(ctx context.Context, req UnwatchRequest) (Task, error) {
	return callFor[Task](ctx, c, "unwatch", req)
}

// CloseTurn is POST /v1/close.
func (c *Client) CloseTurn(ctx context.Context, req CloseRequest) (Task, error) {
	return callFor[Task](ctx, c, "close", req)
}

// Renew is POST /v1/renew.
func (c *Client) Renew(ctx context.Context, req RenewRequest) (Task, error) {
	return callFor[Task](ctx, c, "renew", req)
}

// Recover is POST /v1/recover.
func (c *Client) Recover(ctx context.Context, req RecoverRequest) (Task, error) {
	return callFor[Task](ctx, c, "recover", req)
}

// RetryCallback is POST /v1/retry_callback.
func (c *Client) RetryCallback(ctx context.Context, req RetryCallbackRequest) (Task, error) {
	return callFor[Task](ctx, c, "retry_callback", req)
}

// TaskStatus is POST /v1/task_status.
func (c *Client) TaskStatus(ctx context.Context, req TaskRequest) (Task, error) {
	return callFor[Task](ctx, c, "task_status", req)
}

// NewThread is POST /v1/new_thread.
func (c *Client) NewThread(ctx context.Context, req NewThreadRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpNewThread, req)
}

// ResumeThread is POST /v1/resume_thread.
func (c *Client) ResumeThread(ctx context.Context, req ResumeThreadRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpResumeThread, req)
}

// ThreadCandidates is POST /v1/thread_candidates.
func (c *Client) ThreadCandidates(ctx context.Context, req ThreadCandidatesRequest) (ThreadCandidates, error) {
	return callFor[ThreadCandidates](ctx, c, "thread_candidates", req)
}

// ReconcileBinding is POST /v1/reconcile_binding.
func (c *Client) ReconcileBinding(ctx context.Context, req ReconcileBindingRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, "reconcile_binding", req)
}

// NativeInspect is POST /v1/native_inspect.
func (c *Client) NativeInspect(ctx context.Context, req NativeInspectRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpNativeInspect, req)
}

// IdentifyForeground is POST /v1/identify_foreground.
func (c *Client) IdentifyForeground(ctx context.Context, req IdentifyForegroundRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpIdentifyForeground, req)
}

// IdentifyAndSend is POST /v1/identify_and_send.
func (c *Client) IdentifyAndSend(ctx context.Context, req IdentifyAndSendRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpIdentifyAndSend, req)
}

// Qualify is POST /v1/qualify.
func (c *Client) Qualify(ctx context.Context, req QualifyRequest) (QualifyStarted, error) {
	return callFor[QualifyStarted](ctx, c, OpQualify, req)
}
