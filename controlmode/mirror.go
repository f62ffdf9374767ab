package controlmode

import "github.com/agent-knock-knock/akk/vt"

// Mirror keeps a vt screen equal to tmux's view of one pane, from a
// Feed: it loads every seed, writes every byte, and on a Check compares
// its screen with tmux's and asks for a re-seed on any difference. It is
// not safe for concurrent use; the goroutine that waits on the feed's
// Ready owns it.
type Mirror struct {
	feed   *Feed
	opts   vt.Options
	screen *vt.Screen
	stale  bool
	cause  string
	gone   bool
	err    error

	// Counters.
	Seeds, Checks, Mismatches int
	Bytes                     int64 // pane bytes written to the screen
	// LastDiff is the first differences of the last failed check.
	LastDiff []string
}

// NewMirror returns a mirror fed by f.
func NewMirror(f *Feed, opts vt.Options) *Mirror {
	return &Mirror{feed: f, opts: opts, stale: true, cause: "start"}
}

// Feed is the mirror's feed.
func (m *Mirror) Feed() *Feed { return m.feed }

// Screen is the model; nil before the first seed. While Stale, it shows
// the pane as it was and must not be trusted.
func (m *Mirror) Screen() *vt.Screen { return m.screen }

// Stale reports whether the screen no longer follows tmux (a seed is on
// its way) and why.
func (m *Mirror) Stale() (bool, string) { return m.stale, m.cause }

// Gone reports that the pane is gone or the connection ended.
func (m *Mirror) Gone() (bool, error) { return m.gone, m.err }

// Apply takes everything the feed holds and applies it. It reports
// whether the screen changed (or was replaced).
func (m *Mirror) Apply() bool {
	changed := false
	for {
		u := m.feed.Take()
		if u.Gone { // a screen nobody feeds no longer follows tmux
			m.gone, m.err, m.stale, m.cause = true, u.Err, true, "gone"
		}
		if u.Seed != nil {
			scr, err := u.Seed.Screen(m.opts)
			if err != nil {
				m.feed.Resync("seed rejected: " + err.Error())
				m.stale, m.cause = true, "seed rejected"
				return changed
			}
			m.screen, m.stale, m.cause = scr, false, ""
			m.Seeds++
			changed = true
		}
		if u.Stale {
			m.stale, m.cause = true, u.Cause
		}
		if len(u.Data) > 0 && m.screen != nil && !m.stale {
			_, _ = m.screen.Write(u.Data)
			m.Bytes += int64(len(u.Data))
			changed = true
			if m.screen.Diverged() {
				// The program left the alternate screen at another size:
				// tmux reflowed the normal screen, which the model cannot.
				m.feed.Resync("alternate screen left after a resize")
				m.stale, m.cause = true, "alternate screen left after a resize"
				return changed
			}
		}
		if u.Check == nil {
			return changed
		}
		if m.screen != nil && !m.stale {
			m.Checks++
			if d := CompareSeed(m.screen, u.Check); len(d) > 0 {
				m.Mismatches++
				m.LastDiff = d
				m.feed.Resync("check mismatch")
				m.stale, m.cause = true, "check mismatch"
			}
		}
	}
}
