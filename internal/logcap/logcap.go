// Package logcap bounds how often one warning or error is logged: a
// daemon left degraded (a full disk) meets the same failure at every write
// it tries, and a log must not grow without bound while it waits (pebble
// alone logged 2.6 million lines in ten minutes before the store's own
// limit). It does not drop the first of a kind, nothing below Warn, and it
// never hides that lines were dropped: the next line of a kind carries the
// count.
package logcap

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Defaults of New.
const (
	// Every is how often one kind of line is written at most.
	Every = 10 * time.Second
	// maxKinds bounds the counters; past it every new kind shares one.
	maxKinds = 256
)

// counts is the state the handlers of one New share.
type counts struct {
	now   func() time.Time
	every time.Duration

	mu   sync.Mutex
	seen map[string]*count
}

type count struct {
	last    time.Time // when a line of the kind was last written
	dropped int       // lines of the kind since then
}

// Handler is a slog.Handler that writes a Warn or Error record only if no
// record of its kind (level and message) was written in the last Every;
// the next one written carries "repeats_not_logged".
type Handler struct {
	next slog.Handler
	c    *counts
}

// New wraps next. now is the clock (nil: time.Now).
func New(next slog.Handler, now func() time.Time) *Handler {
	if now == nil {
		now = time.Now
	}
	return &Handler{next: next, c: &counts{now: now, every: Every, seen: map[string]*count{}}}
}

func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return h.next.Handle(ctx, r)
	}
	dropped, write := h.c.admit(r.Level.String() + " " + r.Message)
	if !write {
		return nil
	}
	if dropped > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("repeats_not_logged", dropped))
	}
	return h.next.Handle(ctx, r)
}

func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &Handler{next: h.next.WithAttrs(as), c: h.c}
}

func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), c: h.c}
}

// admit says whether a line of kind is written now, and how many of its
// kind were dropped since the last one written.
func (c *counts) admit(kind string) (dropped int, write bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.seen[kind]
	if k == nil {
		if len(c.seen) >= maxKinds {
			kind = "other"
		}
		if k = c.seen[kind]; k == nil {
			k = &count{}
			c.seen[kind] = k
		}
	}
	now := c.now()
	if !k.last.IsZero() && now.Sub(k.last) < c.every {
		k.dropped++
		return 0, false
	}
	dropped, k.last, k.dropped = k.dropped, now, 0
	return dropped, true
}
