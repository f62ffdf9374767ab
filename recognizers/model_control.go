package recognizers

// ModelControlProfile is an exact profile's native model control (seed
// 003): the closed command that opens the menu, how a tuple is set, what
// the agent prints when it is, and the scope that has. Recorded with the
// rig (recordings/rig/inspect_claude_model.go, model_catalog_*.go,
// inspect_codex.go).
type ModelControlProfile struct {
	Command string // "/model"
	// Scope: "current_session" (Claude Code's "s") or
	// "current_and_new_sessions" (Codex's Enter, written to config.toml).
	Scope string
	// Set is the key that sets the highlighted model and effort: Claude
	// Code's picker "s" (this session only); Codex's effort popup Enter.
	Set []byte
	// EffortPopup: Enter on a model opens its effort popup (Codex); the
	// effort is otherwise the picker's ←/→ row (Claude Code).
	EffortPopup bool
	// TwoStep are the model rows whose Enter the recordings show opening
	// an effort popup (Codex): a model not named may apply at once, so it
	// is neither walked nor offered.
	TwoStep []string
	// NotOffered are effort rows that open further menus ("More
	// reasoning…"): never offered.
	NotOffered []string
	// Efforts are Claude Code's effort levels Left to Right (the picker's
	// row, one for every model); EffortRing: Right on the last is the
	// first, else the row stops at both ends.
	Efforts    []string
	EffortRing bool
	// Repair: the version's failed-attempt residues are recorded (Codex:
	// repair_model_control).
	Repair bool
	// Applied proves the agent's notice for the model (name: its name as
	// the confirmation or the list draws it; "" when neither names it)
	// and effort ("" for none).
	Applied func(notice, name, effort string) bool
}

// modelControls are the versions whose model menus are recorded the whole
// way and driven live: discovery, setting, and the notice, as registered
// (Version.Model).
var modelControls = map[string]ModelControlProfile{}

// ModelControl is the model control profile of agent@version, if any.
func ModelControl(agent, version string) (ModelControlProfile, bool) {
	p, ok := modelControls[agent+"@"+version]
	return p, ok
}
