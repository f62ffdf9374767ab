package tmuxtest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPoll(t *testing.T) {
	n := 0
	if err := Poll(context.Background(), time.Second, func() string {
		if n++; n < 3 {
			return "not yet"
		}
		return ""
	}); err != nil || n != 3 {
		t.Errorf("met on the third look: err %v after %d looks", err, n)
	}
	err := Poll(context.Background(), 20*time.Millisecond, Until("never", func() bool { return false }))
	if err == nil || !strings.Contains(err.Error(), "still waiting for never") || !strings.Contains(err.Error(), "after 20ms") {
		t.Errorf("deadline: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Poll(ctx, time.Second, Until("x", func() bool { return false })); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A condition met by the time the deadline is noticed is a success.
	start := time.Now()
	if err := Poll(context.Background(), 30*time.Millisecond, Until("late", func() bool {
		return time.Since(start) >= 30*time.Millisecond
	})); err != nil {
		t.Errorf("met at the deadline: %v", err)
	}
}
