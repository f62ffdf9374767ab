package dispatch

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
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

// Send answers POST /v1/send; every result carries the send's facts.
func (d *Dispatcher) Send(ctx context.Context, req api.SendRequest) (api.ActionResult, error) {
	return factsOf(d.send(ctx, req))
}

func (d *Dispatcher) send(ctx context.Context, req api.SendRequest) (api.ActionResult, error) {
	const op = "send"
	if req.SessionID != "" && req.TerminalID != "" {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "send takes at most one of session_id and terminal_id")
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
	mode, ref := sendMode(req)
	if ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	controller := ControllerOf(ctx)
	if req.MessageID != "" {
		if t, ok := d.turnByMessage(controller, req.MessageID); ok {
			return api.ActionResult{V: api.SchemaVersion, Op: op, Outcome: api.OutcomeAlreadyDone, DoNotRetry: true,
				Reason: "message_id was sent before as this turn; nothing sent again", TerminalID: t.TerminalID,
				TurnID: t.ID, SessionID: t.SessionID, ReceiptID: t.Reservation}, nil
		}
	}
	if req.SessionID == "" && req.TerminalID == "" {
		id, ref := d.onlySendReady()
		if ref != nil {
			return ref.result(op, ""), nil
		}
		req.TerminalID = id
	}
	m := d.sendTarget(req.SessionID, req.TerminalID)
	if m == nil {
		return reject(api.ReasonUnknownTarget, "no terminal for %s%s: run `akk list`", req.SessionID, req.TerminalID).result(op, req.TerminalID), nil
	}
	var pre sendState
	tx, ref := d.begin(ctx, m, txnSpec{op: op, quiet: true, check: func(v terminal.View) *refusal {
		var r *refusal
		if mode == api.SendUserExplicit {
			pre, r = d.userSendReady(v, req)
		} else {
			pre, r = sendReady(v, req)
		}
		return r
	}})
	if ref != nil {
		return ref.result(op, pre.terminalID), nil
	}
	defer tx.end()
	if !pre.managed {
		return d.sendUnmanaged(ctx, tx, pre, controller, req), nil
	}
	return d.sendTurn(ctx, tx, pre, controller, req), nil
}

// sendMode is the request's send mode, checked against its target: a
// session id is only ever session_exact, a terminal id one of the
// terminal modes; no target (akk finds the one send-ready pane) is a
// managed send.
func sendMode(req api.SendRequest) (string, *refusal) {
	mode := req.Mode
	if mode == "" {
		mode = api.SendFollowCurrent
		if req.SessionID != "" {
			mode = api.SendSessionExact
		}
	}
	switch {
	case !slices.Contains(api.SendModes, mode):
		return "", reject(api.ReasonBadMode, "mode %q is none of %s", clip(mode, 40), strings.Join(api.SendModes, ", "))
	case mode == api.SendSessionExact && req.SessionID == "":
		return "", reject(api.ReasonBadMode, "mode %s sends to a session_id", mode)
	case mode != api.SendSessionExact && req.SessionID != "":
		return "", reject(api.ReasonBadMode, "a session_id is sent to with mode %s, not %s", api.SendSessionExact, mode)
	case mode == api.SendUserExplicit && req.TerminalID == "":
		return "", reject(api.ReasonBadMode, "mode %s needs the terminal_id the person chose", mode)
	}
	return mode, nil
}

// onlySendReady is the one terminal that advertises a managed send now;
// with none or several, the controller must name one.
func (d *Dispatcher) onlySendReady() (string, *refusal) {
	var ready []string
	for _, m := range d.cfg.Terminals.All() {
		v := m.View()
		if _, ok := terminal.Actions(v)["send"]; ok && v.Recorded {
			ready = append(ready, v.ID)
		}
	}
	if len(ready) != 1 {
		return "", reject(api.ReasonAmbiguousTarget, "%d terminals are ready for a send: name one (terminal_id or session_id from `akk list`)", len(ready))
	}
	return ready[0], nil
}

// factsOf is a send's or an answer's result with its facts (withFacts);
// a refusal before any result passes through as it is.
func factsOf(out api.ActionResult, err error) (api.ActionResult, error) {
	if err != nil {
		return out, err
	}
	return withFacts(out), nil
}

// withFacts adds a send's separate facts to its result: what reached the
// pane, what the agent's file says, how the Turn is followed.
func withFacts(out api.ActionResult) api.ActionResult {
	f := &api.SendFacts{AgentAcceptance: api.AcceptanceNone}
	if out.SendFacts != nil {
		if out.SendFacts.ManagementMode == "unmanaged" {
			return out // a user-explicit send followed by a Watch says its own facts
		}
		f.DraftRestored, f.ClearedDraft = out.SendFacts.DraftRestored, out.SendFacts.ClearedDraft
	}
	switch out.Outcome {
	case api.OutcomeAccepted:
		f.TerminalInputDispatched, f.AgentAcceptance, f.ObservationMode = true, api.AcceptanceAccepted, api.WatchExactTask
		if !strings.HasPrefix(out.Evidence, "transcript:") {
			f.AgentAcceptance, f.ObservationMode = api.AcceptanceScreenOnly, api.WatchTerminalActivity
		}
	case api.OutcomePending:
		f.TerminalInputDispatched, f.AgentAcceptance, f.ObservationMode = true, api.AcceptancePending, api.WatchExactTask
	case api.OutcomeUncertain:
		f.TerminalInputDispatched, f.AgentAcceptance = true, api.AcceptanceUncertain
	}
	if f.ObservationMode != "" && out.TurnID != "" {
		f.ManagementMode = "managed_turn"
		f.Capabilities = []string{api.ToolStatus, api.ToolCancel, api.ToolApprove, api.ToolRespond, api.ToolAnswer}
	}
	out.SendFacts = f
	return out
}

func (d *Dispatcher) turnByMessage(controller, msg string) (store.Turn, bool) {
	ts, err := d.cfg.Store.Turns()
	if err != nil {
		return store.Turn{}, false
	}
	for _, t := range ts {
		if t.Controller == api.Owner(controller) && t.MessageID == msg {
			return t, true
		}
	}
	return store.Turn{}, false
}

// sendTarget finds the terminal of a session id (the pane bound to that
// native session) or a terminal id.
func (d *Dispatcher) sendTarget(sessionID, terminalID string) Terminal {
	if terminalID != "" {
		return d.cfg.Terminals.Terminal(terminalID)
	}
	var found Terminal
	for _, m := range d.cfg.Terminals.All() {
		v := m.View()
		ok := v.Recorded && v.Ident != nil && v.Bind.SessionID != "" &&
			terminal.SessionID(d.cfg.Secret, v.Ident.Agent, v.Bind.SessionID) == sessionID
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
	bind        terminal.Binding
	before      terminal.View
	// managed: the send becomes a Turn proven from the agent's file
	// (always, except a user-explicit send with no native session file
	// to prove it from: then a Watch follows it).
	managed bool
	// clear is the profile's clear of the draft a user-explicit send
	// found (nil: the composer was empty).
	clear *recognizers.Clear
	// prove, when set, proves acceptance instead of the bound file's
	// anchor (identify_and_send: among the ambiguous binding's rollouts,
	// anchored before the reservation).
	prove func(ctx context.Context, turn *store.Turn) (proof, reason string, pending bool)
}

// provenAgent refuses a view whose screen no exact profile of a coding
// agent reads now: every send's first checks.
func provenAgent(v terminal.View) *refusal {
	switch {
	case v.Ident == nil || !registry.Known(v.Ident.Agent):
		return reject(api.ReasonNotAnAgent, "no coding agent runs in this terminal")
	case !v.Rec.Exact && v.Rec.QualifiedAs != "":
		return reject(api.ReasonUnqualifiedSurface, "%s %s is qualified as %s, but not on this screen's surface (%s): run `akk qualify` again, or act in the pane yourself",
			v.Ident.Agent, v.Ident.Version, v.Rec.QualifiedAs, v.Rec.Surface.Name())
	case !v.Rec.Exact:
		return reject(api.ReasonUnknownVersion, "%s %s has no exact profile: nothing on its screen can be proven (`akk qualify %s` can qualify this binary)", v.Ident.Agent, v.Ident.Version, v.Ident.Agent)
	case v.Stale:
		return reject(api.ReasonScreenStale, "the screen model is re-seeding (%s)", v.StaleCause)
	}
	return nil
}

// sendReady checks, on a view right after a barrier, that the agent is
// idle (or stopped on a block) with an exactly proven empty composer
// (terminal.Ready). It sends nothing.
func sendReady(v terminal.View, req api.SendRequest) (sendState, *refusal) {
	st := sendState{terminalID: v.ID, before: v, bind: v.Bind}
	r := v.Rec
	if ref := provenAgent(v); ref != nil {
		return st, ref
	}
	switch {
	case r.Screen != contract.ScreenIdle && r.Screen != contract.ScreenBlocked:
		return st, reject(api.ReasonNotIdle, "the agent is %s, not idle", r.Screen)
	case r.Composer != contract.ComposerEmpty:
		return st, reject(api.ReasonComposerNotEmpty, "the composer is %s, not empty", r.Composer)
	case !terminal.Ready(r):
		return st, reject(api.ReasonNotIdle, "the agent is %s (%s) and takes no prompt now", r.Screen, blockReason(r))
	case terminal.NativeBusy(v):
		return st, reject(api.ReasonNotIdle, "the agent's session file shows a turn in progress (its working row hides while it streams)")
	case req.SessionID != "" && v.Bind.State != contract.IdentityResolved:
		return st, reject(api.ReasonBindingChanged, "the terminal's native session is %s", v.Bind.State)
	}
	if strings.Contains(req.Request, "\n") && !v.BracketedPaste {
		return st, reject(api.ReasonBadText, "a request of several lines needs bracketed paste, which the agent has not enabled")
	}
	st.agent, st.version, st.replica, st.incarnation = v.Ident.Agent, v.Ident.Version, v.Ident.Replica, v.Ident.Incarnation()
	st.managed = true
	return st, nil
}

// sendTurn reserves a new Turn, types the request, presses Enter once and
// proves acceptance.
func (d *Dispatcher) sendTurn(ctx context.Context, tx *txn, pre sendState, controller string, req api.SendRequest) api.ActionResult {
	now := d.cfg.Now()
	turn := store.Turn{ID: d.newID("turn_", "turn"), TerminalID: pre.terminalID, Controller: api.Owner(controller),
		Agent: pre.agent, Version: pre.version, MessageID: req.MessageID,
		Incarnation: pre.incarnation, Management: "managed", Created: now}
	return d.deliver(ctx, tx, pre, controller, turn, req.Request, api.EventTurnCreated)
}

// deliver is the managed delivery of request into a proven idle, empty
// composer as turn (a new one, or an answered one continued under its
// id): anchor, reserve, type, one Enter, acceptance from the native file.
// created is the event that records the reservation.
func (d *Dispatcher) deliver(ctx context.Context, tx *txn, pre sendState, controller string, turn store.Turn, request, created string) api.ActionResult {
	op := tx.op
	m := tx.t
	now := d.cfg.Now()
	sum := evidence.PromptHash(request)
	turn.RequestHash, turn.RequestLen = hex.EncodeToString(sum[:]), utf8.RuneCountInString(request)
	turn.BindingGen, turn.NativeSession, turn.NativePath = pre.bind.Generation, pre.bind.SessionID, pre.bind.Path
	turn.NativeTurn, turn.Anchor, turn.FileDev, turn.FileIno = "", 0, 0, 0
	turn.State, turn.Reason, turn.Updated = store.TurnReserved, "", now
	turn.SessionID = terminal.SessionID(d.cfg.Secret, pre.agent, pre.bind.SessionID)
	var anchor *watchers.Anchor
	if pre.bind.Path != "" && pre.prove == nil {
		a, err := takeAnchor(ctx, evidence.Agent(pre.agent), pre.bind.Path)
		if err != nil {
			return reject(api.ReasonAnchor, "cannot anchor the native session file before sending: %v", err).result(op, pre.terminalID)
		}
		a.SessionID = pre.bind.SessionID
		if ag, ok := registry.Lookup(pre.agent); ok && ag.Traits().Steers && pre.bind.Durable == contract.DurableWorking {
			// Sent into a working Codex: a steered prompt is recorded in
			// the running turn, started before this anchor.
			a.Running = pre.bind.RunningTurn
		}
		anchor = &a
		turn.Anchor, turn.FileDev, turn.FileIno = a.Offset, a.File.Dev, a.File.Ino
	}
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: op, Controller: controller, TerminalID: pre.terminalID,
		TurnID: turn.ID, TextLen: turn.RequestLen, Incarnation: pre.incarnation, BindingGen: pre.bind.Generation}
	turn.Reservation = res.ID
	if ref := tx.reserve(res, turn); ref != nil {
		out := tx.refused(ref)
		out.SessionID = turn.SessionID
		if created == api.EventTurnCreated {
			out.TurnID = "" // no Turn was created
		}
		return out
	}
	tx.out.SessionID = turn.SessionID
	d.turnEvent(turn, created)
	ictx := context.WithoutCancel(ctx) // input that started is followed by its proof
	// Every failure here comes after the reservation, with the text
	// possibly in the composer already: uncertain, never retried.
	fail := func(reason string) api.ActionResult {
		d.cfg.Turns.Drop(turn.ID)
		turn.State, turn.Reason, turn.Updated = store.TurnUncertain, reason, d.cfg.Now()
		out := tx.fail(reason, "", "", turn)
		d.turnEvent(turn, api.EventTurnState)
		return out
	}
	rec, facts, why := physicalSend(ictx, tx, pre, request)
	if why != "" {
		return fail(why)
	}
	turn.State, turn.Updated = store.TurnSubmitted, d.cfg.Now()
	prove := pre.prove
	if prove == nil {
		prove = func(ctx context.Context, turn *store.Turn) (string, string, bool) {
			return d.proveAccepted(ctx, m, pre, anchor, request, turn)
		}
	}
	proof, reason, pending := prove(ictx, &turn)
	var out api.ActionResult
	switch {
	case pending:
		// Submitted, and no record matches yet (seed 003: zero matches
		// stay pending). The Turn stays managed: the monitor promotes it
		// when the agent's file shows the request, or ends it unproven
		// after the inactivity window. Never sent again.
		out = tx.submitted("screen:submitted; "+reason, rec.Screen, turn)
	case proof == "":
		return fail(reason)
	default:
		turn.State, turn.Accepted, turn.Updated = store.TurnAccepted, d.cfg.Now(), d.cfg.Now()
		out = tx.accept(proof, rec.Screen, "", turn)
	}
	if out.Outcome != api.OutcomePending && out.Outcome != api.OutcomeAccepted {
		d.cfg.Turns.Drop(turn.ID)
		return out // the receipt was not written: uncertain
	}
	out.SessionID = turn.SessionID // a first prompt's session is bound by now
	out.SendFacts = facts
	d.turnEvent(turn, api.EventTurnState)
	m.SetActiveTurn(turn.ID)
	// Only now does the monitor follow the Turn: its settlement must come
	// after this send's own write of the Turn, which would otherwise undo
	// it (a short turn ends while its acceptance is proven, and the Turn
	// stayed running for ever). Accepted replays what the file already
	// holds; the monitor may settle the Turn at once, which clears
	// activeTurn.
	d.cfg.Turns.Monitor(turn)
	d.cfg.Turns.Accepted(turn)
	d.lg.Info(op, "terminal", pre.terminalID, "turn", turn.ID, "round", turn.Round, "request_len", turn.RequestLen, "evidence", proof)
	return out
}

// takeAnchor anchors path, retrying briefly while the agent is in the
// middle of writing a line.
func takeAnchor(ctx context.Context, agent evidence.Agent, path string) (watchers.Anchor, error) {
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
func (d *Dispatcher) proveAccepted(ctx context.Context, m Terminal, pre sendState, anchor *watchers.Anchor, request string, turn *store.Turn) (proof, reason string, pending bool) {
	if pre.replica {
		return "screen:submitted (replica: no transcript)", "", false
	}
	deadline := time.Now().Add(cmp.Or(d.cfg.AcceptWithin, acceptTimeout))
	var asked time.Time
	for time.Now().Before(deadline) {
		v, ch := m.Next()
		bind := v.Bind
		if anchor == nil && bind.Path != "" && bind.Generation != pre.bind.Generation {
			anchor = &watchers.Anchor{Agent: evidence.Agent(pre.agent), Path: bind.Path, Absent: true, SessionID: bind.SessionID}
			turn.NativeSession, turn.NativePath, turn.BindingGen = bind.SessionID, bind.Path, bind.Generation
			turn.SessionID = terminal.SessionID(d.cfg.Secret, pre.agent, bind.SessionID)
		}
		if anchor != nil {
			acc, err := watchers.Accept(ctx, request, 0, *anchor)
			if err != nil {
				return "", "read the native session file: " + err.Error(), false
			}
			switch acc.Verdict {
			case watchers.Accepted:
				at := acc.Match.At()
				turn.NativeTurn, turn.FileDev, turn.FileIno = acc.Match.TurnID, at.File.Dev, at.File.Ino
				return "transcript:request_hash", "", false
			case watchers.Uncertain:
				return "", "acceptance uncertain: " + acc.Reason, false
			}
		} else if time.Since(asked) >= time.Second {
			// A first Claude prompt creates the transcript: ask the binder
			// to look again (at most once a second: it scans files).
			asked = time.Now()
			m.Resolve()
		}
		pause(ctx, ch, acceptInterval)
	}
	if anchor == nil {
		return "", fmt.Sprintf("%s: the request was submitted but no native session file appeared within %s", api.ReasonPostcondition, acceptTimeout), false
	}
	return "", fmt.Sprintf("acceptance pending: the agent's file shows no record of the request yet (%s)", cmp.Or(d.cfg.AcceptWithin, acceptTimeout)), true
}

// turnEvent records a turn's state as an event (no text).
func (d *Dispatcher) turnEvent(t store.Turn, typ string) {
	ev := store.Event{Type: typ, TerminalID: t.TerminalID, Attrs: map[string]string{
		"turn_id": t.ID, "session_id": t.SessionID, "state": t.State, "reason": t.Reason}}
	if err := d.cfg.Journal.Commit(store.Change{Events: []store.Event{ev}}); err != nil {
		d.lg.Error("turn event", "turn", t.ID, "err", err)
	}
}

// blockReason names why a blocked screen takes no prompt.
func blockReason(r terminal.Recognition) string {
	if r.Blocked != nil {
		return r.Blocked.Reason
	}
	return "no block"
}

// unprofiled refuses a native operation the agent's version has no
// profile for: unknown_version, or, for a qualified binary, whose
// native surfaces no qualification scenario proves yet,
// unqualified_surface.
func unprofiled(v terminal.View, format string, args ...any) *refusal {
	if v.Rec.QualifiedAs != "" {
		return reject(api.ReasonUnqualifiedSurface, "qualified as "+v.Rec.QualifiedAs+", but "+format, args...)
	}
	return reject(api.ReasonUnknownVersion, format, args...)
}
