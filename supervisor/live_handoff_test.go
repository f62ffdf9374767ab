package supervisor

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestLiveClaudeHandoff is seed 003's human handoff on the real agent: a
// managed Turn awaits approval, and the person at the pane presses Esc
// and starts a new conversation (/clear). akk fails nothing on its own:
// Status shows the Turn's handoff decision, the controller is woken once
// (blocked, handoff_required) and gets no failure callback, and close
// with reason superseded_by_human_context_switch settles the Turn once.
func TestLiveClaudeHandoff(t *testing.T) {
	rcv := hooktest.Start(t, "", nil)
	la := startLive(t, "claude", "2.1.267", threadLiveScript("claude", "2.1.267"))
	hook := outbox.Config{Routes: []outbox.RouteConfig{{Name: "hook", Kind: outbox.RouteWebhook, URL: rcv.URL}}, BackoffBase: 50 * time.Millisecond}
	ld := liveDispatchOn(t, la, "claude", la.withRoots(daemonOpts{callbacks: hook}), 4*time.Minute)
	d, ctx := ld.d, ld.ctx
	turn := ld.send("run-touch")
	ld.awaitScreen(contract.ScreenAwaitingApproval)

	// The person: Esc on the permission prompt, then /clear and Enter.
	la.srv.MustRun("send-keys", "-t", la.pane, "Escape")
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.ScreenState == contract.ScreenAwaitingApproval || r.Composer != contract.ComposerEmpty {
			return "the prompt dismissed, composer empty: " + string(r.ScreenState) + "/" + string(r.Composer)
		}
		return ""
	})
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", "/clear")
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.Composer != contract.ComposerDraft {
			return "/clear in the composer: " + string(r.Composer)
		}
		return ""
	})
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")

	var task api.Task
	tmuxtest.Await(t, 60*time.Second, func() string {
		var err error
		task, err = d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: turn})
		if err != nil {
			return err.Error()
		}
		// The Esc alone opens it (human_interrupt); the /clear makes it a
		// context switch, the decision close settles with its reason.
		if task.State != tasks.TurnHandoff || task.Handoff == nil || task.Handoff.Reason != tasks.ReasonHumanContextSwitch {
			return fmt.Sprintf("turn %s (%s) handoff %+v, want %s for a context switch", task.State, task.Reason, task.Handoff, tasks.TurnHandoff)
		}
		return ""
	})
	if a := task.Handoff.Decision; a.Tool != api.ToolClose || a.Arguments["turn_id"] != turn || a.Arguments["reason"] != api.CloseSupersededByHuman {
		t.Fatalf("handoff decision %+v", task.Handoff)
	}
	// The controller was woken once, and told of no failure.
	tmuxtest.Await(t, 10*time.Second, func() string {
		if n := ld.callbacks(rcv, turn)["blocked/"+api.CallbackHandoff]; n != 1 {
			return fmt.Sprintf("%d handoff_required wake-ups: %v", n, ld.callbacks(rcv, turn))
		}
		return ""
	})

	// A plain close without the reason is still a plain close; with it,
	// once.
	closed, err := d.cl.CloseTurn(ctx, api.CloseRequest{TurnID: turn, Reason: api.CloseSupersededByHuman})
	if err != nil {
		t.Fatal(err)
	}
	if closed.State != tasks.TurnClosed || closed.Reason != api.CloseSupersededByHuman {
		t.Fatalf("close: %+v", closed)
	}
	if _, err := d.cl.CloseTurn(ctx, api.CloseRequest{TurnID: turn, Reason: api.CloseSupersededByHuman}); !api.IsCode(err, api.CodeConflict) {
		t.Fatalf("a second close: %v", err)
	}
	// The outbox is the record of every callback the Turn ever queued.
	for _, n := range closed.Notifications {
		if n.Type == api.CallbackError {
			t.Errorf("a failure notification: %+v", n)
		}
	}
	for k, n := range ld.callbacks(rcv, turn) {
		if strings.HasPrefix(k, api.CallbackError+"/") {
			t.Errorf("a failure callback: %s x%d", k, n)
		}
	}
}

// callbacks counts the envelopes the receiver got for a subject, keyed
// "<type>/<event>".
func (ld *liveDispatch) callbacks(rcv *hooktest.Receiver, subject string) map[string]int {
	out := map[string]int{}
	for _, r := range rcv.Requests() {
		var env api.CallbackEnvelope
		if json.Unmarshal(r.Body, &env) == nil && env.TurnID+env.WatchID == subject {
			out[env.Type+"/"+env.Event]++
		}
	}
	return out
}

// TestLiveCodexReconcile: a person's /new and a prompt in a Codex pane
// leave its process holding both rollouts open (Codex keeps every
// rollout it wrote open until it exits): the binding is ambiguous and a
// managed send is refused. Status names the conversation the terminal was
// bound to as reconcile_binding's conflicting session; reconcile_binding
// proves it stale (the other rollout was written after it), types
// nothing, and the binder then resolves the new conversation alone.
func TestLiveCodexReconcile(t *testing.T) {
	la := startLive(t, "codex", "0.155.1", threadLiveScript("codex", "0.155.1"))
	ld := liveDispatchOn(t, la, "codex", la.withRoots(daemonOpts{}), 3*time.Minute)
	d, ctx := ld.d, ld.ctx
	ld.awaitSettled(ld.send(liveFirst))
	ld.idle()
	first := ld.binding()

	// The person: /new, then a prompt in the new conversation.
	for _, keys := range [][]string{{"-l", "/new"}, {"Enter"}, {"-l", liveSecond}, {"Enter"}} {
		la.srv.MustRun(append([]string{"send-keys", "-t", la.pane}, keys...)...)
		time.Sleep(200 * time.Millisecond) // Codex's paste-burst window: a fast Enter would be a newline
	}
	var act api.Action
	tmuxtest.Await(t, 60*time.Second, func() string {
		st := ld.status()
		b := st.Evidence.Binding
		a, ok := st.Terminal.AvailableActions["reconcile_binding"]
		if b == nil || b.State != contract.IdentityAmbiguous || !ok {
			return fmt.Sprintf("binding %+v, reconcile_binding %v", b, ok)
		}
		act = a
		return ""
	})
	if res, err := d.cl.Send(ctx, api.SendRequest{TerminalID: ld.row().TerminalID, Mode: api.SendSessionExact,
		SessionID: ld.row().SessionID, Request: "hello"}); err != nil || res.Outcome != api.OutcomeRejected {
		t.Fatalf("a session send on the ambiguous binding: %+v %v", res, err)
	}
	res, err := d.cl.ReconcileBinding(ctx, api.ReconcileBindingRequest{TerminalID: ld.row().TerminalID,
		ConflictingSessionID: act.Arguments["conflicting_session_id"].(string)})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	if f := res.ThreadFacts; f == nil || f.PreviousNativeThreadID != first.SessionID || f.NativeIdentityState != contract.IdentityResolved ||
		f.NativeThreadID == "" || f.NativeThreadID == first.SessionID {
		t.Fatalf("reconcile: %+v facts %+v (first %s)", res, res.ThreadFacts, first.SessionID)
	}
	// The new conversation takes a managed send again.
	ld.idle()
	ld.awaitSettled(ld.send("after-resume please"))
}
