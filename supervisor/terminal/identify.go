package terminal

import (
	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// IdentifyReady says whether v allows foreground identification
// (identify_foreground, identify_and_send): a real Codex process with an
// inspection profile, idle with an exactly empty composer and no managed
// Turn, whose binding is durably ambiguous (several rollouts open). On a
// resolved binding the probe would tell nothing new: it is not offered.
func IdentifyReady(v View) bool {
	r := v.Rec
	if v.Ident == nil || !identifies(v.Ident.Agent) || v.Ident.Replica || v.ActiveTurn != "" || !r.Exact ||
		r.Screen != contract.ScreenIdle || r.Composer != contract.ComposerEmpty || NativeBusy(v) || v.Bind.State != contract.IdentityAmbiguous {
		return false
	}
	_, ok := recognizers.Inspect(v.Ident.Agent, v.Ident.Version)
	return ok
}

// identifyActions adds the identification actions of v to out.
func identifyActions(v View, out map[string]api.Action) {
	if !IdentifyReady(v) {
		return
	}
	out["identify_foreground"] = api.Action{Tool: api.ToolIdentifyForeground, Arguments: map[string]any{"terminal_id": v.ID}}
	out["identify_and_send"] = api.Action{Tool: api.ToolIdentifyAndSend, Arguments: map[string]any{"terminal_id": v.ID}}
}

// identifies reports whether agent's own status names its foreground
// thread (Traits.Identifies).
func identifies(agent string) bool {
	a, ok := registry.Lookup(agent)
	return ok && a.Traits().Identifies
}
