package procid

// Reasons a read is inconclusive.
const (
	InconclusiveMidExec  = "a member is between exec and its arguments"
	InconclusiveLauncher = "a launcher whose agent child has not appeared"
	InconclusiveNewGroup = "a new foreground group with no agent yet"
)

// Inconclusive says why identity p, read after old (nil for the pane's
// first read), may not be the group's settled state, or "" when it is
// conclusive (see the package doc). A read that found an agent is
// conclusive: a later change of that agent shows in QuickCheck.
func Inconclusive(old *Identity, p Identity) string {
	if p.Agent != AgentNone {
		return ""
	}
	for _, m := range p.Members {
		if len(m.Argv) == 0 {
			return InconclusiveMidExec
		}
	}
	// An interpreter's agent child follows within moments; a script
	// shell's whenever the script gets there, so re-reading on a schedule
	// would not find it: it is read again as the pane draws (Launching).
	if p.Launching() && !p.LeaderScript {
		return InconclusiveLauncher
	}
	if old == nil || old.Incarnation() != p.Incarnation() {
		return InconclusiveNewGroup
	}
	return ""
}
