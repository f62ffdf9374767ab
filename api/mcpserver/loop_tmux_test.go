package mcpserver

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
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
		if in := task.Interaction; in == nil || in.State != contract.StatePending {
			return "the turn shows no pending interaction: " + mustJSONNoT(task)
		}
		return ""
	})
	return task
}

// startHost starts `akk mcp --controller name` on stdio, a process of its
// own as a host starts it, and opens its session; stop ends the process
// (its stdin closed, as a host that restarts its MCP server does).
func startHost(t *testing.T, sock, name string) (cs *mcp.ClientSession, stop func()) {
	t.Helper()
	cmd := exec.Command(buildAkk(t), "mcp", "--socket", sock, "--controller", name)
	cmd.Stderr = &testWriter{t: t}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "loop-test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			if err := cs.Close(); err != nil {
				t.Errorf("akk mcp --controller %s: %v", name, err)
			}
		}
	}
	t.Cleanup(stop)
	return cs, stop
}

// TestTmuxMCPTurnLoop is the controller's loop by turn_id alone (seed 003
// "Managed Turn Flow"), as a host that follows the tools' descriptions
// runs it: send, status by the turn_id until the approval is pending,
// approve by the turn_id. The host's MCP server (`akk mcp --controller
// host`, the real binary) restarts between the status and the approve:
// the new process owns the Turn, but the offer the old session made is
// not its own; a process of another host owns nothing of it.
func TestTmuxMCPTurnLoop(t *testing.T) {
	r := startRig(t, "permission-approve")
	a, stopFirst := startHost(t, r.socket, "host")
	row := r.awaitState(t, "permission-approve", contract.ScreenIdle)

	var sent api.ActionResult
	if res := callTool(t, a, ToolSend, map[string]any{"terminal_id": row.TerminalID, "request": "run-touch"}, &sent); res.IsError ||
		sent.Outcome != api.OutcomeAccepted || sent.TurnID == "" {
		t.Fatalf("send: error=%v %q %+v", res.IsError, errorText(res), sent)
	}
	task := awaitTurnInteraction(t, a, sent.TurnID)
	if task.OfferExpiresAt == nil || task.Interaction.TurnID != sent.TurnID || task.Interaction.Kind != contract.KindPermission {
		t.Fatalf("status by turn_id made no offer for the Turn's prompt: %s", mustJSONNoT(task))
	}

	// The host restarts its MCP server: a new process, the same name.
	stopFirst()
	b, _ := startHost(t, r.socket, "host")
	// Another host: no offer, no ownership.
	c, _ := startHost(t, r.socket, "elsewhere")

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
	r.awaitState(t, "permission-approve", contract.ScreenIdle)
	task = api.Task{}
	callTool(t, b, ToolStatus, map[string]any{"turn_id": sent.TurnID}, &task)
	if task.Interaction != nil || task.OfferExpiresAt != nil {
		t.Errorf("after the approval the Turn still shows an answerable prompt: %s", mustJSONNoT(task))
	}
}

// TestTmuxMCPWatchStatus: status by the watch_id of a terminal_activity
// Watch shows the terminal's prompt as manual_required (the Watch
// observes; it never answers) and makes no offer.
func TestTmuxMCPWatchStatus(t *testing.T) {
	r := startRig(t, "permission-approve")
	srv := New(Options{Socket: r.socket, Owner: "host"})
	t.Cleanup(srv.closeSessions)
	cs := connect(t, srv, nil)
	row := r.awaitState(t, "permission-approve", contract.ScreenIdle)
	var w api.Task
	if res := callTool(t, cs, ToolWatch, map[string]any{"terminal_id": row.TerminalID}, &w); res.IsError ||
		w.WatchID == "" || w.WatchMode != api.WatchTerminalActivity {
		t.Fatalf("watch: error=%v %q %+v", res.IsError, errorText(res), w)
	}
	r.typeTask("permission-approve", "run-touch") // the person at the pane
	r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)
	var task api.Task
	tmuxtest.Await(t, 20*time.Second, func() string {
		task = api.Task{}
		callTool(t, cs, ToolStatus, map[string]any{"watch_id": w.WatchID}, &task)
		if task.Interaction == nil {
			return "the watch shows no interaction: " + mustJSONNoT(task)
		}
		return ""
	})
	in := task.Interaction
	if in.State != contract.StateManualRequired || len(in.Decisions) != 0 || task.OfferExpiresAt != nil ||
		!slices.Contains(in.Reasons, "terminal_activity_watch") {
		t.Errorf("a terminal_activity Watch shows %s and offer %v, want manual_required (terminal_activity_watch) and none",
			mustJSONNoT(in), task.OfferExpiresAt)
	}
}
