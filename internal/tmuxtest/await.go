package tmuxtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// pollEvery is how often a condition is looked at. Conditions here read a
// tmux server, a daemon's API or a file: a few milliseconds apart is far
// below what they measure and far above what they cost.
const pollEvery = 5 * time.Millisecond

// Await waits until cond returns "" (met), looking every few milliseconds,
// and fails t with cond's last complaint if d passes first. A test waits on
// the condition it needs, never on a sleep: d is a deadline for a broken
// run, not a guess at how long a good one takes.
func Await(t testing.TB, d time.Duration, cond func() string) {
	t.Helper()
	if err := Poll(context.Background(), d, cond); err != nil {
		t.Fatal(err)
	}
}

// Poll is Await for code that must not end the test itself (a goroutine,
// a helper that returns an error): it returns nil once cond returns "", or
// an error with cond's last complaint when d passes or ctx ends.
func Poll(ctx context.Context, d time.Duration, cond func() string) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		last := cond()
		if last == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			// The condition may have been met meanwhile: look once more,
			// so that a deadline never hides a success.
			if last = cond(); last == "" {
				return nil
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("after %v: %s", d, last)
			}
			return fmt.Errorf("%w: %s", ctx.Err(), last)
		case <-tick.C:
		}
	}
}

// Until adapts a boolean condition to Await and Poll: what names the
// condition in the failure message.
func Until(what string, ok func() bool) func() string {
	return func() string {
		if ok() {
			return ""
		}
		return "still waiting for " + what
	}
}
