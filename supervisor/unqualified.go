package supervisor

import (
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Qualify modes (Config.Qualify): what the daemon does when it meets an
// agent binary it does not pin and no qualification covers.
const (
	// QualifyAsk (the default) tells the person's routes once, with the
	// command that qualifies it.
	QualifyAsk = "ask"
	// QualifyAuto qualifies it in the background (niced, one at a time)
	// and tells the person's routes the result.
	QualifyAuto = "auto"
	// QualifyOff does neither.
	QualifyOff = "off"
)

// metUnqualified runs when a pane's process changed: a known agent whose
// version is not pinned and whose binary no record covers is told once
// to the person (ask), or qualified (auto).
func (s *Supervisor) metUnqualified(p *terminal.Pane, id string, ident procid.Identity) {
	mode := s.cfg.Qualify
	if mode == QualifyOff || ident.Agent == procid.AgentNone || ident.Version == "" ||
		recognizers.Lookup(ident.Agent, ident.Version).Exact {
		return
	}
	if _, ok := s.profiles.Profile(ident).Qualified(); ok {
		return
	}
	if mode == QualifyAuto && s.qual.dir != "" {
		if started, err := s.qual.start(api.QualifyRequest{TerminalID: id}, func(string) (*procid.Identity, bool) { return &ident, true }); err == nil {
			s.lg.Info("qualification started", "run", started.Run, "agent", ident.Agent, "version", ident.Version)
			return
		}
		// Another runs, or this one cannot be: the person is told.
	}
	reason := fmt.Sprintf("%s %s has no exact profile: akk only watches it; `akk qualify %s` can qualify this binary", ident.Agent, ident.Version, p.PaneID().String())
	env := api.CallbackEnvelope{Type: api.CallbackProgress, Event: api.CallbackUnqualified, Reason: reason,
		TaskKind: tasks.TaskTerminal, TerminalID: id, Time: s.cfg.Now()}
	// The event's identity names the binary's version: the store enqueues
	// it once per terminal and version, across restarts too.
	if _, err := s.tasks.Enqueue(env, api.CallbackUnqualified+":"+ident.Agent+"@"+ident.Version, s.cfg.Callbacks.PersonRoutes()); err != nil {
		s.lg.Warn("unqualified notice", "terminal", id, "err", err)
	}
}
