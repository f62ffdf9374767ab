package supervisor

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/agent-knock-knock/akk/watchers"
)

// paneMonitor follows one pane: its goroutine owns the pane's feed and vt
// screen (controlmode.Mirror), re-identifies the foreground process when
// it changed, runs the recognizer when the screen changed, and records
// every change of the terminal's contract fields with its event. A burst of
// output costs one pass: each pass applies everything the feed holds, so
// recognition is coalesced and never runs on the control client's reader.
type paneMonitor struct {
	s    *Supervisor
	pane controlmode.PaneID
	sess *session
	lg   *slog.Logger

	stopCh   chan struct{}
	stopOnce sync.Once
	pokeCh   chan struct{} // cap 1: pass again without new output
	// fgChanged: tmux reported that the pane's foreground command (or its
	// death) changed: the next pass reads the foreground group whole.
	fgChanged  atomic.Bool
	recheckDue atomic.Bool // a re-read after an inconclusive read is due
	// isStarted: the monitor derived its terminal (reconcile waits).
	isStarted atomic.Bool
	ended     atomic.Bool // the goroutine has ended (the binder forgets it)

	infoMu sync.Mutex // a leaf lock (taken under Supervisor.mu): guards info
	info   controlmode.PaneInfo

	// dispatchLock is the terminal dispatch lock (DESIGN invariant 2): one
	// mutation at a time per terminal, held across its waits, while mu is
	// taken only for each look at the screen. A channel so that a caller
	// can give up when its context ends.
	dispatchLock chan struct{}

	mu         sync.Mutex // the terminal lock: guards everything below
	mirror     *controlmode.Mirror
	key        terminalKey
	id         string
	ident      *procid.Identity
	rec        recognition
	recog      paneRecognizer
	bind       bindingState
	term       store.Terminal // as recorded in the store
	isRecorded bool
	newPID     int // set by a respawn, handled by the next pass
	screenSeq  uint64
	stateSince time.Time
	// lastChange is when the screen last changed (for latency figures).
	lastChange   time.Time
	lastRecog    time.Time // when the last recognition ran
	dirty        bool      // the screen changed since the last recognition
	dead         bool      // the pane's own process has exited
	lastResolve  time.Time // when a native session resolution was last asked for
	lastIdentify time.Time // when the foreground group was last read whole
	// identRecheck schedules re-reads after an inconclusive read;
	// recheckTimer fires the next one (recheckDue, then a poke), whichever
	// goroutine ran the pass that asked for it (the loop or a barrier).
	identRecheck identityRecheck
	recheckTimer *time.Timer
	// passed is closed after the next pass that recognizes, if a dispatch
	// waits for one (nextPass); nil while nobody waits, so a pass costs no
	// allocation.
	passed chan struct{}
	// fenced: the current prompt's fence key was consumed (cached per
	// key so a pass does not read the store again).
	fenceKey string
	fenced   bool
	// activeTurn is the managed Turn last sent to this terminal and not
	// settled (approve by turn_id, cancel).
	activeTurn string
}

func newMonitor(s *Supervisor, se *session, p controlmode.PaneInfo) *paneMonitor {
	return &paneMonitor{s: s, pane: p.Pane, sess: se, info: p,
		lg:     s.lg.With("pane", p.Pane.String()),
		stopCh: make(chan struct{}), pokeCh: make(chan struct{}, 1),
		dispatchLock: make(chan struct{}, 1)}
}

func (m *paneMonitor) started() bool { return m.isStarted.Load() }

// nextPass returns a channel closed after the next recognition pass.
// Called with mu held.
func (m *paneMonitor) nextPass() <-chan struct{} {
	if m.passed == nil {
		m.passed = make(chan struct{})
	}
	return m.passed
}

// isGone reports whether the monitor's goroutine has ended.
func (m *paneMonitor) isGone() bool { return m.ended.Load() }

func (m *paneMonitor) stop() { m.stopOnce.Do(func() { close(m.stopCh) }) }

func (m *paneMonitor) poke() {
	select {
	case m.pokeCh <- struct{}{}:
	default:
	}
}

// foregroundChanged notes tmux's report that the pane's foreground
// command or its death changed: read the group whole, whatever the quick
// check says (a read that raced an exec may have seen the new name
// already, and an idle agent draws nothing that would bring it back).
func (m *paneMonitor) foregroundChanged() {
	m.fgChanged.Store(true)
	m.poke()
}

func (m *paneMonitor) setInfo(p controlmode.PaneInfo) {
	m.infoMu.Lock()
	changed := m.info.Window != p.Window || m.info.PID != p.PID
	m.info = p
	m.infoMu.Unlock()
	if changed {
		m.poke()
	}
}

func (m *paneMonitor) paneInfo() controlmode.PaneInfo {
	m.infoMu.Lock()
	defer m.infoMu.Unlock()
	return m.info
}

// respawned notes a new pane process (respawn-pane): a new terminal.
func (m *paneMonitor) respawned(pid int) {
	m.mu.Lock()
	m.newPID = pid
	m.mu.Unlock()
	m.poke()
}

func (m *paneMonitor) recorded() (store.Terminal, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.term, m.isRecorded
}

func (m *paneMonitor) run(ctx context.Context) {
	defer m.s.wg.Done()
	defer m.ended.Store(true)
	feed, err := m.sess.client.Follow(m.pane)
	if err != nil {
		m.lg.Debug("follow", "err", err)
		m.s.release(ctx, m, "pane closed")
		return
	}
	defer feed.Close()
	m.mu.Lock()
	m.mirror = controlmode.NewMirror(feed, vt.Options{})
	m.setTerminal(m.paneInfo().PID)
	m.mu.Unlock()
	m.isStarted.Store(true)
	gap := time.NewTimer(time.Hour)
	gap.Stop()
	defer gap.Stop()
	defer m.stopRecheck()
	for {
		poked := false
		select {
		case <-ctx.Done():
			m.s.release(ctx, m, "daemon stopped")
			return
		case <-m.stopCh:
			m.s.release(ctx, m, "pane left its session")
			return
		case <-feed.Ready():
		case <-m.pokeCh:
			poked = true
		case <-gap.C:
		}
		gone, wait := m.pass(poked)
		if gone {
			m.s.release(ctx, m, "pane closed")
			return
		}
		if wait > 0 {
			gap.Reset(wait)
		}
	}
}

// minRecognitionGap spaces the recognitions of one pane: output that keeps
// flowing (a build log scrolling) is applied to the screen as it comes but
// recognized at most once per gap, the last change always within one gap.
const minRecognitionGap = 2 * time.Millisecond

// setTerminal derives the terminal of the pane's current process and takes
// the store's record of it, if any. Called with mu held.
func (m *paneMonitor) setTerminal(panePID int) {
	var start uint64
	if st, err := procid.ReadStat(panePID); err == nil {
		start = st.StartTime
	} else {
		// The pane's process has exited (remain-on-exit): its pid stays the
		// pane's, so the store's record of this pane and pid is this
		// terminal.
		start = m.s.storedStart(m.pane.String(), panePID)
	}
	m.key = terminalKey{Socket: m.s.server.Socket, ServerPID: m.s.server.PID, Pane: m.pane.String(),
		PanePID: panePID, PaneStart: start}
	m.id = terminalID(m.s.secret, m.key)
	m.ident, m.bind = nil, bindingState{}
	m.term, m.isRecorded = m.s.claimStored(m.id)
	for _, old := range m.s.staleForPane(m.key.Pane, m.id) {
		m.s.removeTerminal(old, "pane respawned while akk was not running")
	}
	m.stateSince = m.s.cfg.Now()
	if m.isRecorded {
		m.bind = bindingFromStore(m.s, m.id)
	}
	m.lg = m.s.lg.With("pane", m.pane.String(), "terminal", m.id)
}

// pass applies the feed, refreshes identity and recognition, and records
// what changed. It reports whether the pane is gone, and how long to wait
// before the recognition it deferred (minRecognitionGap).
func (m *paneMonitor) pass(poked bool) (gone bool, wait time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := m.mirror.Apply()
	if g, err := m.mirror.Gone(); g {
		m.lg.Debug("pane gone", "err", err)
		return true, 0
	}
	identify := m.recheckDue.Swap(false)
	if m.fgChanged.Swap(false) {
		m.identRecheck.reset()
		identify = true
	}
	poked = poked || identify
	if m.newPID != 0 {
		if m.isRecorded {
			m.s.removeTerminal(m.term, "pane respawned")
		}
		m.setTerminal(m.newPID)
		m.newPID, changed, poked = 0, true, true
	}
	now := m.s.cfg.Now()
	if changed {
		m.screenSeq++
		m.lastChange = now
		m.dirty = true
	}
	if !m.dirty && !poked && m.isRecorded {
		return false, 0
	}
	if since := now.Sub(m.lastRecog); !poked && m.isRecorded && since < minRecognitionGap {
		return false, minRecognitionGap - since
	}
	changed = changed || m.dirty
	m.dirty, m.lastRecog = false, now
	identChanged := m.refreshIdentity(identify)
	if scr := m.mirror.Screen(); scr != nil && (changed || identChanged || poked || !m.isRecorded) {
		if stale, _ := m.mirror.Stale(); !stale {
			if m.s.cfg.recognize != nil {
				m.rec = m.s.cfg.recognize(m.ident.Agent, m.ident.Version, scr)
			} else {
				m.rec = m.recog.recognize(m.s.ikey, m.ident.Agent, m.ident.Version, scr)
			}
		}
	}
	m.applyFence()
	if m.passed != nil { // someone waits for this pass
		close(m.passed)
		m.passed = nil
	}
	prevScreen := m.term.Screen
	if identChanged {
		m.lastResolve = now
		m.s.binds.identityChanged(m, m.id, *m.ident)
	} else if m.wantsResolve(prevScreen, now) {
		m.lastResolve = now
		m.s.binds.identityChanged(m, m.id, *m.ident)
	}
	m.record(now)
	m.s.tasks.observe(m.observation(now)) // Watches and Turn monitors (tasks.go)
	return false, 0
}

// wantsResolve says whether to look for the native session again though
// the process did not change: a Claude transcript appears only with the
// first prompt, and /clear or /resume move an agent to another session.
// The screen says when that may have happened: an unresolved agent is
// resolved again whenever its screen state changes, a resolved one when it
// comes back to idle; never more often than the gaps below (a
// resolution scans the agent's files).
func (m *paneMonitor) wantsResolve(prevScreen string, now time.Time) bool {
	if m.ident == nil || m.ident.Agent == api.AgentNone || m.ident.Replica || m.rec.Screen == prevScreen {
		return false
	}
	if m.bind.State != string(watchers.Resolved) {
		return now.Sub(m.lastResolve) >= time.Second
	}
	return m.rec.Screen == api.ScreenIdle && now.Sub(m.lastResolve) >= 5*time.Second
}

// refreshIdentity re-reads the foreground group whole when force says so
// (tmux reported a foreground change, or a recheck is due), when two
// /proc reads say it changed, or, while a launcher leads the group, when
// the pane draws; and reports whether the process incarnation changed.
// A whole read that is inconclusive (procid.Inconclusive) asks for
// another one shortly after (scheduleRecheck).
func (m *paneMonitor) refreshIdentity(force bool) bool {
	pid := m.key.PanePID
	now := m.s.cfg.Now()
	if m.ident != nil && !force && !procid.QuickCheck(pid, m.ident) &&
		!(m.ident.Launching() && now.Sub(m.lastIdentify) >= 250*time.Millisecond) {
		if m.ident.AgentPID != 0 { // cwd moves without a new process
			if cwd, err := procid.Cwd(m.ident.AgentPID); err == nil {
				m.ident.Cwd = cwd
			}
		}
		return false
	}
	p, err := m.s.ident.Identify(pid)
	m.lastIdentify = now
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
func (m *paneMonitor) scheduleRecheck(why string) {
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
			m.poke()
		})
		return
	}
	m.recheckTimer.Reset(d)
}

// stopRecheck stops a pending re-read: the monitor ends.
func (m *paneMonitor) stopRecheck() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recheckTimer != nil {
		m.recheckTimer.Stop()
	}
}

// record builds the terminal's record and, if any contract field changed,
// writes it with its events. Called with mu held (terminal lock, then the
// store writer: DESIGN invariant 2).
func (m *paneMonitor) record(now time.Time) {
	next := m.build(now)
	if m.isRecorded && !processAttrsChanged(m.term, next) && !stateChanged(m.term, next) &&
		m.term.Window == next.Window && m.term.Session == next.Session && m.term.Cwd == next.Cwd {
		return
	}
	evs := stateEvents(m.term, next, !m.isRecorded)
	if m.isRecorded && stateChanged(m.term, next) {
		m.stateSince = now
	}
	if _, err := m.s.commit(store.Change{Terminals: []store.Terminal{next}, Events: evs}); err != nil {
		m.lg.Error("record terminal", "err", err)
		return
	}
	m.term, m.isRecorded = next, true
}

func (m *paneMonitor) build(now time.Time) store.Terminal {
	info := m.paneInfo()
	t := m.term
	if !m.isRecorded {
		t = store.Terminal{FirstSeen: now}
	}
	t.ID, t.Socket, t.ServerPID = m.id, m.key.Socket, m.key.ServerPID
	t.Pane, t.PanePID, t.PaneStart = m.key.Pane, m.key.PanePID, m.key.PaneStart
	t.SessionID, t.Window, t.LastSeen = m.sess.id.String(), info.Window.String(), now
	m.s.mu.Lock()
	t.Session = m.sess.name
	m.s.mu.Unlock()
	id := m.ident
	if id == nil {
		id = &procid.Identity{Agent: api.AgentNone}
	}
	t.Agent, t.Version, t.Replica, t.PID, t.Command = id.Agent, id.Version, id.Replica, id.AgentPID, id.Command
	t.Cwd = id.Cwd
	if t.Cwd == "" {
		t.Cwd = info.CurrentPath
	}
	r := m.rec
	if r.Screen == "" {
		r = recognition{Screen: api.ScreenUnknown, Composer: "absent"}
	}
	t.Screen, t.Composer = r.Screen, r.Composer
	if m.dead { // a dead pane kept by remain-on-exit
		t.Screen, t.Composer = api.ScreenExited, "absent"
	}
	t.Interact, t.InterState = "", ""
	if r.Interaction != nil {
		t.Interact, t.InterState = string(r.Interaction.Kind), r.Interaction.State
	}
	t.Identity, t.Durable = m.bind.identityState(id), m.bind.durableState(id)
	t.Activity = activityState(t.Screen, t.Durable)
	return t
}

// row is the terminal's list row. Called with mu held.
func (m *paneMonitor) row() api.Terminal {
	t := m.term
	r := m.rec
	warnings := append([]string{}, r.Warnings...)
	if m.ident != nil && m.ident.Agent != api.AgentNone && m.ident.Version == "" {
		warnings = append(warnings, "agent version unknown")
	}
	if stale, cause := m.mirror.Stale(); stale {
		warnings = append(warnings, "screen re-seeding: "+cause)
	}
	profile := r.Profile
	if t.Agent == api.AgentNone {
		profile = ""
	}
	return api.Terminal{
		TerminalID: t.ID, Agent: t.Agent, Version: t.Version, Profile: profile, Replica: t.Replica,
		PaneID: t.Pane, Session: t.Session, Window: t.Window, PID: t.PID, Cwd: t.Cwd,
		ScreenState: t.Screen, Composer: t.Composer, NativeIdentityState: t.Identity,
		DurableActivityState: t.Durable, ActivityState: t.Activity, Interaction: r.Interaction,
		AvailableActions: m.availableActions(), Warnings: warnings, Command: t.Command,
		DraftLength: r.DraftLen, StateSince: m.stateSince, SessionID: m.s.sessionIDOf(t.Agent, m.bind.SessionID),
	}
}
