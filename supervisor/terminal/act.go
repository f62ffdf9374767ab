package terminal

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// The act primitives: what the dispatch transaction does to a pane. The
// transaction decides; these only lock, look, wait and type.

// View is one look at the terminal, under its lock: what a mutation's
// checks read. Ident is a copy; Rec's interaction and plan are never
// changed once made.
type View struct {
	ID       string
	Recorded bool
	Ident    *procid.Identity // nil before the first read
	Bind     Binding
	Rec      Recognition
	Seq      uint64 // the screen sequence Rec was made on
	// LastChange is when the screen last changed, on the monotonic clock
	// (time.Since measures it; it is not the injected wall clock).
	LastChange time.Time
	Stale      bool
	StaleCause string
	// BracketedPaste: the application enabled bracketed paste.
	BracketedPaste bool
	// CurrentFence is the fence key of the prompt on screen; FenceKey and
	// Fenced what the last pass read of the store (FenceKey consumed).
	CurrentFence string
	FenceKey     string
	Fenced       bool
	ActiveTurn   string
	Dead         bool
	// Gate is what tmux would do with a key sent now, as the last barrier
	// read it (GateAt: when its answer came; zero before any barrier).
	Gate   controlmode.InputGate
	GateAt time.Time
	// SessionID is the AKK session id of the resolved native session
	// ("" unless resolved): the session_exact send target.
	SessionID string
	// LeftSessionID is the AKK session of the conversation the terminal
	// was bound to while its binding names none (reconcile_binding).
	LeftSessionID string
}

// View looks at the terminal now.
func (m *Pane) View() View {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.view()
}

// Next is View and a channel closed after the next recognition pass.
func (m *Pane) Next() (View, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.view(), m.nextPass()
}

// view is View. Called with mu held.
func (m *Pane) view() View {
	v := View{ID: m.id, Recorded: m.isRecorded, Bind: m.bind, Rec: m.rec, Seq: m.screenSeq, LastChange: m.lastChange,
		CurrentFence: m.currentFenceKey(), FenceKey: m.fenceKey, Fenced: m.fenced, ActiveTurn: m.activeTurn, Dead: m.dead,
		Gate: m.gate, GateAt: m.gateAt}
	if m.ident != nil {
		cp := *m.ident
		v.Ident = &cp
		v.SessionID, v.LeftSessionID = m.sessionID(), m.leftSessionID()
	}
	if m.mirror != nil {
		v.Stale, v.StaleCause = m.mirror.Stale()
		if scr := m.mirror.Screen(); scr != nil {
			v.BracketedPaste = scr.Modes().BracketedPaste
		}
	}
	return v
}

// LastChange is when the screen last changed (monotonic clock).
func (m *Pane) LastChange() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lastChange
}

// Timeouts of the primitives' waits.
const (
	lockWait       = 5 * time.Second // another mutation holds the terminal
	barrierTimeout = 5 * time.Second // the control connection answers
)

// ErrBusy: another mutation held the terminal for lockWait.
var ErrBusy = errors.New("terminal: another mutation of this terminal is in progress")

// Lock takes the terminal dispatch lock, waiting at most lockWait (then
// ErrBusy) or until ctx ends (its error); unlock releases it.
func (m *Pane) Lock(ctx context.Context) (unlock func(), err error) {
	t := time.NewTimer(lockWait)
	defer t.Stop()
	select {
	case m.dispatchLock <- struct{}{}:
		return func() { <-m.dispatchLock }, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Barrier makes the model hold every byte tmux had sent for the pane when
// the barrier command was answered (tmux writes a client's output in
// order, and the reader hands %output to the feed before it sees the
// command's %end), then runs a recognition pass on it. The barrier
// command also reads the pane's input gate (View.Gate): whether a key
// would reach the agent and no other pane.
func (m *Pane) Barrier(ctx context.Context) error {
	bctx, cancel := context.WithTimeout(ctx, barrierTimeout)
	defer cancel()
	rs, err := m.client.Exec(bctx, controlmode.GateCmd(m.pane))
	if err != nil {
		return fmt.Errorf("barrier %s: %w", m.pane, err)
	}
	var r *controlmode.Reply
	if len(rs) > 0 {
		r = rs[0]
	}
	gate, err := controlmode.ParseGate(m.pane, r)
	if err != nil {
		return fmt.Errorf("barrier %s: %w", m.pane, err)
	}
	m.mu.Lock()
	m.gate, m.gateAt = gate, time.Now()
	m.mu.Unlock()
	if gone, _ := m.pass(true); gone {
		return fmt.Errorf("barrier %s: the pane is gone", m.pane)
	}
	return nil
}

// settleQuiet is how long a screen must be free of %output before akk
// sends its first key: an agent that just drew a dialog may not have
// attached its key handling yet (Claude Code took a digit meant to choose
// "4. No" as a move of the highlight when it came within milliseconds of
// the dialog's first frame).
const (
	settleQuiet = 150 * time.Millisecond
	settleMax   = 3 * time.Second
)

// Settle waits, through barriers, until the pane has been quiet for
// settleQuiet (at most settleMax: a screen that never stops changing is
// then judged by the fingerprint check as it is).
func (m *Pane) Settle(ctx context.Context) error {
	deadline := time.Now().Add(settleMax)
	for {
		if err := m.Barrier(ctx); err != nil {
			return err
		}
		since := time.Since(m.LastChange())
		if since >= settleQuiet || time.Now().After(deadline) {
			return nil
		}
		// Never past the deadline, whatever the clocks say.
		t := time.NewTimer(max(min(settleQuiet-since, time.Until(deadline)), time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// SendBytes writes raw key bytes to the pane.
func (m *Pane) SendBytes(ctx context.Context, b []byte) error {
	return m.bounded(ctx, func(ctx context.Context) error { return m.client.SendBytes(ctx, m.pane, b) })
}

// inputTimeout bounds one input command line. tmux answers one in
// milliseconds; one that does not answer holds this client's command
// queue (every later barrier and status of its session waits behind it)
// and the dispatch lock of its terminal.
const inputTimeout = 5 * time.Second

// ErrTmuxTimeout: an input command got no answer within inputTimeout.
// Its keys may have been queued: the transaction ends uncertain.
var ErrTmuxTimeout = errors.New("tmux_timeout: tmux did not answer the input command in time; its control client was replaced")

// bounded runs one input command with a deadline of its own (the
// transaction runs input without its caller's cancellation: input that
// started is followed by its proof). On the deadline the stuck client is
// closed, so that its session is attached afresh and no other terminal of
// the session waits behind the command.
func (m *Pane) bounded(ctx context.Context, input func(context.Context) error) error {
	c := m.client.get()
	ictx, cancel := context.WithTimeout(ctx, inputTimeout)
	defer cancel()
	err := input(ictx)
	if err != nil && ctx.Err() == nil && errors.Is(ictx.Err(), context.DeadlineExceeded) {
		m.lg.Warn("input command timed out: closing the session's control client", "timeout", inputTimeout)
		go c.Close()
		return fmt.Errorf("%w (%w)", ErrTmuxTimeout, err)
	}
	return err
}

// TypeText puts text into the pane as the agents' own users do: a single
// line as typed keys (send-keys -l: one write, which the agents read as
// one burst), several lines as one bracketed paste — refused when the
// application did not enable bracketed paste, since a typed newline would
// submit.
func (m *Pane) TypeText(ctx context.Context, text string) error {
	return m.bounded(ctx, func(ctx context.Context) error {
		if !strings.Contains(text, "\n") {
			return m.client.SendText(ctx, m.pane, text)
		}
		return m.client.Paste(ctx, m.pane, text)
	})
}

// AwaitQuiet waits until the screen changed after seq and then stayed
// unchanged for quiet (measured from %output, not a fixed sleep), or max.
func (m *Pane) AwaitQuiet(ctx context.Context, seq uint64, quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for {
		m.mu.Lock()
		changed, since, ch := m.screenSeq != seq, time.Since(m.lastChange), m.nextPass()
		m.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 || (changed && since >= quiet) {
			return
		}
		wait := left
		if changed {
			wait = min(wait, quiet-since)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

// Await waits until a recognition of a screen newer than seq satisfies
// ok, or timeout; it returns the last recognition it saw.
func (m *Pane) Await(ctx context.Context, seq uint64, timeout time.Duration, ok func(Recognition) bool) (Recognition, bool) {
	deadline := time.Now().Add(timeout)
	for {
		m.mu.Lock()
		rec, now, ch := m.rec, m.screenSeq, m.nextPass()
		m.mu.Unlock()
		if now != seq && ok(rec) {
			return rec, true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return rec, false
		}
		t := time.NewTimer(left)
		select {
		case <-ctx.Done():
			t.Stop()
			return rec, false
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

// ForgetFence makes the next pass read the prompt's fence again (a
// mutation just wrote one).
func (m *Pane) ForgetFence() {
	m.mu.Lock()
	m.fenceKey = ""
	m.mu.Unlock()
}

// SetActiveTurn names the managed Turn last sent to the terminal.
func (m *Pane) SetActiveTurn(turnID string) {
	m.mu.Lock()
	m.activeTurn = turnID
	m.mu.Unlock()
}

// ClearActiveTurn forgets turnID, if it is the active Turn (it settled).
func (m *Pane) ClearActiveTurn(turnID string) {
	m.mu.Lock()
	if m.activeTurn == turnID {
		m.activeTurn = ""
	}
	m.mu.Unlock()
}

// Resolve asks the Observer to find the terminal's native session again
// (a first Claude prompt creates its transcript).
func (m *Pane) Resolve() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ident != nil {
		m.env.Observer.IdentityChanged(m, m.id, *m.ident)
	}
}
