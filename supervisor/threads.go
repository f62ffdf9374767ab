package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agent-knock-knock/akk/agents"
	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

// threads is dispatch.Threads: the binder's hold on a terminal's binding
// while a native thread transition runs, and the agent's resumable
// conversations from its own files.
type threads struct{ s *Supervisor }

func (t threads) Expect(id string, tr terminal.Transition) { t.s.binds.Expect(id, tr) }
func (t threads) Unexpect(id string) bool                  { return t.s.binds.Unexpect(id) }

func (t threads) Candidates(ctx context.Context, v terminal.View) ([]dispatch.Candidate, error) {
	if v.Ident == nil {
		return nil, nil
	}
	q := watchers.ThreadQuery{Cwd: v.Ident.Cwd, Exclude: v.Bind.SessionID, Limit: api.MaxThreadCandidate}
	for _, p := range v.Ident.Members {
		q.Self = append(q.Self, p.Stat.PID)
	}
	a, ok := agentreg.Lookup(v.Ident.Agent)
	if !ok || a.Threads() == nil {
		return nil, nil
	}
	found, err := a.Threads().Candidates(ctx, t.s.cfg.Roots[a.Name()], q)
	if err != nil {
		return nil, err
	}
	out := make([]dispatch.Candidate, 0, len(found))
	for _, th := range found {
		if th.Archived || th.ActiveElsewhere {
			continue
		}
		out = append(out, dispatch.Candidate{ID: th.ID, Title: th.Title, Updated: th.Updated, Unchanged: th.Unchanged})
	}
	return out, nil
}

// Stale proves that the process in v left the conversation its terminal
// was bound to (Bind.Left): among the files it wrote since it started
// (Claude: the transcripts of its workspace; Codex: the rollouts it holds
// open, every one it wrote), another was appended after the left one's
// last write. The proof is what the detach keeps: the file and its size.
func (t threads) Stale(ctx context.Context, v terminal.View) (store.BindingDetach, error) {
	if v.Ident == nil || v.Bind.LeftPath == "" {
		return store.BindingDetach{}, errors.New("no conversation to detach")
	}
	inc := v.Ident.Incarnation()
	a, ok := agentreg.Lookup(v.Ident.Agent)
	if !ok || a.Threads() == nil {
		return store.BindingDetach{}, errors.New("no coding agent")
	}
	var pids []int
	for _, p := range v.Ident.Members {
		pids = append(pids, p.Stat.PID)
	}
	ni, err := a.Threads().Written(ctx, t.s.cfg.Roots[a.Name()], agents.SessionQuery{PIDs: pids, Cwd: v.Ident.Cwd,
		Since: procid.StartWall(v.Ident.AgentStart), Quiet: v.Bind.Quiet(inc)})
	if err != nil {
		return store.BindingDetach{}, err
	}
	var left *watchers.Candidate
	for i, c := range ni.Candidates {
		if c.Path == v.Bind.LeftPath {
			left = &ni.Candidates[i]
		}
	}
	if left == nil {
		return store.BindingDetach{}, fmt.Errorf("the left conversation's file is not among the process's (%s)", ni.State)
	}
	for _, c := range ni.Candidates {
		if c.Path != left.Path && c.ModTime.After(left.ModTime) {
			return store.BindingDetach{Incarnation: inc, SessionID: v.Bind.Left, Path: left.Path, Size: left.Size}, nil
		}
	}
	return store.BindingDetach{}, errors.New("no file of the process was written after the left conversation's last record: it may still be the one the agent runs")
}

// Detach hands the proven stale conversation to the binder.
func (t threads) Detach(id string, d store.BindingDetach) error {
	m := t.s.terminalMonitor(id)
	if m == nil {
		return fmt.Errorf("terminal %s is gone", id)
	}
	v := m.View()
	if v.Ident == nil || v.Ident.Incarnation() != d.Incarnation {
		return fmt.Errorf("terminal %s runs another process now", id)
	}
	if _, err := os.Stat(d.Path); err != nil {
		return fmt.Errorf("the detached transcript: %w", err)
	}
	t.s.binds.Detach(m, id, *v.Ident, d)
	return nil
}
