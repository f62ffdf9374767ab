package supervisor

import (
	"context"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The faces the composition root shows its sub-packages: each is the
// small interface a sub-package declares (terminal.Host,
// terminal.Observer, binding.Host, dispatch.Terminals, dispatch.Journal,
// tasks.Host), implemented here over the registry, the journal and the
// tasks, so that no sub-package holds the Supervisor. The tasks are
// dispatch.Turns themselves.

// journal is the store writer (journal.go) and the recorded bindings.
type journal struct{ s *Supervisor }

func (j journal) Commit(ch store.Change) error {
	_, err := j.s.commit(ch)
	return err
}

func (j journal) StoredBinding(id string) terminal.Binding {
	b, err := j.s.st.Binding(id)
	if err != nil {
		return terminal.Binding{}
	}
	return terminal.Binding{Generation: b.Generation, State: b.State, SessionID: b.SessionID, Path: b.Path, Reason: b.Reason,
		Last: b.Transition, Left: b.Left, LeftPath: b.LeftPath, Detached: b.Detached}
}

// paneHost is terminal.Host: the registry of stored terminals and the
// journal.
type paneHost struct{ journal }

func (h paneHost) ClaimStored(id string) (store.Terminal, bool) { return h.s.claimStored(id) }
func (h paneHost) StoredStart(pane string, pid int) uint64      { return h.s.storedStart(pane, pid) }
func (h paneHost) StaleForPane(pane, current string) []store.Terminal {
	return h.s.staleForPane(pane, current)
}
func (h paneHost) Removed(t store.Terminal, reason string) { h.s.removeTerminal(t, reason) }
func (h paneHost) Released(ctx context.Context, p *terminal.Pane, reason string) {
	h.s.release(ctx, p, reason)
}

func (h paneHost) SessionName(id controlmode.SessionID) (string, bool) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if se := h.s.sessions[id]; se != nil {
		return se.name, true
	}
	return "", false
}

func (h paneHost) Fenced(key string) (terminal.FenceState, error) {
	f, fenced, err := h.s.st.Fenced(key)
	if err != nil || !fenced {
		return terminal.FenceState{}, err
	}
	st := terminal.FenceState{Consumed: true}
	if r, err := h.s.st.Reservation(f.Reservation); err == nil {
		// input_sent: a daemon stopped before the outcome; the next start
		// settles it as uncertain.
		st.Uncertain = r.Stage == store.StageUncertain || r.Stage == store.StageInputSent
	}
	return st, nil
}

// paneObserver is terminal.Observer: the binder and the tasks.
type paneObserver struct{ s *Supervisor }

func (o paneObserver) IdentityChanged(p *terminal.Pane, id string, ident procid.Identity) {
	o.s.binds.IdentityChanged(p, id, ident)
	o.s.metUnqualified(p, id, ident)
}

func (o paneObserver) Observe(ob terminal.Observation) {
	o.s.faultObserved(ob) // a no-op without -tags akkfault
	o.s.tasks.Observe(ob)
}

// bindingHost is binding.Host: the journal and the tasks' evidence.
type bindingHost struct{ journal }

func (h bindingHost) Evidence(terminalID string, generation uint64, ev evidence.Event) {
	h.s.tasks.Evidence(terminalID, generation, ev) // exact Watches and Turn monitors
}

func (h bindingHost) FileBound(terminalID, path string) { h.s.tasks.FileBound(terminalID, path) }

// registry is dispatch.Terminals.
type registry struct{ s *Supervisor }

func (r registry) Terminal(id string) dispatch.Terminal {
	if m := r.s.terminalMonitor(id); m != nil {
		return m
	}
	return nil // not a typed nil
}

func (r registry) All() []dispatch.Terminal {
	ms := r.s.monitors()
	out := make([]dispatch.Terminal, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// taskHost is tasks.Host: the journal, the followed terminals, the asker.
type taskHost struct{ journal }

func (h taskHost) CommitTasks(ch store.TaskChange) ([]store.Notification, error) {
	return h.s.commitTasks(ch)
}

func (h taskHost) Observation(terminalID string) (terminal.Observation, bool) {
	m := h.s.terminalMonitor(terminalID)
	if m == nil {
		return terminal.Observation{}, false
	}
	return m.Observation(), true
}

func (h taskHost) TurnSettled(terminalID, turnID string) {
	if m := h.s.terminalMonitor(terminalID); m != nil {
		m.ClearActiveTurn(turnID)
	}
}

func (h taskHost) Asked(spec tasks.TurnSpec, in *contract.Interaction) { h.s.asks.observed(spec, in) }

var (
	_ dispatch.Terminal = (*terminal.Pane)(nil)
	_ terminal.Host     = paneHost{}
	_ terminal.Observer = paneObserver{}
	_ dispatch.Turns    = (*tasks.Manager)(nil)
	_ tasks.Host        = taskHost{}
)
