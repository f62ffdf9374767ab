package supervisor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// liveDispatch drives a real pinned agent through akk alone: managed
// sends whose acceptance is proven from the agent's own transcript or
// rollout, approve once, reject where the profile proves a native reject
// (refused otherwise), a single-select answer, a typed answer (Claude's
// "Type something", Codex's notes), and a multi-question flow step by step
// through its final review. Every step is a fresh status by this
// controller, then one semantic call; the screen and the durable axes are
// then read back.
type liveDispatch struct {
	t     *testing.T
	la    *liveAgent
	d     *daemon
	agent string
	ctx   context.Context
	lat   *latencies // call -> proven postcondition
	// newFacts: the last new_thread's facts (live_threads_test.go).
	newFacts api.ThreadFacts
}

// liveDispatchOn starts the in-process daemon on la's server with o and
// the controller over both, its calls under a context that ends after
// within (cancelled at the test's end, before the daemon stops); it
// returns once the agent is idle.
func liveDispatchOn(t *testing.T, la *liveAgent, agent string, o daemonOpts, within time.Duration) *liveDispatch {
	t.Helper()
	ld := liveDispatchOnAny(t, la, agent, o, within)
	ld.idle()
	return ld
}

// liveDispatchOnAny is liveDispatchOn without waiting for an idle agent
// an exact profile reads.
func liveDispatchOnAny(t *testing.T, la *liveAgent, agent string, o daemonOpts, within time.Duration) *liveDispatch {
	t.Helper()
	d := startDaemon(t, la.srv, o)
	ctx, cancel := context.WithTimeout(context.Background(), within)
	t.Cleanup(cancel)
	return &liveDispatch{t: t, la: la, d: d, agent: agent, ctx: ctx, lat: &latencies{}}
}

// logLatencies logs how long the calls took to their proven
// postconditions.
func (ld *liveDispatch) logLatencies(version string) {
	if p50, p99, n := ld.lat.quantiles(); n > 0 {
		ld.t.Logf("%s %s: call -> proven postcondition: p50 %.1f ms, p99 %.1f ms over %d calls", ld.agent, version, p50, p99, n)
	}
}

func runLiveDispatch(t *testing.T, agent, version string) {
	la := startLive(t, agent, version, rig.Script(agent, version))
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{}), 8*time.Minute)

	tool := map[string]string{"claude": "run-touch", "codex": "run-ls"}[agent]
	// Approve once, by the managed turn.
	turn := ld.send(tool)
	row := ld.awaitScreen(contract.ScreenAwaitingApproval)
	if !slices.Contains(row.AvailableActions["approve"].Decisions, contract.DecisionApproveOnce) ||
		row.AvailableActions["approve"].Arguments["turn_id"] != turn {
		t.Fatalf("approve not advertised by turn: %+v", row.AvailableActions)
	}
	ld.accept(ld.approve(turn, contract.DecisionApproveOnce))
	ld.idle()
	ld.awaitSettled(turn)

	// Reject: Claude's "No"; Codex offers none (its row 3 asks for
	// instructions and Esc cancels), so it is refused with zero input.
	turn = ld.send(tool)
	row = ld.awaitScreen(contract.ScreenAwaitingApproval)
	if agent == "claude" {
		ld.accept(ld.approve(turn, contract.DecisionReject))
		// Claude says "Interrupted · What should Claude do instead?": blocked
		// (interrupted), its composer taking the next send.
		ld.resumable(recognizers.BlockedInterrupted)
	} else {
		if slices.Contains(row.Interaction.Decisions, contract.DecisionReject) {
			t.Fatalf("codex advertises reject: %+v", row.Interaction)
		}
		res := ld.approve(turn, contract.DecisionReject)
		if res.Outcome != api.OutcomeRejected {
			t.Fatalf("codex reject: %+v", res)
		}
		if again := ld.row(); again.ScreenState != contract.ScreenAwaitingApproval {
			t.Fatalf("a refused reject changed the screen: %s", again.ScreenState)
		}
		ld.accept(ld.approve(turn, contract.DecisionApproveOnce))
		ld.idle()
	}

	// A single-select answer: the second color.
	turn = ld.send("ask-color")
	row = ld.awaitScreen(contract.ScreenQuestionnaire)
	ld.accept(ld.respond(turn, row, func(q contract.Question) (int, string) { return 1, "" }))
	ld.idle()

	// A typed answer: the option that carries text.
	turn = ld.send("ask-color")
	row = ld.awaitScreen(contract.ScreenQuestionnaire)
	ld.accept(ld.respond(turn, row, func(q contract.Question) (int, string) {
		for i, o := range q.Options {
			if o.FreeText {
				return i, "Purple please"
			}
		}
		t.Fatalf("no free-text option in %+v", q.Options)
		return 0, ""
	}))
	ld.idle()

	// Several questions, one step at a time, through the final review.
	word := map[string]string{"claude": "ask-many", "codex": "ask-multi"}[agent]
	turn = ld.send(word)
	ld.awaitScreen(contract.ScreenQuestionnaire)
	steps := 0
	for ; steps < 6; steps++ {
		row = ld.row()
		if row.ScreenState != contract.ScreenQuestionnaire && row.ScreenState != contract.ScreenConfirmation {
			break
		}
		ld.accept(ld.respond(turn, row, func(q contract.Question) (int, string) {
			for i, o := range q.Options {
				if !o.FreeText {
					return i, "" // the first plain option; in a review: submit / proceed
				}
			}
			return 0, ""
		}))
	}
	if steps < 2 {
		t.Errorf("the multi-question flow took %d steps", steps)
	}
	ld.idle()
	ld.logLatencies(version)
}

func (ld *liveDispatch) row() api.Terminal {
	l, err := ld.d.cl.List(ld.ctx)
	if err != nil {
		ld.t.Fatal(err)
	}
	r, _ := rowOf(l, ld.la.pane)
	return r
}

func (ld *liveDispatch) idle() {
	ld.t.Helper()
	awaitRow(ld.t, ld.d.cl, ld.la.pane, 90*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty || r.Profile != "exact" {
			return "idle"
		}
		if _, ok := r.AvailableActions["send"]; !ok {
			return "send advertised"
		}
		return ""
	})
}

// resumable waits for the agent stopped on a block of reason with its
// composer empty and a send advertised.
func (ld *liveDispatch) resumable(reason string) {
	ld.t.Helper()
	awaitRow(ld.t, ld.d.cl, ld.la.pane, 90*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenBlocked || r.Blocked == nil || r.Blocked.Reason != reason || r.Composer != contract.ComposerEmpty {
			return "blocked " + reason
		}
		if _, ok := r.AvailableActions["send"]; !ok {
			return "send advertised"
		}
		return ""
	})
}

func (ld *liveDispatch) awaitScreen(state contract.ScreenState) api.Terminal {
	ld.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := ld.row()
		if r.ScreenState == state && r.Interaction != nil && r.Interaction.State == contract.StatePending {
			return r
		}
		if time.Now().After(deadline) {
			var in any = "none"
			if r.Interaction != nil {
				in = *r.Interaction // its state and reasons say why it is not pending
			}
			ld.t.Fatalf("want %s, row %+v; interaction %+v; pane:\n%s", state, r, in, ld.la.srv.MustRun("capture-pane", "-p", "-t", ld.la.pane))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (ld *liveDispatch) send(text string) string {
	ld.t.Helper()
	row := ld.row()
	res, err := ld.d.cl.Send(ld.ctx, api.SendRequest{TerminalID: row.TerminalID, Request: text})
	if err != nil {
		ld.t.Fatal(err)
	}
	if res.Outcome != api.OutcomeAccepted || res.Evidence != "transcript:request_hash" || res.TurnID == "" || res.SessionID == "" {
		ld.t.Fatalf("send %q: %+v", text, res)
	}
	return res.TurnID
}

func (ld *liveDispatch) approve(turn string, decision contract.Decision) api.ActionResult {
	ld.t.Helper()
	ld.status()
	start := time.Now()
	res, err := ld.d.cl.Approve(ld.ctx, api.ApproveRequest{TurnID: turn, Decision: decision})
	if err != nil {
		ld.t.Fatal(err)
	}
	if res.Outcome == api.OutcomeAccepted {
		ld.lat.add(time.Since(start))
	}
	return res
}

// respond answers the row's current question with the option (and text)
// pick chooses. A refusal because the screen changed since the status
// (an agent still drawing its next step) sent nothing: it looks again, as
// a controller told "call status again" does, at most three times.
func (ld *liveDispatch) respond(turn string, row api.Terminal, pick func(contract.Question) (int, string)) api.ActionResult {
	ld.t.Helper()
	var res api.ActionResult
	for range 3 {
		res = ld.respondOnce(turn, pick)
		if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonPromptChanged) {
			return res
		}
		ld.t.Logf("%s: %s; looking again", res.Op, res.Reason)
		// The agent is still drawing: look again a little later, as a
		// controller is told to (a refusal sent nothing).
		time.Sleep(200 * time.Millisecond)
	}
	return res
}

func (ld *liveDispatch) respondOnce(turn string, pick func(contract.Question) (int, string)) api.ActionResult {
	ld.t.Helper()
	st := ld.status()
	in := st.Terminal.Interaction
	if in == nil || len(in.Questions) != 1 {
		ld.t.Fatalf("no question: %+v", in)
	}
	q := in.Questions[0]
	k, text := pick(q)
	ans := api.Answer{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, Text: text}
	if q.ResponseKind == contract.ResponseSingleSelect {
		ans.SelectedOptionIDs = []string{q.Options[k].OptionID}
	}
	start := time.Now()
	res, err := ld.d.cl.Respond(ld.ctx, api.RespondRequest{TurnID: turn, InteractionID: in.InteractionID, Answers: []api.Answer{ans}})
	if err != nil {
		ld.t.Fatal(err)
	}
	if res.Outcome == api.OutcomeAccepted {
		ld.lat.add(time.Since(start))
	}
	return res
}

func (ld *liveDispatch) status() api.StatusResponse {
	ld.t.Helper()
	st, err := ld.d.cl.Status(ld.ctx, api.StatusRequest{TerminalID: ld.row().TerminalID})
	if err != nil {
		ld.t.Fatal(err)
	}
	return st
}

func (ld *liveDispatch) accept(res api.ActionResult) {
	ld.t.Helper()
	if res.Outcome != api.OutcomeAccepted {
		ld.t.Fatalf("%s: %s (%s); screen now %s; pane:\n%s", res.Op, res.Outcome, res.Reason, res.ScreenState, ld.la.srv.MustRun("capture-pane", "-p", "-t", ld.la.pane))
	}
}

// awaitSettled waits for the managed Turn monitor to settle the turn from
// the transcript/rollout.
func (ld *liveDispatch) awaitSettled(turn string) {
	ld.t.Helper()
	tmuxtest.Await(ld.t, 60*time.Second, func() string {
		task, err := ld.d.cl.TaskStatus(ld.ctx, api.TaskRequest{TurnID: turn})
		if err != nil {
			return err.Error()
		}
		if !strings.Contains("completed done", task.State) || task.State == "" {
			return fmt.Sprintf("turn %s: %+v", turn, task)
		}
		return ""
	})
}

func TestLiveClaudeDispatch(t *testing.T) { runLiveDispatch(t, "claude", "2.1.267") }
func TestLiveCodexDispatch(t *testing.T)  { runLiveDispatch(t, "codex", "0.155.1") }
