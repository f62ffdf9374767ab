package contract

// Kind is the kind of an interaction (seed 000).
type Kind string

// Interaction kinds.
const (
	KindPermission    Kind = "permission"
	KindQuestionnaire Kind = "questionnaire"
	KindFreeText      Kind = "free_text"
	KindConfirmation  Kind = "confirmation"
	KindAsyncQuestion Kind = "async_question"
)

// InteractionState is an interaction's state (seed 000).
type InteractionState string

// Interaction states.
const (
	StatePending           InteractionState = "pending"
	StateManualRequired    InteractionState = "manual_required"
	StateResponseUncertain InteractionState = "response_uncertain"
	StateResolved          InteractionState = "resolved"
)

// ResponseKind is what a question's answer is.
type ResponseKind string

// Response kinds.
const (
	ResponseSingleSelect ResponseKind = "single_select"
	ResponseMultiSelect  ResponseKind = "multi_select"
	ResponseFreeText     ResponseKind = "free_text"
	// ResponseOpen: a collapsed async summary; answering expands the
	// native editor, whose question is the next interaction.
	ResponseOpen ResponseKind = "open"
)

// Decision is an answer to a permission. Persistent grants ("always
// allow", "don't ask again", "switch to auto mode") have no name here on
// purpose: they are never offered.
type Decision string

// Decisions.
const (
	DecisionApproveOnce Decision = "approve_once"
	DecisionReject      Decision = "reject"
)

// DeliveryMode is when an async question's answer reaches the agent
// (seed 000).
type DeliveryMode string

// Delivery modes.
const (
	DeliverySteerCurrentTurn DeliveryMode = "steer_current_turn"
	DeliveryQueueNextTurn    DeliveryMode = "queue_next_turn"
)

// Tool is what a permission dialog asks for, as the projection names it.
type Tool string

// Tools.
const (
	ToolShell        Tool = "shell"          // a shell command
	ToolEdit         Tool = "edit"           // a change to an existing file
	ToolWrite        Tool = "write"          // a file created or overwritten whole
	ToolNotebookEdit Tool = "notebook_edit"  // a notebook cell
	ToolWebFetch     Tool = "web_fetch"      // a URL fetched
	ToolMCP          Tool = "mcp_tool"       // an MCP server's tool
	ToolRead         Tool = "read"           // a file read outside the workspace
	ToolPlan         Tool = "plan"           // plan mode's plan, to start coding
	ToolExitPlan     Tool = "exit_plan_mode" // leaving plan mode without a plan
	ToolPermissions  Tool = "permissions"    // more sandbox permissions, e.g. network
)

// Tools lists every Tool, in the order above.
func Tools() []Tool {
	return []Tool{ToolShell, ToolEdit, ToolWrite, ToolNotebookEdit, ToolWebFetch, ToolMCP, ToolRead, ToolPlan,
		ToolExitPlan, ToolPermissions}
}

// Join joins contract values for a person to read
// ("approve_once, reject").
func Join[S ~string](vs []S, sep string) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += sep
		}
		out += string(v)
	}
	return out
}
