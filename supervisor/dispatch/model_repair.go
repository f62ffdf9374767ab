package dispatch

import (
	"context"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// repair_model_control (seed 003, Codex): cleanup only, of what a failed
// model control left, proven on the settled screen (model-abandon):
//
//	the effort popup   Esc (back to the list), Esc
//	the model list     Esc
//	a bare "/model"    C-u (its completion row open or closed)
//
// Never Enter, never a caller's keys; success only on the idle empty
// composer. Nothing else is a residue (no_model_control_residue, zero
// input). Its reservation is private; a failure after a key is uncertain
// and not retried.

// residue is what the settled screen shows of a failed model control.
type residue int

const (
	noResidue residue = iota
	residueMenu
	residueDraft
)

// RepairModelControl answers POST /v1/repair_model_control.
func (d *Dispatcher) RepairModelControl(ctx context.Context, req api.RepairModelControlRequest) (api.ActionResult, error) {
	const op = api.OpRepairModelControl
	if err := needTerminal(op, req.TerminalID); err != nil {
		return api.ActionResult{}, err
	}
	m, tx, before, what, refused := beginNative(ctx, d, op, req.TerminalID, true, repairReady)
	if tx == nil {
		return refused, nil
	}
	defer tx.end()
	ictx := context.WithoutCancel(ctx)
	var err error
	if what == residueMenu {
		_, err = closeMenu(ictx, tx, before.Rec.ModelMenu)
	} else {
		_, err = screenStep(ictx, tx, keyKill, "empty the composer", func(r terminal.Recognition) bool {
			return r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty
		})
	}
	if err != nil {
		return privateResult(tx.fail(err.Error(), m.View().Rec.Screen, "")), nil
	}
	return privateResult(tx.accept("screen:idle_empty", contract.ScreenIdle, "")), nil
}

// repairReady proves a residue on the settled screen of a version whose
// residues are recorded.
func repairReady(v terminal.View) (residue, *refusal) {
	if ref := provenAgent(v); ref != nil {
		return noResidue, ref
	}
	p, ok := recognizers.ModelControl(v.Ident.Agent, v.Ident.Version)
	if !ok || !p.Repair {
		return noResidue, unprofiled(v, "%s %s has no recorded model control residues to repair", v.Ident.Agent, v.Ident.Version)
	}
	if v.ActiveTurn != "" {
		return noResidue, reject(api.ReasonTurnActive, "turn %s is active on this terminal", v.ActiveTurn)
	}
	return residueOf(v.Rec, p.Command)
}

// residueOf says which residue r shows (terminal.ModelResidue).
func residueOf(r terminal.Recognition, command string) (residue, *refusal) {
	switch {
	case !terminal.ModelResidue(r, command):
		return noResidue, reject(api.ReasonNoResidue, "the screen shows no /model popup or bare /model composer (it is %s, composer %s): nothing to repair", r.Screen, r.Composer)
	case r.ModelMenu != nil:
		return residueMenu, nil
	}
	return residueDraft, nil
}
