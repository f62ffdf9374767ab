package terminal

import (
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// TestIdentityRecheckSchedule: re-reads double from 50 ms, stop after
// maxIdentityRechecks, and start afresh after a conclusive read or a
// reset (tmux reported a foreground change).
func TestIdentityRecheckSchedule(t *testing.T) {
	var r identityRecheck
	var got []time.Duration
	for range maxIdentityRechecks + 2 {
		got = append(got, r.next(procid.InconclusiveLauncher))
	}
	want := []time.Duration{50, 100, 200, 400, 800, 1600, 0, 0}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("schedule %v, want %v ms", got, want)
		}
	}
	r.reset()
	if d := r.next(procid.InconclusiveMidExec); d != firstIdentityRecheck {
		t.Errorf("after reset: %v, want %v", d, firstIdentityRecheck)
	}
	if d := r.next(""); d != 0 {
		t.Errorf("conclusive read: %v, want no re-read", d)
	}
	if d := r.next(procid.InconclusiveNewGroup); d != firstIdentityRecheck {
		t.Errorf("after a conclusive read: %v, want %v", d, firstIdentityRecheck)
	}
}
