package store

import (
	"log/slog"
	"sync"
	"time"
)

// limitedLog bounds a repeating message: pebble retries a failed flush at
// once and logs each failure (2.6 million lines in ten minutes on a full
// disk). A message is logged the first time; its repeats are counted and
// logged at most once per logEvery, with the count. Keys are the
// messages' formats, so a count gathers every repeat of one kind; past
// maxKeys kinds, the rest share one key.
type limitedLog struct {
	lg  *slog.Logger
	now func() time.Time

	mu   sync.Mutex
	seen map[string]*logCount
}

type logCount struct {
	last       time.Time // when a line was last written
	suppressed int       // repeats since then
}

const (
	logEvery = 10 * time.Second
	maxKeys  = 64
)

func newLimitedLog(lg *slog.Logger) *limitedLog {
	return &limitedLog{lg: lg, now: time.Now, seen: map[string]*logCount{}}
}

// error logs msg (of kind key) unless one of its kind was logged less
// than logEvery ago.
func (l *limitedLog) error(key, msg string) {
	l.mu.Lock()
	c := l.seen[key]
	if c == nil {
		if len(l.seen) >= maxKeys {
			key = "other"
		}
		if c = l.seen[key]; c == nil {
			c = &logCount{}
			l.seen[key] = c
		}
	}
	now := l.now()
	if !c.last.IsZero() && now.Sub(c.last) < logEvery {
		c.suppressed++
		l.mu.Unlock()
		return
	}
	n := c.suppressed
	c.last, c.suppressed = now, 0
	l.mu.Unlock()
	if n > 0 {
		l.lg.Error(msg, "component", "pebble", "repeats_not_logged", n)
		return
	}
	l.lg.Error(msg, "component", "pebble")
}
