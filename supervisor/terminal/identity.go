package terminal

import (
	"errors"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// refreshIdentity re-reads the foreground group whole when force says so
// (tmux reported a foreground change, or a recheck is due), when two
// /proc reads say it changed, or, while a launcher leads the group, when
// the pane draws; and reports whether the process incarnation changed.
// A whole read that is inconclusive (procid.Inconclusive) asks for
// another one shortly after (scheduleRecheck). tick is the monotonic
// now. Called with mu held.
func (m *Pane) refreshIdentity(force bool, tick time.Time) bool {
	pid := m.key.PanePID
	if m.ident != nil && !force && !procid.QuickCheck(pid, m.ident) &&
		!(m.ident.Launching() && tick.Sub(m.lastIdentify) >= 250*time.Millisecond) {
		if m.ident.AgentPID != 0 { // cwd moves without a new process
			if cwd, err := procid.Cwd(m.ident.AgentPID); err == nil {
				m.ident.Cwd = cwd
			}
		}
		return false
	}
	p, err := m.env.Ident.Identify(pid)
	m.lastIdentify = tick
	m.dead = false
	// A zombie is dead too: tmux marks the pane dead when its pty closes
	// but sometimes reaps the child late, and until then /proc still has it.
	if st, serr := procid.ReadStat(pid); errors.Is(serr, procid.ErrNoProcess) || serr == nil && (st.State == 'Z' || st.State == 'X') {
		m.dead = true
	}
	if err != nil {
		p = procid.Identity{Agent: api.AgentNone, Why: err.Error()}
		if !errors.Is(err, procid.ErrNoProcess) {
			m.lg.Debug("identify", "err", err)
		}
	}
	old := m.ident
	m.ident = &p
	m.scheduleRecheck(procid.Inconclusive(old, p))
	return old == nil || old.Incarnation() != p.Incarnation()
}

// scheduleRecheck arms (or disarms) the re-read after a whole read whose
// inconclusive reason is why. Called with mu held.
func (m *Pane) scheduleRecheck(why string) {
	d := m.identRecheck.next(why)
	if d == 0 {
		if m.recheckTimer != nil {
			m.recheckTimer.Stop()
		}
		return
	}
	m.lg.Debug("identity inconclusive", "why", why, "again_in", d)
	if m.recheckTimer == nil {
		m.recheckTimer = time.AfterFunc(d, func() {
			m.recheckDue.Store(true)
			m.Poke()
		})
		return
	}
	m.recheckTimer.Reset(d)
}

// stopRecheck stops a pending re-read: the monitor ends.
func (m *Pane) stopRecheck() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recheckTimer != nil {
		m.recheckTimer.Stop()
	}
}
