package mcpserver

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// awaitTurnInteraction calls status by turn_id until the Turn shows a
// pending interaction, and returns that task.
func awaitTurnInteraction(t *testing.T, cs *mcp.ClientSession, turnID string) api.Task {
	t.Helper()
	var task api.Task
	tmuxtest.Await(t, 20*time.Second, func() string {
		task = api.Task{}
		callTool(t, cs, ToolStatus, map[string]any{"turn_id": turnID}, &task)
		if in := task.Interaction; in == nil || in.State != "pending" {
			return "the turn shows no pending interaction: " + mustJSONNoT(task)
		}
		return ""
	})
	return task
}

// TestTmuxMCPTurnLoop is the controller's loop by turn_id alone (seed 003
// "Managed Turn Flow"), as a host that follows the tools' descriptions
// runs it: send, status by the turn_id until the approval is pending,
// approve by the turn_id. The host (`--controller host`) restarts its MCP
// server between the status and the approve: the new process owns the
// Turn, but the offer the old session made is not its own; another host
// owns nothing of it.
func TestTmuxMCPTurnLoop(t *testing.T) {
	r := startRig(t, "permission-approve")
	first := New(Options{Socket: r.socket, Owner: "host"})
	t.Cleanup(first.closeSessions)
	a := connect(t, first, nil)
	row := r.awaitState(t, "permission-approve", api.ScreenIdle)

	var sent api.ActionResult
	if res := callTool(t, a, ToolSend, map[string]any{"terminal_id": row.TerminalID, "request": "run-touch"}, &sent); res.IsError ||
		sent.Outcome != api.OutcomeAccepted || sent.TurnID == "" {
		t.Fatalf("send: error=%v %q %+v", res.IsError, errorText(res), sent)
	}
	task := awaitTurnInteraction(t, a, sent.TurnID)
	if task.OfferExpiresAt == nil || task.Interaction.TurnID != sent.TurnID || task.Interaction.Kind != "permission" {
		t.Fatalf("status by turn_id made no offer for the Turn's prompt: %s", mustJSONNoT(task))
	}

	// The host restarts its MCP server: a new process, the same name.
	first.closeSessions()
	second := New(Options{Socket: r.socket, Owner: "host"})
	t.Cleanup(second.closeSessions)
	b := connect(t, second, nil)
	// Another host: no offer, no ownership.
	other := New(Options{Socket: r.socket, Owner: "elsewhere"})
	t.Cleanup(other.closeSessions)
	c := connect(t, other, nil)

	approve := map[string]any{"turn_id": sent.TurnID}
	var res api.ActionResult
	callTool(t, b, ToolApprove, approve, &res)
	if res.Outcome != api.OutcomeRejected || reasonCode(res.Reason) != api.ReasonNoOffer {
		t.Errorf("approve by the new process on the old session's offer: %+v, want no_offer", res)
	}
	var seen api.Task
	callTool(t, c, ToolStatus, map[string]any{"turn_id": sent.TurnID}, &seen)
	if seen.OfferExpiresAt != nil {
		t.Errorf("another host's status by turn_id made an offer: %s", mustJSONNoT(seen))
	}
	res = api.ActionResult{}
	callTool(t, c, ToolApprove, approve, &res)
	if res.Outcome != api.OutcomeRejected || reasonCode(res.Reason) != api.ReasonNotOwner {
		t.Errorf("approve by another host: %+v, want not_owner", res)
	}

	task = awaitTurnInteraction(t, b, sent.TurnID)
	if task.OfferExpiresAt == nil {
		t.Fatalf("the restarted host's status by turn_id made no offer: %s", mustJSONNoT(task))
	}
	res = api.ActionResult{}
	callTool(t, b, ToolApprove, approve, &res)
	if res.Outcome != api.OutcomeAccepted || res.TurnID != sent.TurnID {
		t.Fatalf("approve by turn_id after the restarted host's status: %+v", res)
	}
	r.awaitState(t, "permission-approve", api.ScreenIdle)
	task = api.Task{}
	callTool(t, b, ToolStatus, map[string]any{"turn_id": sent.TurnID}, &task)
	if task.Interaction != nil || task.OfferExpiresAt != nil {
		t.Errorf("after the approval the Turn still shows an answerable prompt: %s", mustJSONNoT(task))
	}
}
