package terminal

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestSecretAsked: while the agent's file marks a question secret, a
// pending question of every kind is manual_required (secret_input) with no
// plan; a permission prompt and a prompt that was not pending are kept.
func TestSecretAsked(t *testing.T) {
	for _, tc := range []struct {
		kind        contract.Kind
		state, want contract.InteractionState
	}{
		{contract.KindQuestionnaire, "pending", "manual_required"},
		{contract.KindFreeText, "pending", "manual_required"},
		{contract.KindAsyncQuestion, "pending", "manual_required"},
		{contract.KindConfirmation, "pending", "manual_required"},
		{contract.KindPermission, "pending", "pending"},
		{contract.KindQuestionnaire, "manual_required", "manual_required"},
	} {
		r := Recognition{Interaction: &contract.Interaction{Kind: tc.kind, State: tc.state, Decisions: []contract.Decision{"approve_once"}}, Plan: &recognizers.Plan{}}
		got := SecretAsked(r)
		in := got.Interaction
		if in.State != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.kind, tc.state, in.State, tc.want)
		}
		changed := tc.state == contract.StatePending && tc.want == contract.StateManualRequired
		if changed != slices.Contains(in.Reasons, recognizers.ReasonSecretInput) || changed != (got.Plan == nil) || changed != (in.Decisions == nil) {
			t.Errorf("%s %s: reasons %v, plan %v, decisions %v", tc.kind, tc.state, in.Reasons, got.Plan, in.Decisions)
		}
		if r.Interaction.State != tc.state || r.Plan == nil {
			t.Fatal("SecretAsked changed the recognition it was given")
		}
	}
	if r := SecretAsked(Recognition{Screen: contract.ScreenIdle}); r.Interaction != nil {
		t.Errorf("no interaction: %+v", r.Interaction)
	}
}
