package recognizers

// InspectProfile is an exact profile's closed native status inspection
// (seed 003 "Native Status Inspection"): the command akk types, proven by
// its highlighted completion before the one Enter (Claude's /statusline
// starts a model turn that edits settings: a list that highlights it gets
// no Enter), and how the result goes away. Recorded with the rig
// (recordings/rig/inspect_claude.go, inspect_codex.go).
type InspectProfile struct {
	Status string // the status command
	// Dismiss is the key that closes a modal result back to the composer
	// (Claude's panel: Esc); nil when the result is printed above the
	// composer, which stays idle and empty (Codex).
	Dismiss []byte
}

// inspectProfiles are the versions whose status surfaces are recorded and
// read exactly, the whole way (Recognition.Completion over the /status
// list, Status), as registered (Version.Inspect); any other is refused
// before input.
var inspectProfiles = map[string]InspectProfile{}

// Inspect is the inspection profile of agent@version, if it has one.
func Inspect(agent, version string) (InspectProfile, bool) {
	p, ok := inspectProfiles[agent+"@"+version]
	return p, ok
}
