package terminal

import (
	"context"
	"errors"
	"sync"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/vt"
)

// A control client can end while its session and panes live on: tmux's
// %exit, a killed `tmux -C`, a person's `detach-client -a`, or the daemon
// closing a client whose command timed out. That is not the pane's end.
// The pane then waits (its screen stale, so nothing acts on it) until the
// daemon attaches a new client and hands it over (Reattach): the pane
// keeps its terminal id, identity, recognition, fences and active Turn,
// and its screen is seeded afresh through the new client. Only a pane
// that tmux says is gone (ErrPaneGone), or one the daemon stops (its
// session or server really ended), ends its goroutine.

// link is the control client a pane is followed through, replaced by
// Reattach. Its methods are the commands the act primitives send, each
// through the client current at the call (a client that has ended
// answers controlmode.ErrClosed: the caller refuses, nothing is retried).
type link struct {
	mu sync.Mutex
	c  *controlmode.Client
}

func (l *link) get() *controlmode.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c
}

func (l *link) set(c *controlmode.Client) {
	l.mu.Lock()
	l.c = c
	l.mu.Unlock()
}

func (l *link) Exec(ctx context.Context, cmds ...controlmode.Cmd) ([]*controlmode.Reply, error) {
	return l.get().Exec(ctx, cmds...)
}

func (l *link) Command(ctx context.Context, args ...string) (*controlmode.Reply, error) {
	return l.get().Command(ctx, args...)
}

func (l *link) SendBytes(ctx context.Context, pane controlmode.PaneID, b []byte) error {
	return l.get().SendBytes(ctx, pane, b)
}

func (l *link) SendText(ctx context.Context, pane controlmode.PaneID, text string) error {
	return l.get().SendText(ctx, pane, text)
}

func (l *link) Paste(ctx context.Context, pane controlmode.PaneID, text string) error {
	return l.get().Paste(ctx, pane, text)
}

// Close ends the current client (a tmux command that timed out leaves the
// connection in an unknown state); the daemon re-attaches its session.
func (l *link) Close() error { return l.get().Close() }

// Client is the control client the pane is followed through now.
func (m *Pane) Client() *controlmode.Client { return m.client.get() }

// Server is the tmux server the pane belongs to (part of its identity).
func (m *Pane) Server() Server { return m.env.Server }

// follow starts following the pane through the current client, with a
// fresh mirror (stale until its seed lands). The bytes counter carries
// over: it counts what the pane's screen took, whichever client brought
// it. Called with mu held.
func (m *Pane) follow() error {
	feed, err := m.client.get().Follow(m.pane)
	if err != nil {
		return err
	}
	old := m.mirror
	m.mirror = controlmode.NewMirror(feed, vt.Options{})
	if old != nil {
		m.mirror.Bytes = old.Bytes
		old.Feed().Close()
	}
	m.lost = false
	return nil
}

// Reattach follows the pane through c, a new control client of its
// session, after the previous one ended while the session lived on.
func (m *Pane) Reattach(c *controlmode.Client) error {
	m.mu.Lock()
	prev := m.client.get()
	m.client.set(c)
	err := m.follow()
	if err != nil {
		m.client.set(prev)
	}
	m.mu.Unlock()
	if err == nil {
		m.lg.Info("re-attached", "session", m.session.String())
		m.Poke()
	}
	return err
}

// Lost reports whether the pane waits for a new control client.
func (m *Pane) Lost() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lost
}

// connectionEnded tells a pane whose client ended (it waits for
// Reattach) from a pane that is gone.
func connectionEnded(err error) bool {
	return errors.Is(err, controlmode.ErrClosed) && !errors.Is(err, controlmode.ErrPaneGone)
}

// ready is the current feed's Ready channel. Called with mu held.
func (m *Pane) ready() <-chan struct{} { return m.mirror.Feed().Ready() }
