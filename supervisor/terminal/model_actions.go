package terminal

import (
	"crypto/sha256"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// modelActions adds native model control's actions: model_options where
// the native checks hold on a version whose /model menus are recorded,
// repair_model_control where such a version shows a residue of a failed
// attempt. set_model is never advertised: its authority is the
// controller's own catalog from model_options.
func modelActions(v View, out map[string]api.Action) {
	p, ok := recognizers.ModelControl(v.Ident.Agent, v.Ident.Version)
	if !ok || !v.Rec.Exact || v.Ident.Replica {
		return
	}
	if nativeReady(v) {
		out["model_options"] = api.Action{Tool: api.ToolModelOptions, Arguments: map[string]any{"terminal_id": v.ID}}
	}
	if p.Repair && v.ActiveTurn == "" && ModelResidue(v.Rec, p.Command) {
		out["repair_model_control"] = api.Action{Tool: api.ToolRepairModelCtl, Arguments: map[string]any{"terminal_id": v.ID}}
	}
}

// ModelResidue says whether r shows what a failed model control leaves
// (model-abandon): one of the /model menus, or the composer holding
// exactly command with its completion highlighted or no list at all.
func ModelResidue(r Recognition, command string) bool {
	if !r.Exact {
		return false
	}
	if m := r.ModelMenu; m != nil {
		return m.Kind == recognizers.ModelList || m.Kind == recognizers.EffortList
	}
	return r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerDraft && r.DraftSum == sha256.Sum256([]byte(command)) &&
		(r.Completion == command || r.NoCompletion)
}
