package terminal

import (
	"encoding/json"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/vt"
)

// record builds the terminal's record and, if any contract field changed,
// writes it with its events. Called with mu held (terminal lock, then the
// store writer: DESIGN invariant 2).
func (m *Pane) record(now time.Time) {
	next := m.build(now)
	if m.isRecorded && !processAttrsChanged(m.term, next) && !stateChanged(m.term, next) &&
		m.term.Window == next.Window && m.term.Session == next.Session && m.term.Cwd == next.Cwd {
		return
	}
	evs := StateEvents(m.term, next, !m.isRecorded)
	if m.activeTurn != "" {
		// A state of a terminal running a managed Turn is that Turn's
		// news: its owner's wake-up, nobody else's (Supervisor.Events).
		for i := range evs {
			if evs[i].Type == api.EventTerminalState {
				evs[i].Attrs["turn_id"] = m.activeTurn
			}
		}
	}
	if m.isRecorded && stateChanged(m.term, next) {
		m.stateSince = now
	}
	if err := m.env.Host.Commit(store.Change{Terminals: []store.Terminal{next}, Events: evs}); err != nil {
		m.lg.Error("record terminal", "err", err)
		return
	}
	m.term, m.isRecorded = next, true
}

func (m *Pane) build(now time.Time) store.Terminal {
	info := m.paneInfo()
	t := m.term
	if !m.isRecorded {
		t = store.Terminal{FirstSeen: now}
	}
	t.ID, t.Socket, t.ServerPID = m.id, m.key.Socket, m.key.ServerPID
	t.Pane, t.PanePID, t.PaneStart = m.key.Pane, m.key.PanePID, m.key.PaneStart
	t.SessionID, t.Window, t.LastSeen = m.session.String(), info.Window.String(), now
	if name, ok := m.env.Host.SessionName(m.session); ok {
		t.Session = name
	}
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
		r = Recognition{Screen: contract.ScreenUnknown, Composer: contract.ComposerAbsent}
	}
	t.Screen, t.Composer = r.Screen, r.Composer
	if m.dead { // a dead pane kept by remain-on-exit
		t.Screen, t.Composer = contract.ScreenExited, "absent"
	}
	t.Interact, t.InterState = "", ""
	if r.Interaction != nil {
		t.Interact, t.InterState = r.Interaction.Kind, r.Interaction.State
	}
	t.Identity, t.Durable = m.bind.IdentityState(id), m.bind.DurableState(id)
	t.Activity = ActivityState(t.Screen, t.Durable)
	return t
}

// Row is the terminal's list row, if it was recorded (a pane whose
// goroutine has not derived its terminal yet has none).
func (m *Pane) Row() (api.Terminal, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.isRecorded {
		return api.Terminal{}, false
	}
	return m.row(), true
}

// row is the terminal's list row. Called with mu held.
func (m *Pane) row() api.Terminal {
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
		TerminalID: t.ID, Agent: t.Agent, Version: t.Version, Profile: profile, Qualification: r.Qualification, Replica: t.Replica,
		PaneID: t.Pane, Session: t.Session, Window: t.Window, PID: t.PID, Cwd: t.Cwd,
		ScreenState: t.Screen, Composer: t.Composer, NativeIdentityState: t.Identity,
		DurableActivityState: t.Durable, ActivityState: t.Activity, Interaction: m.turnInteraction(),
		AvailableActions: m.availableActions(), Warnings: warnings, Command: t.Command,
		DraftLength: r.DraftLen, StateSince: m.stateSince, SessionID: SessionID(m.env.Secret, t.Agent, m.bind.SessionID),
		Blocked: r.Blocked.Clone(), TmuxSocket: m.key.Socket, ServerPID: m.key.ServerPID,
	}
}

// turnInteraction is the interaction on screen with the turn_id of the
// managed Turn the terminal runs (seed 000's projection carries it), or
// as recognized when none. Called with mu held.
func (m *Pane) turnInteraction() *contract.Interaction {
	in := m.rec.Interaction
	if in == nil || m.activeTurn == "" {
		return in
	}
	cp := in.Clone()
	cp.TurnID = m.activeTurn
	return cp
}

// Status is the status answer (the row, its evidence and the prompt
// region) and the view it was made from, in one look: an offer made from
// the view is for exactly what the answer shows. The region's text is
// left out when it would carry a draft (DESIGN invariant 8); ANSI
// renderings are made only on request, for a person's own terminal.
func (m *Pane) Status(req api.StatusRequest) (api.StatusResponse, View) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status(req), m.view()
}

// status builds the status answer. Called with mu held.
func (m *Pane) status(req api.StatusRequest) api.StatusResponse {
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
	if m.ident != nil && (m.rec.Screen == contract.ScreenUnknown || m.rec.Interaction != nil && m.rec.Interaction.State == contract.StateManualRequired) {
		ev.Rules = failedRules(m.ident.Agent, m.ident.Version, scr)
	}
	hasDraft := m.rec.Composer == contract.ComposerDraft
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

// Observation is what a pass saw, handed to the tasks without blocking
// the pane: the recorded screen state, the public interaction (its id is
// derived from the prompt's exact fingerprint, so a distinct id is a
// distinct prompt), the process incarnation, the binding, and how many
// bytes of %output the pane has taken so far.
type Observation struct {
	Pane        *Pane
	TerminalID  string
	At          time.Time
	Screen      contract.ScreenState
	Interaction *contract.Interaction
	Incarnation string
	Agent, Cwd  string
	Bind        Binding
	OutBytes    int64
	// Blocked: why a blocked screen is blocked (shared: read only).
	Blocked *api.Blocked
}

// observation snapshots the pass. Called with mu held.
func (m *Pane) observation(now time.Time) Observation {
	o := Observation{Pane: m, TerminalID: m.id, At: now, Screen: m.term.Screen, Interaction: m.rec.Interaction,
		Agent: m.term.Agent, Cwd: m.term.Cwd, Bind: m.bind, Blocked: m.rec.Blocked}
	if m.ident != nil {
		o.Incarnation = m.ident.Incarnation()
	}
	if m.mirror != nil {
		o.OutBytes = m.mirror.Bytes
	}
	return o
}

// Observation is what the pane shows now, as a pass hands it on.
func (m *Pane) Observation() Observation {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.observation(m.env.Now())
}
