package terminal

import (
	"time"
)

// The schedule of re-reads after an inconclusive read of a pane's
// foreground group (procid.Inconclusive names the races): a few re-reads,
// each later than the one before, instead of polling every pane.
// Everything else reaches the monitor as an event: pane output, or tmux's
// report that the foreground command changed (the fgSubscription).

// maxIdentityRechecks bounds the re-reads after one inconclusive read
// (50 ms doubling: the last comes about 3 s after the first read).
const maxIdentityRechecks = 6

// firstIdentityRecheck is the delay before the first re-read: an exec
// finishes within milliseconds, a Node launcher spawns its child within
// about a hundred.
const firstIdentityRecheck = 50 * time.Millisecond

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
