package logcap

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestLogcap: 100,000 repeats of one failure in a minute write 6 lines
// (the first, then one per 10 s carrying the count); other kinds, and
// every Info line, are untouched; attributes added with With share the
// kind's count.
func TestLogcap(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	h := New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}), func() time.Time { return clock })
	lg := slog.New(h)
	term := lg.With("terminal", "term_a")
	for i := range 100000 {
		clock = clock.Add(600 * time.Microsecond) // 60 s in all
		if i%2 == 0 {
			lg.Error("record terminal state", "err", "no space left on device")
		} else {
			term.Error("record terminal state", "err", "no space left on device")
		}
	}
	lg.Warn("another kind")
	lg.Info("an info line")
	lg.Info("an info line")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var failures, counted int
	for _, l := range lines {
		if strings.Contains(l, "record terminal state") {
			failures++
			if strings.Contains(l, "repeats_not_logged=") {
				counted++
			}
		}
	}
	if failures != 6 || counted != 5 {
		t.Errorf("%d lines of the failure (%d with a count), want 6 (5):\n%s", failures, counted, out.String())
	}
	if !strings.Contains(out.String(), "another kind") || strings.Count(out.String(), "an info line") != 2 {
		t.Errorf("other lines were dropped:\n%s", out.String())
	}
}
