package supervisor

import (
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recognizers"
)

// availableActions advertises what a controller may do with the terminal
// now, with the exact semantic arguments (seed 003: copy them from list or
// status). It only advertises what the dispatch transaction could carry
// out on this screen; the transaction checks everything again. Called
// with mu held.
func (m *paneMonitor) availableActions() map[string]api.Action {
	out := map[string]api.Action{}
	r := m.rec
	if m.ident == nil || m.dead {
		return out
	}
	turn := m.activeTurn
	if in := r.Interaction; in != nil && in.State == "pending" && r.plan != nil {
		if in.Kind == recognizers.KindPermission {
			var decisions []string
			for _, c := range r.plan.Choices {
				if c.Decision != "" && (turn != "" || c.Decision == recognizers.ApproveOnce) {
					decisions = append(decisions, c.Decision)
				}
			}
			if len(decisions) > 0 {
				args := map[string]any{"terminal_id": m.id}
				if turn != "" {
					args = map[string]any{"turn_id": turn}
				}
				out["approve"] = api.Action{Tool: api.ToolApprove, Arguments: args, Decisions: decisions}
			}
		} else {
			args := map[string]any{"terminal_id": m.id, "interaction_id": in.InteractionID}
			if turn != "" {
				args = map[string]any{"turn_id": turn, "interaction_id": in.InteractionID}
			}
			out["respond_interaction"] = api.Action{Tool: api.ToolRespond, Arguments: args}
		}
	}
	if r.exact && r.Screen == api.ScreenIdle && r.Composer == "empty" {
		out["send"] = api.Action{Tool: api.ToolSend, Arguments: map[string]any{"terminal_id": m.id}}
	}
	if turn != "" && r.Screen == api.ScreenWorking {
		out["cancel"] = api.Action{Tool: api.ToolCancel, Arguments: map[string]any{"turn_id": turn}}
	}
	return out
}
