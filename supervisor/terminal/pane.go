package terminal

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/vt"
)

// Host is what a pane needs of the daemon: the registry of stored
// terminals and the journal.
type Host interface {
	// Commit writes one change, synced, and wakes the event followers.
	Commit(store.Change) error
	// ClaimStored hands over the store's record of terminal id, if nobody
	// claimed it (the daemon restarted, or the pane moved between sessions).
	ClaimStored(id string) (store.Terminal, bool)
	// StoredStart is the pane process start time the store recorded for
	// this server, pane and pid (0: none).
	StoredStart(pane string, pid int) uint64
	// StaleForPane takes the stored records of earlier incarnations of pane.
	StaleForPane(pane, current string) []store.Terminal
	// Removed records that a terminal is gone.
	Removed(t store.Terminal, reason string)
	// Released is called by the pane's goroutine as it ends.
	Released(ctx context.Context, p *Pane, reason string)
	// SessionName is the tmux session's current name (false: the session
	// is no longer attached, and the recorded name stands).
	SessionName(id controlmode.SessionID) (string, bool)
	// Fenced says whether a prompt's fence key was consumed, and how.
	Fenced(key string) (FenceState, error)
	// StoredBinding is the terminal's recorded binding (zero: none).
	StoredBinding(id string) Binding
}

// Observer is told what every pass saw, without blocking the pane: the
// binding package (a new process to resolve) and the tasks (Watches and
// Turn monitors).
type Observer interface {
	IdentityChanged(p *Pane, id string, ident procid.Identity)
	Observe(Observation)
}

// Server is the tmux server the panes belong to.
type Server struct {
	Socket string
	PID    int
}

// Env is what every pane of one daemon shares.
type Env struct {
	Server Server
	Secret []byte          // derives terminal and session ids
	Key    recognizers.Key // derives public interaction ids
	Ident  *procid.Classifier
	Now    func() time.Time
	Logger *slog.Logger
	// Recognize replaces the recognizers call (benchmarks of the
	// pipeline); nil runs the recognizers.
	Recognize func(agent, version string, scr *vt.Screen) Recognition
	// Profiles picks each pane's profile (nil: recognizers.Lookup).
	Profiles Profiles
	Host     Host
	Observer Observer
}

// Pane follows one pane: its goroutine owns the pane's feed and vt screen
// (controlmode.Mirror), re-identifies the foreground process when it
// changed, runs the recognizer when the screen changed, and records every
// change of the terminal's contract fields with its event. A burst of
// output costs one pass: each pass applies everything the feed holds, so
// recognition is coalesced and never runs on the control client's reader.
// Its act primitives (act.go) are what the dispatch transaction uses.
type Pane struct {
	env     *Env
	pane    controlmode.PaneID
	session controlmode.SessionID
	client  *link // replaced by Reattach (link.go)
	lg      *slog.Logger

	stopCh   chan struct{}
	stopOnce sync.Once
	pokeCh   chan struct{} // cap 1: pass again without new output
	// fgChanged: tmux reported that the pane's foreground command (or its
	// death) changed: the next pass reads the foreground group whole.
	fgChanged  atomic.Bool
	fgReports  atomic.Int64 // how many such reports came (Diagnose)
	recheckDue atomic.Bool  // a re-read after an inconclusive read is due
	// isStarted: the pane derived its terminal (reconcile waits).
	isStarted atomic.Bool
	ended     atomic.Bool // the goroutine has ended (the binder forgets it)

	infoMu sync.Mutex // a leaf lock (taken under the registry's): guards info
	info   controlmode.PaneInfo

	// dispatchLock is the terminal dispatch lock (DESIGN invariant 2): one
	// mutation at a time per terminal, held across its waits, while mu is
	// taken only for each look at the screen. A channel so that a caller
	// can give up when its context ends.
	dispatchLock chan struct{}

	mu     sync.Mutex // the terminal lock: guards everything below
	mirror *controlmode.Mirror
	key    Key
	id     string
	ident  *procid.Identity
	rec    Recognition
	recog  paneRecognizer
	// profile reads the pane's agent, chosen by profileOf for ident at
	// profileGen of Env.Profiles.
	profile    recognizers.Profile
	profileGen uint64
	bind       Binding
	term       store.Terminal // as recorded in the store
	isRecorded bool
	newPID     int // set by a respawn, handled by the next pass
	screenSeq  uint64
	stateSince time.Time
	// The times below pace the pane's work and measure its quiet: they
	// are read on the process's monotonic clock (time.Now), never on
	// env.Now, which is the wall clock of what akk records and may be
	// set anywhere (a test's clock hours ahead made Settle wait for hours).
	lastChange   time.Time // when the screen last changed
	lastRecog    time.Time // when the last recognition ran
	dirty        bool      // the screen changed since the last recognition
	dead         bool      // the pane's own process has exited
	lost         bool      // its control client ended: it waits for Reattach
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
	fenceKey       string
	fenced         bool
	fenceUncertain bool
	// activeTurn is the managed Turn last sent to this terminal and not
	// settled (approve by turn_id, cancel).
	activeTurn string
	// gate is what tmux would do with a key, as the last barrier read it
	// (gateAt: when its answer came).
	gate   controlmode.InputGate
	gateAt time.Time
}

// New prepares the monitor of pane p of session, followed through client;
// Run starts it.
func New(env *Env, session controlmode.SessionID, client *controlmode.Client, p controlmode.PaneInfo) *Pane {
	return &Pane{env: env, pane: p.Pane, session: session, client: &link{c: client}, info: p,
		lg:     env.Logger.With("pane", p.Pane.String()),
		stopCh: make(chan struct{}), pokeCh: make(chan struct{}, 1),
		dispatchLock: make(chan struct{}, 1)}
}

// PaneID is the tmux pane followed.
func (m *Pane) PaneID() controlmode.PaneID { return m.pane }

// Session is the tmux session the pane is followed through.
func (m *Pane) Session() controlmode.SessionID { return m.session }

// Started reports whether the pane derived its terminal (reconcile waits
// for it).
func (m *Pane) Started() bool { return m.isStarted.Load() }

// nextPass returns a channel closed after the next recognition pass.
// Called with mu held.
func (m *Pane) nextPass() <-chan struct{} {
	if m.passed == nil {
		m.passed = make(chan struct{})
	}
	return m.passed
}

// Gone reports whether the pane's goroutine has ended.
func (m *Pane) Gone() bool { return m.ended.Load() }

// Stop ends the pane's goroutine: the pane left its session.
func (m *Pane) Stop() { m.stopOnce.Do(func() { close(m.stopCh) }) }

// Poke asks for a pass without new output.
func (m *Pane) Poke() {
	select {
	case m.pokeCh <- struct{}{}:
	default:
	}
}

// ForegroundChanged notes tmux's report that the pane's foreground
// command or its death changed: read the group whole, whatever the quick
// check says (a read that raced an exec may have seen the new name
// already, and an idle agent draws nothing that would bring it back).
func (m *Pane) ForegroundChanged() {
	m.fgChanged.Store(true)
	m.fgReports.Add(1)
	m.Poke()
}

// SetInfo takes the pane's listing (window, pid, path).
func (m *Pane) SetInfo(p controlmode.PaneInfo) {
	m.infoMu.Lock()
	changed := m.info.Window != p.Window || m.info.PID != p.PID
	m.info = p
	m.infoMu.Unlock()
	if changed {
		m.Poke()
	}
}

func (m *Pane) paneInfo() controlmode.PaneInfo {
	m.infoMu.Lock()
	defer m.infoMu.Unlock()
	return m.info
}

// Respawned notes a new pane process (respawn-pane): a new terminal.
func (m *Pane) Respawned(pid int) {
	m.mu.Lock()
	m.newPID = pid
	m.mu.Unlock()
	m.Poke()
}

// Recorded is the terminal's record, if it was recorded.
func (m *Pane) Recorded() (store.Terminal, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.term, m.isRecorded
}

// SetBinding installs a binding result and asks for a pass to record it.
func (m *Pane) SetBinding(b Binding) {
	m.mu.Lock()
	if b.Seq != 0 && b.Seq < m.bind.Seq {
		m.mu.Unlock()
		return // read before the one the pane has
	}
	m.bind = b
	m.mu.Unlock()
	m.Poke()
}

// Run follows the pane until ctx ends, Stop, or the pane goes away; the
// Host is told which (Released).
func (m *Pane) Run(ctx context.Context) {
	defer m.ended.Store(true)
	host := m.env.Host
	m.mu.Lock()
	if err := m.follow(); err != nil {
		m.mu.Unlock()
		m.lg.Debug("follow", "err", err)
		host.Released(ctx, m, "pane closed")
		return
	}
	m.setTerminal(m.paneInfo().PID)
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.mirror.Feed().Close()
		m.mu.Unlock()
	}()
	m.isStarted.Store(true)
	gap := time.NewTimer(time.Hour)
	gap.Stop()
	defer gap.Stop()
	defer m.stopRecheck()
	for {
		poked := false
		m.mu.Lock()
		ready := m.ready() // Reattach replaces the feed (and pokes)
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			host.Released(ctx, m, "daemon stopped")
			return
		case <-m.stopCh:
			host.Released(ctx, m, "pane left its session")
			return
		case <-ready:
		case <-m.pokeCh:
			poked = true
		case <-gap.C:
		}
		gone, wait := m.pass(poked)
		if gone {
			host.Released(ctx, m, "pane closed")
			return
		}
		if wait > 0 {
			gap.Reset(wait)
		}
	}
}

// MinRecognitionGap spaces the recognitions of one pane: output that keeps
// flowing (a build log scrolling) is applied to the screen as it comes but
// recognized at most once per gap, the last change always within one gap.
const MinRecognitionGap = 2 * time.Millisecond

// setTerminal derives the terminal of the pane's current process and takes
// the store's record of it, if any. Called with mu held.
func (m *Pane) setTerminal(panePID int) {
	host := m.env.Host
	var start uint64
	if st, err := procid.ReadStat(panePID); err == nil {
		start = st.StartTime
	} else {
		// The pane's process has exited (remain-on-exit): its pid stays the
		// pane's, so the store's record of this pane and pid is this
		// terminal.
		start = host.StoredStart(m.pane.String(), panePID)
	}
	m.key = Key{Socket: m.env.Server.Socket, ServerPID: m.env.Server.PID, Pane: m.pane.String(),
		PanePID: panePID, PaneStart: start}
	m.id = ID(m.env.Secret, m.key)
	m.ident, m.bind = nil, Binding{}
	m.term, m.isRecorded = host.ClaimStored(m.id)
	for _, old := range host.StaleForPane(m.key.Pane, m.id) {
		host.Removed(old, "pane respawned while akk was not running")
	}
	m.stateSince = m.env.Now()
	if m.isRecorded {
		m.bind = host.StoredBinding(m.id)
	}
	m.lg = m.env.Logger.With("pane", m.pane.String(), "terminal", m.id)
}

// pass applies the feed, refreshes identity and recognition, and records
// what changed. It reports whether the pane is gone, and how long to wait
// before the recognition it deferred (MinRecognitionGap).
func (m *Pane) pass(poked bool) (gone bool, wait time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := m.mirror.Apply()
	if g, err := m.mirror.Gone(); g {
		if connectionEnded(err) { // not the pane's end (link.go)
			if !m.lost {
				m.lg.Info("control client ended; waiting for a new one", "err", err)
			}
			m.lost = true
			return false, 0
		}
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
			m.env.Host.Removed(m.term, "pane respawned")
		}
		m.setTerminal(m.newPID)
		m.newPID, changed, poked = 0, true, true
	}
	now, tick := m.env.Now(), time.Now()
	if changed {
		m.screenSeq++
		m.lastChange = tick
		m.dirty = true
	}
	if !m.dirty && !poked && m.isRecorded {
		return false, 0
	}
	if since := tick.Sub(m.lastRecog); !poked && m.isRecorded && since < MinRecognitionGap {
		return false, MinRecognitionGap - since
	}
	changed = changed || m.dirty
	m.dirty, m.lastRecog = false, tick
	identChanged := m.refreshIdentity(identify, tick)
	if scr := m.mirror.Screen(); scr != nil && (changed || identChanged || poked || !m.isRecorded) {
		if stale, _ := m.mirror.Stale(); !stale {
			prev := m.rec.Blocked
			if m.env.Recognize != nil {
				m.rec = m.env.Recognize(m.ident.Agent, m.ident.Version, scr)
			} else {
				m.rec = m.recog.recognize(m.env.Key, m.profileOf(identChanged), scr)
			}
			m.rec.Blocked = placeBlock(prev, m.rec.Blocked, now)
		}
	}
	m.applyFence()
	m.applySecret()
	if m.passed != nil { // someone waits for this pass
		close(m.passed)
		m.passed = nil
	}
	prevScreen := m.term.Screen
	if identChanged || m.wantsResolve(prevScreen, tick) {
		m.lastResolve = tick
		m.env.Observer.IdentityChanged(m, m.id, *m.ident)
	}
	m.record(now)
	m.env.Observer.Observe(m.observation(now)) // Watches and Turn monitors
	return false, 0
}

// wantsResolve says whether to look for the native session again though
// the process did not change: a Claude transcript appears only with the
// first prompt, and /clear or /resume move an agent to another session.
// The screen says when that may have happened: an unresolved agent is
// resolved again whenever its screen state changes, a resolved one when it
// comes back to idle; never more often than the gaps below (a
// resolution scans the agent's files). tick is the monotonic now.
func (m *Pane) wantsResolve(prevScreen contract.ScreenState, tick time.Time) bool {
	if m.ident == nil || m.ident.Agent == api.AgentNone || m.ident.Replica || m.rec.Screen == prevScreen {
		return false
	}
	if m.bind.State != contract.IdentityResolved {
		return tick.Sub(m.lastResolve) >= time.Second
	}
	return m.rec.Screen == contract.ScreenIdle && tick.Sub(m.lastResolve) >= 5*time.Second
}

// ID is the terminal id of the pane's current process ("" before Run
// derived it).
func (m *Pane) ID() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.id
}
