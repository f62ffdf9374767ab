package supervisor

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// flaggedWord asks a question whose words ask for no secret, with Codex's
// own isSecret set on it (its protocol field; the tool schema does not
// offer it to a model, which may send it anyway).
const flaggedWord = "ask-flagged"

// bannerCall asks the banner question, with isSecret set or not.
func bannerCall(secret bool) *fakemodel.ToolCall {
	q := map[string]any{"id": "banner", "header": "Banner", "question": "Which colour should the banner be?",
		"options": []any{
			map[string]any{"label": "Red", "description": "A warm banner"},
			map[string]any{"label": "Blue", "description": "A cool banner"},
		}}
	if secret {
		q["isSecret"] = true
	}
	return &fakemodel.ToolCall{Name: "request_user_input", Input: map[string]any{"questions": []any{q}}}
}

// TestLiveCodexSecretFlag: on real Codex 0.155.1, a question the agent
// marks isSecret is manual_required (secret_input) though its words are
// innocent, and a respond is refused with nothing typed; after the person
// declines it on the pane (Esc), the same words without the flag are
// answered through akk as usual. The screen alone cannot tell the two
// apart: the mark comes from the rollout.
func TestLiveCodexSecretFlag(t *testing.T) {
	const version = "0.155.1"
	script := rig.Script("codex", version)
	script.Keywords = append([]fakemodel.Keyword{
		{Word: flaggedWord, Reply: fakemodel.Reply{Tool: bannerCall(true)}},
		{Word: "ask-banner", Reply: fakemodel.Reply{Tool: bannerCall(false)}},
	}, script.Keywords...)
	la := startLive(t, "codex", version, script)
	ld := liveDispatchOn(t, la, "codex", daemonOpts{codexSessions: filepath.Join(la.home, ".codex", "sessions")}, 4*time.Minute)
	d, ctx := ld.d, ld.ctx

	turn := ld.send(flaggedWord)
	row := awaitRow(t, d.cl, la.pane, 60*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenQuestionnaire || r.Interaction == nil || !slices.Contains(r.Interaction.Reasons, recognizers.ReasonSecretInput) {
			return "the flagged question manual with secret_input"
		}
		return ""
	})
	in := row.Interaction
	if in.State != contract.StateManualRequired || len(in.Questions) != 1 || in.Questions[0].Prompt != "Which colour should the banner be?" {
		t.Fatalf("the flagged question: %+v", in)
	}
	if _, ok := row.AvailableActions["respond_interaction"]; ok {
		t.Errorf("a secret question advertises respond_interaction: %v", row.AvailableActions)
	}
	st := ld.status()
	before := la.srv.MustRun("capture-pane", "-p", "-t", la.pane)
	res, err := d.cl.Respond(ctx, api.RespondRequest{TurnID: turn, InteractionID: st.Terminal.Interaction.InteractionID, Answers: []api.Answer{{
		QuestionID: in.Questions[0].QuestionID, ResponseKind: "single_select", SelectedOptionIDs: []string{in.Questions[0].Options[0].OptionID}}}})
	if err != nil || res.Outcome == api.OutcomeAccepted || res.Outcome == api.OutcomeUncertain || res.ReceiptID != "" {
		t.Fatalf("respond to the flagged question: %+v %v, want refused with no receipt", res, err)
	}
	if after := la.srv.MustRun("capture-pane", "-p", "-t", la.pane); string(after) != string(before) {
		t.Errorf("the refused respond changed the pane:\n%s\nwas:\n%s", after, before)
	}

	// The person declines it on the pane; the flag goes with its turn.
	la.srv.MustRun("send-keys", "-t", la.pane, "Escape")
	awaitRow(t, d.cl, la.pane, 60*time.Second, func(r api.Terminal) string {
		if _, ok := r.AvailableActions["send"]; !ok || r.Interaction != nil && r.Interaction.Kind == contract.KindQuestionnaire {
			return "back to a sendable composer"
		}
		return ""
	})
	turn = ld.send("ask-banner")
	row = ld.awaitScreen(contract.ScreenQuestionnaire)
	if row.Interaction.Questions[0].Prompt != "Which colour should the banner be?" {
		t.Fatalf("the plain question: %+v", row.Interaction)
	}
	ld.accept(ld.respond(turn, row, func(q contract.Question) (int, string) { return 1, "" })) // Blue
	ld.awaitSettled(turn)
	if !rolloutHas(filepath.Join(la.home, ".codex", "sessions"), `"function_call_output"`, `Blue`) {
		t.Errorf("the rollout has no answer Blue")
	}
	if rolloutHas(filepath.Join(la.home, ".codex", "sessions"), `"function_call_output"`, `Red`) {
		t.Errorf("the refused answer Red reached the agent")
	}
}
