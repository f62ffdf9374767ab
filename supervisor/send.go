package supervisor

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers"
)

// send: a managed Turn (seed 003). The agent must be idle with an exactly
// proven empty composer; the text goes in, a quiet window measured from
// %output passes, exactly one Enter follows (no observation after the text
// may veto it: DESIGN invariant 4), and acceptance is proven from the
// agent's own transcript/rollout by the request's hash after a pre-send
// anchor (watchers.Accept).

const (
	sendQuiet      = 150 * time.Millisecond // longer than Codex's 121 ms paste-burst window
	submitTimeout  = 10 * time.Second       // the composer empties or the agent starts
	acceptTimeout  = 30 * time.Second       // the transcript shows the request
	acceptInterval = 250 * time.Millisecond // re-read of the anchored file between binder wake-ups
	maxMessageID   = 128
)

// sessionIDOf is the AKK session id of a native session: stable for the
// same agent conversation, whatever pane it runs in.
func (s *Supervisor) sessionIDOf(agent, native string) string {
	if native == "" {
		return ""
	}
	return "ses_" + derive(s.secret, "session", agent, native)
}

// Send answers POST /v1/send.
func (s *Supervisor) Send(ctx context.Context, req api.SendRequest) (api.ActionResult, error) {
	const op = "send"
	if (req.SessionID == "") == (req.TerminalID == "") {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "send needs exactly one of session_id and terminal_id")
	}
	if err := errors.Join(checkID("session_id", req.SessionID, "ses"), checkID("terminal_id", req.TerminalID, "term")); err != nil {
		return api.ActionResult{}, err
	}
	if len(req.MessageID) > maxMessageID {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "message_id longer than %d bytes", maxMessageID)
	}
	if len(req.Request) > api.MaxRequestText {
		return reject(api.ReasonTextTooLong, "request of %d bytes (max %d)", len(req.Request), api.MaxRequestText).result(op, req.TerminalID), nil
	}
	if ref := checkText(req.Request, true); ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	controller := controllerOf(ctx)
	if req.MessageID != "" {
		if t, ok := s.turnByMessage(controller, req.MessageID); ok {
			return api.ActionResult{V: api.SchemaVersion, Op: op, Outcome: api.OutcomeAlreadyDone, DoNotRetry: true,
				Reason: "message_id was sent before as this turn; nothing sent again", TerminalID: t.TerminalID,
				TurnID: t.ID, SessionID: t.SessionID, ReceiptID: t.Reservation}, nil
		}
	}
	m := s.sendTarget(req.SessionID, req.TerminalID)
	if m == nil {
		return reject(api.ReasonUnknownTarget, "no terminal for %s%s: run `akk list`", req.SessionID, req.TerminalID).result(op, req.TerminalID), nil
	}
	var pre sendState
	tx, ref := s.begin(ctx, m, txnSpec{op: op, quiet: true, check: func() *refusal {
		var r *refusal
		pre, r = m.sendReady(req)
		return r
	}})
	if ref != nil {
		return ref.result(op, pre.terminalID), nil
	}
	defer tx.end()
	return s.sendTurn(ctx, tx, pre, controller, req), nil
}

func (s *Supervisor) turnByMessage(controller, msg string) (store.Turn, bool) {
	ts, err := s.st.Turns()
	if err != nil {
		return store.Turn{}, false
	}
	for _, t := range ts {
		if t.Controller == controller && t.MessageID == msg {
			return t, true
		}
	}
	return store.Turn{}, false
}

// sendTarget finds the terminal of a session id (the pane bound to that
// native session) or a terminal id.
func (s *Supervisor) sendTarget(sessionID, terminalID string) *paneMonitor {
	if terminalID != "" {
		return s.terminalMonitor(terminalID)
	}
	var found *paneMonitor
	for _, m := range s.monitors() {
		m.mu.Lock()
		ok := m.isRecorded && m.ident != nil && m.bind.SessionID != "" &&
			s.sessionIDOf(m.ident.Agent, m.bind.SessionID) == sessionID
		m.mu.Unlock()
		if ok {
			if found != nil {
				return nil // two panes on one native session: ambiguous
			}
			found = m
		}
	}
	return found
}

// sendState is what the pre-send checks saw.
type sendState struct {
	terminalID  string
	agent       string
	version     string
	replica     bool
	incarnation string
	bind        bindingState
	before      view
}

// sendReady checks, right after a barrier, that the agent is idle with an
// exactly proven empty composer. It sends nothing. Called with mu held.
func (m *paneMonitor) sendReady(req api.SendRequest) (sendState, *refusal) {
	st := sendState{terminalID: m.id, before: view{rec: m.rec, seq: m.screenSeq}, bind: m.bind}
	r := m.rec
	switch {
	case m.ident == nil || (m.ident.Agent != api.AgentClaude && m.ident.Agent != api.AgentCodex):
		return st, reject(api.ReasonNotAnAgent, "no coding agent runs in this terminal")
	case !r.exact:
		return st, reject(api.ReasonUnknownVersion, "%s %s has no exact profile: no empty composer can be proven", m.ident.Agent, m.ident.Version)
	}
	if stale, cause := m.mirror.Stale(); stale {
		return st, reject(api.ReasonScreenStale, "the screen model is re-seeding (%s)", cause)
	}
	switch {
	case r.Screen != api.ScreenIdle:
		return st, reject(api.ReasonNotIdle, "the agent is %s, not idle", r.Screen)
	case r.Composer != "empty":
		return st, reject(api.ReasonComposerNotEmpty, "the composer is %s, not empty", r.Composer)
	case req.SessionID != "" && m.bind.State != string(watchers.Resolved):
		return st, reject(api.ReasonBindingChanged, "the terminal's native session is %s", m.bind.State)
	}
	if strings.Contains(req.Request, "\n") && !m.mirror.Screen().Modes().BracketedPaste {
		return st, reject(api.ReasonBadText, "a request of several lines needs bracketed paste, which the agent has not enabled")
	}
	st.agent, st.version, st.replica, st.incarnation = m.ident.Agent, m.ident.Version, m.ident.Replica, m.ident.Incarnation()
	return st, nil
}

// sendTurn reserves the Turn, types the request, presses Enter once and
// proves acceptance.
func (s *Supervisor) sendTurn(ctx context.Context, tx *txn, pre sendState, controller string, req api.SendRequest) api.ActionResult {
	const op = "send"
	m := tx.m
	now := s.cfg.Now()
	sum := watchers.PromptHash(req.Request)
	turn := store.Turn{ID: s.newID("turn_", "turn"), TerminalID: pre.terminalID, Controller: controller,
		Agent: pre.agent, Version: pre.version, RequestHash: hex.EncodeToString(sum[:]),
		RequestLen: utf8.RuneCountInString(req.Request), MessageID: req.MessageID, BindingGen: pre.bind.Generation,
		Incarnation: pre.incarnation, NativeSession: pre.bind.SessionID, NativePath: pre.bind.Path,
		State: store.TurnReserved, Management: "managed", Created: now, Updated: now}
	turn.SessionID = s.sessionIDOf(pre.agent, pre.bind.SessionID)
	var anchor *watchers.Anchor
	if pre.bind.Path != "" {
		a, err := takeAnchor(ctx, watchers.Agent(pre.agent), pre.bind.Path)
		if err != nil {
			return reject(api.ReasonAnchor, "cannot anchor the native session file before sending: %v", err).result(op, pre.terminalID)
		}
		a.SessionID = pre.bind.SessionID
		anchor = &a
		turn.Anchor, turn.FileDev, turn.FileIno = a.Offset, a.File.Dev, a.File.Ino
	}
	res := store.Reservation{ID: s.newID("rcpt_", "receipt"), Op: op, Controller: controller, TerminalID: pre.terminalID,
		TurnID: turn.ID, TextLen: turn.RequestLen, Incarnation: pre.incarnation, BindingGen: pre.bind.Generation}
	turn.Reservation = res.ID
	if ref := tx.reserve(res, turn); ref != nil {
		out := tx.refused(ref)
		out.TurnID, out.SessionID = "", turn.SessionID // no Turn was created
		return out
	}
	tx.out.SessionID = turn.SessionID
	s.turnEvent(turn, api.EventTurnCreated)
	ictx := context.WithoutCancel(ctx) // input that started is followed by its proof
	// Every failure here comes after the reservation, with the text
	// possibly in the composer already: uncertain, never retried.
	fail := func(reason string) api.ActionResult {
		s.dropTurn(turn.ID)
		turn.State, turn.Reason, turn.Updated = store.TurnUncertain, reason, s.cfg.Now()
		out := tx.fail(reason, "", "", turn)
		s.turnEvent(turn, api.EventTurnState)
		return out
	}
	if err := tx.text(ictx, req.Request); err != nil {
		return fail("type the request: " + err.Error())
	}
	m.awaitQuiet(ictx, pre.before.seq, sendQuiet, echoQuietMax)
	typed := m.snapshot()
	if err := tx.keys(ictx, []byte("\r")); err != nil {
		return fail("press Enter: " + err.Error())
	}
	rec, ok := m.await(ictx, typed, submitTimeout, func(r recognition) bool {
		return r.Screen != api.ScreenIdle || r.Composer == "empty"
	})
	if !ok {
		return fail(fmt.Sprintf("%s: the request was typed and Enter pressed, but the composer never emptied (screen %s)", api.ReasonPostcondition, rec.Screen))
	}
	turn.State, turn.Updated = store.TurnSubmitted, s.cfg.Now()
	evidence, reason := s.proveAccepted(ictx, m, pre, anchor, req.Request, &turn)
	s.MonitorTurn(specOf(turn)) // from now the monitor settles it, whatever acceptance says
	if evidence == "" {
		return fail(reason)
	}
	turn.State, turn.Accepted, turn.Updated = store.TurnAccepted, s.cfg.Now(), s.cfg.Now()
	out := tx.accept(evidence, rec.Screen, "", turn)
	if out.Outcome != api.OutcomeAccepted {
		return out
	}
	out.SessionID = turn.SessionID // a first prompt's session is bound by now
	s.turnEvent(turn, api.EventTurnState)
	m.mu.Lock()
	m.activeTurn = turn.ID
	m.mu.Unlock()
	// Last: the monitor may settle the Turn at once (its end already
	// written), which clears activeTurn.
	s.acceptedTurn(turn)
	s.lg.Info("send", "terminal", pre.terminalID, "turn", turn.ID, "request_len", turn.RequestLen, "evidence", evidence)
	return out
}

// takeAnchor anchors path, retrying briefly while the agent is in the
// middle of writing a line.
func takeAnchor(ctx context.Context, agent watchers.Agent, path string) (watchers.Anchor, error) {
	var err error
	for range 20 {
		var a watchers.Anchor
		a, err = watchers.TakeAnchor(ctx, agent, path)
		if err == nil {
			return a, nil
		}
		if !errors.Is(err, watchers.ErrAnchor) {
			return a, err
		}
		time.Sleep(25 * time.Millisecond)
	}
	return watchers.Anchor{}, err
}

// proveAccepted finds the request in the native file after the anchor. A
// replica has no native file: its evidence is the screen alone, and says
// so. A Claude session with no transcript yet is anchored when the binder
// finds the new file (read from its start: it holds this session only).
func (s *Supervisor) proveAccepted(ctx context.Context, m *paneMonitor, pre sendState, anchor *watchers.Anchor, request string, turn *store.Turn) (evidence, reason string) {
	if pre.replica {
		return "screen:submitted (replica: no transcript)", ""
	}
	deadline := time.Now().Add(acceptTimeout)
	var asked time.Time
	for time.Now().Before(deadline) {
		m.mu.Lock()
		bind, ch := m.bind, m.nextPass()
		m.mu.Unlock()
		if anchor == nil && bind.Path != "" && bind.Generation != pre.bind.Generation {
			anchor = &watchers.Anchor{Agent: watchers.Agent(pre.agent), Path: bind.Path, Absent: true, SessionID: bind.SessionID}
			turn.NativeSession, turn.NativePath, turn.BindingGen = bind.SessionID, bind.Path, bind.Generation
			turn.SessionID = s.sessionIDOf(pre.agent, bind.SessionID)
		}
		if anchor != nil {
			acc, err := watchers.Accept(ctx, request, 0, *anchor)
			if err != nil {
				return "", "read the native session file: " + err.Error()
			}
			switch acc.Verdict {
			case watchers.Accepted:
				at := acc.Match.At()
				turn.NativeTurn, turn.FileDev, turn.FileIno = acc.Match.TurnID, at.File.Dev, at.File.Ino
				return "transcript:request_hash", ""
			case watchers.Uncertain:
				return "", "acceptance uncertain: " + acc.Reason
			}
		} else if time.Since(asked) >= time.Second {
			// A first Claude prompt creates the transcript: ask the binder
			// to look again (at most once a second: it scans files).
			asked = time.Now()
			m.s.binds.identityChanged(m, pre.terminalID, *m.identSnapshot())
		}
		t := time.NewTimer(acceptInterval)
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	return "", fmt.Sprintf("%s: the request was submitted but the native session file did not show it within %s", api.ReasonPostcondition, acceptTimeout)
}

func (m *paneMonitor) identSnapshot() *procid.Identity {
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := *m.ident
	return &cp
}

// turnEvent records a turn's state as an event (no text).
func (s *Supervisor) turnEvent(t store.Turn, typ string) {
	ev := store.Event{Type: typ, TerminalID: t.TerminalID, Attrs: map[string]string{
		"turn_id": t.ID, "session_id": t.SessionID, "state": t.State, "reason": t.Reason}}
	if _, err := s.commit(store.Change{Events: []store.Event{ev}}); err != nil {
		s.lg.Error("turn event", "turn", t.ID, "err", err)
	}
}
