package terminal

import (
	"errors"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// refreshIdentity re-reads the foreground group whole when force says so
// (tmux reported a foreground change, or a recheck is due), when two
// /proc reads say it changed, or, while a launcher leads the group (an
// interpreter, or a shell running a script, whose agent child tmux never
// reports), when the pane draws, at most once per launcherGap and never
// dropped; and reports whether the process incarnation changed.
// A whole read that is inconclusive (procid.Inconclusive) asks for
// another one shortly after (scheduleRecheck). tick is the monotonic
// now. Called with mu held.
func (m *Pane) refreshIdentity(force bool, tick time.Time) bool {
	pid := m.key.PanePID
	why := "forced"
	switch {
	case m.ident == nil:
		why = "first read"
	case force:
	case procid.QuickCheck(pid, m.ident):
		why = "the group changed"
	case m.ident.Launching() && tick.Sub(m.lastIdentify) >= launcherGap:
		why = "a launcher's pane drew"
	default:
		if m.ident.Launching() {
			// Drawn too soon after the last read: read once the gap is
			// over (the agent may draw nothing more until then).
			m.recheckIn(launcherGap - tick.Sub(m.lastIdentify))
		}
		if m.ident.AgentPID != 0 { // cwd moves without a new process
			if cwd, err := procid.Cwd(m.ident.AgentPID); err == nil {
				m.ident.Cwd = cwd
			}
		}
		return false
	}
	p, err := m.env.Ident.Identify(pid)
	m.lg.Debug("identify", "why", why, "agent", p.Agent, "pgid", p.PGID, "members", len(p.Members))
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
	m.recheckIn(d)
}

// recheckIn arms the re-read d from now. Called with mu held.
func (m *Pane) recheckIn(d time.Duration) {
	if m.recheckTimer == nil {
		m.recheckTimer = time.AfterFunc(d, func() {
			m.recheckDue.Store(true)
			m.Poke()
		})
		return
	}
	m.recheckTimer.Reset(d)
}

// launcherGap is the least time between two whole reads of a group a
// launcher leads, however often its pane draws.
const launcherGap = 250 * time.Millisecond

// stopRecheck stops a pending re-read: the monitor ends.
func (m *Pane) stopRecheck() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recheckTimer != nil {
		m.recheckTimer.Stop()
	}
}
