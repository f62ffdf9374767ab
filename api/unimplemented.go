package api

import "context"

// Unimplemented answers every operation with CodeNoOp
// (unknown_operation). A test double embeds it and overrides what it
// serves; the daemon never embeds it, so the compiler holds it to every
// route.
type Unimplemented struct{}

func noOp(op string) error { return Errorf(CodeNoOp, "%s is not an operation of this daemon", op) }

func (Unimplemented) List(context.Context) (ListResponse, error) { return ListResponse{}, noOp("list") }
func (Unimplemented) Status(context.Context, StatusRequest) (StatusResponse, error) {
	return StatusResponse{}, noOp("status")
}
func (Unimplemented) Health(context.Context) (Health, error) { return Health{}, noOp("health") }
func (Unimplemented) Events(context.Context, uint64, bool, func(Event) error) error {
	return noOp("events")
}
func (Unimplemented) Approve(context.Context, ApproveRequest) (ActionResult, error) {
	return ActionResult{}, noOp("approve")
}
func (Unimplemented) Respond(context.Context, RespondRequest) (ActionResult, error) {
	return ActionResult{}, noOp("respond_interaction")
}
func (Unimplemented) Send(context.Context, SendRequest) (ActionResult, error) {
	return ActionResult{}, noOp("send")
}
func (Unimplemented) Answer(context.Context, AnswerRequest) (ActionResult, error) {
	return ActionResult{}, noOp("answer")
}
func (Unimplemented) Cancel(context.Context, CancelRequest) (ActionResult, error) {
	return ActionResult{}, noOp("cancel")
}
func (Unimplemented) NativeInspect(context.Context, NativeInspectRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpNativeInspect)
}
func (Unimplemented) IdentifyForeground(context.Context, IdentifyForegroundRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpIdentifyForeground)
}
func (Unimplemented) IdentifyAndSend(context.Context, IdentifyAndSendRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpIdentifyAndSend)
}
func (Unimplemented) ModelOptions(context.Context, ModelOptionsRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpModelOptions)
}
func (Unimplemented) SetModel(context.Context, SetModelRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpSetModel)
}
func (Unimplemented) RepairModelControl(context.Context, RepairModelControlRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpRepairModelControl)
}
func (Unimplemented) NewThread(context.Context, NewThreadRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpNewThread)
}
func (Unimplemented) ResumeThread(context.Context, ResumeThreadRequest) (ActionResult, error) {
	return ActionResult{}, noOp(OpResumeThread)
}
func (Unimplemented) ThreadCandidates(context.Context, ThreadCandidatesRequest) (ThreadCandidates, error) {
	return ThreadCandidates{}, noOp("thread_candidates")
}
func (Unimplemented) ReconcileBinding(context.Context, ReconcileBindingRequest) (ActionResult, error) {
	return ActionResult{}, noOp("reconcile_binding")
}
func (Unimplemented) Watch(context.Context, WatchRequest) (Task, error) { return Task{}, noOp("watch") }
func (Unimplemented) Unwatch(context.Context, UnwatchRequest) (Task, error) {
	return Task{}, noOp("unwatch")
}
func (Unimplemented) Close(context.Context, CloseRequest) (Task, error) { return Task{}, noOp("close") }
func (Unimplemented) Renew(context.Context, RenewRequest) (Task, error) { return Task{}, noOp("renew") }
func (Unimplemented) Recover(context.Context, RecoverRequest) (Task, error) {
	return Task{}, noOp("recover")
}
func (Unimplemented) RetryCallback(context.Context, RetryCallbackRequest) (Task, error) {
	return Task{}, noOp("retry_callback")
}
func (Unimplemented) TaskStatus(context.Context, TaskRequest) (Task, error) {
	return Task{}, noOp("task_status")
}
func (Unimplemented) Qualify(context.Context, QualifyRequest) (QualifyStarted, error) {
	return QualifyStarted{}, noOp(OpQualify)
}
