package supervisor

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strconv"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/vt"
)

// List answers POST /v1/list: every followed pane, by session, window and
// pane.
func (s *Supervisor) List(ctx context.Context) (api.ListResponse, error) {
	out := api.ListResponse{V: api.SchemaVersion, Terminals: []api.Terminal{}}
	for _, m := range s.monitors() {
		m.mu.Lock()
		if m.isRecorded {
			out.Terminals = append(out.Terminals, m.row())
		}
		m.mu.Unlock()
	}
	sort.Slice(out.Terminals, func(i, j int) bool {
		a, b := out.Terminals[i], out.Terminals[j]
		if a.Session != b.Session {
			return a.Session < b.Session
		}
		return paneNum(a.PaneID) < paneNum(b.PaneID)
	})
	return out, nil
}

func paneNum(p string) int {
	n, _ := strconv.Atoi(p[min(1, len(p)):])
	return n
}

// Status answers POST /v1/status: the row, its evidence and the prompt
// region. The region's text is left out when it would carry a draft
// (DESIGN invariant 8); ANSI renderings are made only on request, for a
// person's own terminal.
func (s *Supervisor) Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	m := s.terminalMonitor(req.TerminalID)
	if m == nil {
		return api.StatusResponse{}, api.Errorf(api.CodeNotFound,
			"no terminal %s: run `akk list` for the current ids (a respawned pane gets a new id)", req.TerminalID)
	}
	// A status is fresh: the model takes every byte tmux has sent and
	// recognizes it before the answer (and the offer) is made. A pane
	// that just went away answers from what was last recorded.
	if err := m.barrier(ctx); err != nil {
		s.lg.Debug("status: barrier", "terminal", req.TerminalID, "err", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.status(req)
	if o := m.makeOffer(controllerOf(ctx), s.cfg.Now()); o != nil {
		exp := o.expires
		out.OfferExpiresAt = &exp
	}
	return out, nil
}

// status builds the status answer. Called with mu held.
func (m *paneMonitor) status(req api.StatusRequest) api.StatusResponse {
	out := api.StatusResponse{V: api.SchemaVersion, Terminal: m.row()}
	ev := &out.Evidence
	ev.Process = []api.Process{}
	if m.ident != nil {
		for _, p := range m.ident.Members {
			ev.Process = append(ev.Process, api.Process{PID: p.Stat.PID, StartTime: p.Stat.StartTime, Exe: p.Exe, Comm: p.Stat.Comm})
		}
		ev.Identification = jsonString(m.ident.Why)
	}
	if m.bind.State != "" {
		ev.Binding = &api.Binding{Generation: m.bind.Generation, State: m.bind.State, SessionID: m.bind.SessionID,
			Path: m.bind.Path, Reason: m.bind.Reason}
	}
	ev.Recognizer, ev.ScreenSeq = m.rec.Recognizer, m.screenSeq
	ev.Stale, ev.StaleCause = m.mirror.Stale()
	scr := m.mirror.Screen()
	if scr == nil {
		return out
	}
	hasDraft := m.rec.Composer == "draft"
	if m.rec.PromptRows > 0 && !(hasDraft && m.rec.Interaction == nil) {
		w, _ := scr.Size()
		r := vt.Rect{X: 0, Y: m.rec.PromptTop, W: w, H: m.rec.PromptRows}
		out.Prompt = &api.PromptRegion{Top: m.rec.PromptTop, Bottom: m.rec.PromptTop + m.rec.PromptRows - 1, Text: scr.PlainText(r)}
		if req.Render {
			out.Prompt.ANSI = scr.ANSI(r)
		}
	}
	if req.Render {
		out.Screen = scr.PlainText(scr.Bounds())
	}
	return out
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// Health answers POST /v1/health.
func (s *Supervisor) Health(ctx context.Context) (api.Health, error) {
	h := api.Health{V: api.SchemaVersion, PID: os.Getpid(), Started: s.started,
		Store: s.st.Dir(), AllowReplica: s.cfg.AllowReplicas, LastEvent: s.st.LastSeq()}
	_, err := s.st.Terminals()
	h.StoreOK = err == nil
	s.mu.Lock()
	h.TmuxSocket, h.TmuxVersion, h.Sessions = s.server.Socket, s.server.Version, len(s.sessions)
	s.mu.Unlock()
	for _, m := range s.monitors() {
		m.mu.Lock()
		if m.isRecorded {
			h.Terminals++
			if m.term.Agent != api.AgentNone {
				h.Agents++
			}
		}
		m.mu.Unlock()
	}
	return h, nil
}
