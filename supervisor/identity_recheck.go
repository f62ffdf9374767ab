package supervisor

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// A read of a pane's foreground group can race what it reads: a shell
// that has forked but not yet exec'd leads a new group under its own
// name, an exec in progress has its new name and executable but not yet
// its arguments (/proc/<pid>/cmdline reads empty until the kernel has set
// them up), and the npm codex command is a Node launcher whose native
// child appears a little later under the same pane_current_command. Such
// a read is inconclusive: the pane is read again shortly after, a few
// times at most, instead of polling every pane. Everything else reaches
// the monitor as an event: pane output, or tmux's report that the
// foreground command changed (the fgSubscription).

// maxIdentityRechecks bounds the re-reads after one inconclusive read
// (50 ms doubling: the last comes about 3 s after the first read).
const maxIdentityRechecks = 6

// firstIdentityRecheck is the delay before the first re-read: an exec
// finishes within milliseconds, a Node launcher spawns its child within
// about a hundred.
const firstIdentityRecheck = 50 * time.Millisecond

// Reasons a read is inconclusive.
const (
	inconclusiveMidExec   = "a member is between exec and its arguments"
	inconclusiveLauncher  = "a launcher whose agent child has not appeared"
	inconclusiveNewGroup  = "a new foreground group with no agent yet"
	inconclusiveNoneFound = ""
)

// inconclusive says why identity p, read after old (nil for the pane's
// first read), may not be the group's settled state, or "" when it is
// conclusive. A read that found an agent is conclusive: a later change of
// that agent shows in quickCheck.
func inconclusive(old *procIdentity, p procIdentity) string {
	if p.Agent != api.AgentNone {
		return inconclusiveNoneFound
	}
	for _, m := range p.Members {
		if len(m.Argv) == 0 {
			return inconclusiveMidExec
		}
	}
	if p.launching() {
		return inconclusiveLauncher
	}
	if old == nil || old.incarnation() != p.incarnation() {
		return inconclusiveNewGroup
	}
	return inconclusiveNoneFound
}

// identityRecheck is the schedule of re-reads after inconclusive reads:
// at most maxIdentityRechecks in a row, each twice as late as the one
// before. A conclusive read, or an event saying the foreground changed,
// starts it afresh. Owned by the pane monitor (under its terminal lock).
type identityRecheck struct {
	attempts int
}

// next returns how long to wait before reading again after a read whose
// inconclusive reason is why ("" for none), or 0 for no re-read.
func (r *identityRecheck) next(why string) time.Duration {
	if why == "" || r.attempts >= maxIdentityRechecks {
		if why == "" {
			r.attempts = 0
		}
		return 0
	}
	d := firstIdentityRecheck << r.attempts
	r.attempts++
	return d
}

// reset starts the schedule afresh: the foreground changed again.
func (r *identityRecheck) reset() { r.attempts = 0 }
