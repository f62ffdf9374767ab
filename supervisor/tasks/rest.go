package tasks

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// restingReply is a reply that ends its native turn if the screen rests
// after it. Gemini CLI writes no end of turn: a reply is written when the
// model's stream ends, and the calls it made only once they have run, so
// its file shows a reply was the last only when the next prompt comes
// (watchers.ReplyEnded). The screen says the rest: a call waits for its
// approval (a dialog), runs (the working row), or the model is asked again
// (working). So the turn ended at the reply once the exact profile reads
// idle and the pane takes no output for the rest window, and no record of
// the turn follows in the file (any such record drops the rest).
type restingReply struct {
	end  evidence.Where
	text bool
	// since: idle and quiet since then (zero: not resting); outBytes: the
	// pane's output count it was quiet at.
	since    time.Time
	outBytes int64
}

// restAfter is the rest of a reply of the terminal's turn, started at now
// when the terminal's last observation is already idle (the screen often
// settles before the file is read).
func (l lastSeen) restAfter(terminalID string, ev evidence.ReplyEnded, now time.Time) *restingReply {
	r := &restingReply{end: ev.At(), text: ev.Text}
	if last, ok := l[terminalID]; ok && last.Screen == contract.ScreenIdle {
		r.since, r.outBytes = now, last.OutBytes
	}
	return r
}

// observe folds an observation: idle with no new output keeps the rest
// running; new output restarts it; any other screen stops it. No rest
// (nil) takes none.
func (r *restingReply) observe(o terminal.Observation) {
	if r == nil {
		return
	}
	switch {
	case o.Screen != contract.ScreenIdle:
		r.since = time.Time{}
	case r.since.IsZero() || o.OutBytes != r.outBytes:
		r.since = o.At
	}
	r.outBytes = o.OutBytes
}

// due is when the rest ends the turn (zero: not resting).
func (r *restingReply) due(window time.Duration) time.Time {
	if r == nil || r.since.IsZero() {
		return time.Time{}
	}
	return r.since.Add(window)
}
