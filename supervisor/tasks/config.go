package tasks

import (
	"cmp"
	"time"
)

// Config configures the monitors and Watches.
type Config struct {
	// StableIdle is how long a terminal_activity Watch's pane must show no
	// output before idle counts as stable (0: 5 s).
	StableIdle time.Duration
	// IdleGap is the least time between the two idle recognitions that
	// settle a terminal_activity Watch (0: 1 s).
	IdleGap time.Duration
	// WatchMinutes is a Watch's lifetime and Renew's default (0: 720).
	WatchMinutes int
	// ReplyRest is how long an agent's screen must read idle, with no
	// output, after a reply that may end its turn for that reply to end
	// it (an agent whose file writes no end of turn; 0: 1 s).
	ReplyRest time.Duration
	// StallAfter is a managed Turn's inactivity window before a stall
	// notification (0: 60 min); HardTimeout ends it (0: 720 min).
	StallAfter, HardTimeout time.Duration
}

// Defaults of the task configuration.
const (
	DefaultStableIdle   = 5 * time.Second
	defaultIdleGap      = time.Second
	defaultReplyRest    = time.Second
	defaultWatchMinutes = 720
	defaultStallAfter   = 60 * time.Minute
	defaultHardTimeout  = 720 * time.Minute
)

func (c *Config) ensureDefaults() {
	c.StableIdle = cmp.Or(c.StableIdle, DefaultStableIdle)
	c.IdleGap = cmp.Or(c.IdleGap, defaultIdleGap)
	c.ReplyRest = cmp.Or(c.ReplyRest, defaultReplyRest)
	c.WatchMinutes = cmp.Or(c.WatchMinutes, defaultWatchMinutes)
	c.StallAfter = cmp.Or(c.StallAfter, defaultStallAfter)
	c.HardTimeout = cmp.Or(c.HardTimeout, defaultHardTimeout)
}
