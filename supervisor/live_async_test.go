package supervisor

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestLiveCodexAsync: a real Codex 0.155.1 (gpt-6-astra) asks two async
// questions and keeps working (its next reply is held back 20 s, so the
// working row redraws all along). Through a managed Turn, by turn_id,
// each step a fresh status and one call: open the questions, steer the
// first answer (an option) into the running turn, then queue the typed
// answer of the second for the next turn. An answer to the first
// question after it changed is refused with nothing typed. The rollout
// proves where each landed: the steered one inside the Turn's native
// turn, the queued one as the next turn.
func TestLiveCodexAsync(t *testing.T) {
	script := rig.Script("codex", "0.155.1")
	script.AfterTool = func(result string, isError bool) fakemodel.Reply {
		if strings.Contains(result, `"accepted":true`) {
			return fakemodel.Reply{Text: "A slow reply after the async questions.", FirstDelay: 20 * time.Second}
		}
		return fakemodel.Reply{Text: "Tool result received: " + result}
	}
	la := prepareLiveModel(t, "codex", "0.155.1", "gpt-6-astra", script)
	la.openPane(t)
	ld := liveDispatchOn(t, la, "codex", daemonOpts{codexSessions: filepath.Join(la.home, ".codex", "sessions")}, 3*time.Minute)
	d, ctx := ld.d, ld.ctx
	turn := ld.send("ask-async")

	// status by turn_id until the collapsed questions show, pending; open them.
	isSummary := func(in *contract.Interaction) bool {
		return in.Kind == contract.KindAsyncQuestion && len(in.Questions) == 1 && in.Questions[0].ResponseKind == contract.ResponseOpen
	}
	ld.accept(respondStep(t, ctx, d, turn, isSummary, func(in *contract.Interaction) (api.Answer, contract.DeliveryMode) {
		return api.Answer{QuestionID: in.Questions[0].QuestionID, ResponseKind: "open"}, ""
	}))

	// The first question: its options, steer (the default) with Green.
	isOptions := func(in *contract.Interaction) bool {
		return in.Kind == contract.KindAsyncQuestion && len(in.Questions) == 1 && len(in.Questions[0].Options) > 1
	}
	var first *contract.Interaction
	ld.accept(respondStep(t, ctx, d, turn, isOptions, func(in *contract.Interaction) (api.Answer, contract.DeliveryMode) {
		first = in
		if len(in.DeliveryModes) != 1 || in.DeliveryModes[0] != contract.DeliverySteerCurrentTurn {
			t.Errorf("an option question advertises %v, want only steer_current_turn", in.DeliveryModes)
		}
		q := in.Questions[0]
		return api.Answer{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, SelectedOptionIDs: []string{optionID(t, q, "Green")}}, ""
	}))

	// The second question, typed. First the first question's ids again,
	// on the changed screen: refused, nothing typed.
	isTyped := func(in *contract.Interaction) bool {
		return in.Kind == contract.KindAsyncQuestion && len(in.Questions) == 1 && in.Questions[0].ResponseKind == contract.ResponseFreeText
	}
	awaitTaskInteraction(t, ctx, d, turn, isTyped)
	before := ld.row()
	q := first.Questions[0]
	stale := respondTurn(t, ctx, d, turn, first, api.Answer{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind,
		SelectedOptionIDs: []string{optionID(t, q, "Green")}}, "")
	if stale.Outcome != api.OutcomeRejected || stale.ReceiptID != "" {
		t.Fatalf("an answer to the changed question: %+v, want rejected before input", stale)
	}
	if now := ld.row(); now.ScreenState != before.ScreenState || now.Composer != before.Composer {
		t.Errorf("a refused answer changed the pane: %s/%s -> %s/%s", before.ScreenState, before.Composer, now.ScreenState, now.Composer)
	}
	// Queue it for the next turn.
	ld.accept(respondStep(t, ctx, d, turn, isTyped, func(in *contract.Interaction) (api.Answer, contract.DeliveryMode) {
		if !slices.Contains(in.DeliveryModes, contract.DeliveryQueueNextTurn) {
			t.Fatalf("the typed question advertises %v, want queue_next_turn too", in.DeliveryModes)
		}
		q := in.Questions[0]
		return api.Answer{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, Text: "Purple"}, contract.DeliveryQueueNextTurn
	}))

	// The slow reply ends the first turn; the queued answer runs as the next.
	tmuxtest.Await(t, 90*time.Second, func() string {
		files, _ := filepath.Glob(filepath.Join(la.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
		if len(files) != 1 {
			return fmt.Sprintf("rollouts %v", files)
		}
		if err := codexrig.CheckSteerQueue(files[0], "\n\nGreen", "\n\nPurple"); err != nil {
			return err.Error()
		}
		return ""
	})
	ld.awaitSettled(turn)
}

// awaitTaskInteraction polls status by turn_id until its interaction is
// pending, offered and ok.
func awaitTaskInteraction(t *testing.T, ctx context.Context, d *daemon, turn string, ok func(*contract.Interaction) bool) *contract.Interaction {
	t.Helper()
	var in *contract.Interaction
	tmuxtest.Await(t, 60*time.Second, func() string {
		task, err := d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: turn})
		if err != nil {
			return err.Error()
		}
		if in = task.Interaction; in == nil || in.State != contract.StatePending || task.OfferExpiresAt == nil || !ok(in) {
			return fmt.Sprintf("turn %s %s: interaction %+v", turn, task.State, in)
		}
		return ""
	})
	return in
}

// respondStep answers the Turn's current step once status by turn_id
// shows one ok accepts, with what answer picks. A refusal because the
// screen changed since that status (the agent still drawing: its status
// line renames the thread) sent nothing: it looks again, as a controller
// told "call status again" does, at most three times.
func respondStep(t *testing.T, ctx context.Context, d *daemon, turn string, ok func(*contract.Interaction) bool,
	answer func(*contract.Interaction) (api.Answer, contract.DeliveryMode)) api.ActionResult {
	t.Helper()
	var res api.ActionResult
	for range 3 {
		in := awaitTaskInteraction(t, ctx, d, turn, ok)
		ans, delivery := answer(in)
		if res = respondTurn(t, ctx, d, turn, in, ans, delivery); res.Outcome != api.OutcomeRejected ||
			!strings.HasPrefix(res.Reason, api.ReasonPromptChanged) {
			return res
		}
		t.Logf("%s: %s; looking again", res.Op, res.Reason)
	}
	return res
}

// respondTurn answers one step of the Turn's interaction by turn_id.
func respondTurn(t *testing.T, ctx context.Context, d *daemon, turn string, in *contract.Interaction, ans api.Answer, delivery contract.DeliveryMode) api.ActionResult {
	t.Helper()
	res, err := d.cl.Respond(ctx, api.RespondRequest{TurnID: turn, InteractionID: in.InteractionID,
		Answers: []api.Answer{ans}, DeliveryMode: delivery})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func optionID(t *testing.T, q contract.Question, label string) string {
	t.Helper()
	for _, o := range q.Options {
		if o.Label == label {
			return o.OptionID
		}
	}
	t.Fatalf("no option %q in %+v", label, q.Options)
	return ""
}
