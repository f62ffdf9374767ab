package terminal

import (
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// applySecret makes a question the agent's own file marks secret manual
// (seed 000: no secret relay): Codex draws a question with isSecret like
// any other and masks only what is typed into its Notes, so the words on
// screen need not say so. Called with mu held.
func (m *Pane) applySecret() {
	if m.bind.SecretQuestion {
		m.rec = SecretAsked(m.rec)
	}
}

// SecretAsked is r with a pending question shown as manual_required
// (secret_input), with no decisions and no plan; a permission prompt asks
// for no input and is kept. It errs only toward manual: while the agent's
// file marks a question secret, every question on the pane is manual.
func SecretAsked(r Recognition) Recognition {
	in := r.Interaction
	if in == nil || in.State != contract.StatePending || in.Kind == contract.KindPermission {
		return r
	}
	cp := *in
	cp.State, cp.Reasons = "manual_required", append(append([]string(nil), in.Reasons...), recognizers.ReasonSecretInput)
	cp.Decisions = nil
	r.Interaction = &cp
	r.Plan = nil
	return r
}
