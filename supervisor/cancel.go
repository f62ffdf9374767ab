package supervisor

import (
	"context"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// cancel interrupts a managed Turn the way its agent's user would: Codex
// takes C-c, Claude Code Escape. Only a working agent is interrupted: with
// a permission prompt or a question up, Escape would cancel that dialog
// (not reject it) and C-c could quit Codex, so cancel is refused then.

var interruptKey = map[string][]byte{api.AgentCodex: {0x03}, api.AgentClaude: {0x1b}}

// Cancel answers POST /v1/cancel.
func (s *Supervisor) Cancel(ctx context.Context, req api.CancelRequest) (api.ActionResult, error) {
	const op = "cancel"
	if req.TurnID == "" {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "cancel needs turn_id")
	}
	if err := checkID("turn_id", req.TurnID, "turn"); err != nil {
		return api.ActionResult{}, err
	}
	controller := controllerOf(ctx)
	m, turn, ref := s.subject(controller, req.TurnID, "", "")
	if ref != nil {
		return ref.result(op, ""), nil
	}
	unlock, err := m.lockTerminal(ctx)
	if err != nil {
		return asRefusal(err).result(op, turn.TerminalID), nil
	}
	defer unlock()
	if err := m.barrier(ctx); err != nil {
		return reject("terminal_gone", "%v", err).result(op, turn.TerminalID), nil
	}
	m.mu.Lock()
	var key []byte
	switch {
	case m.ident == nil || m.ident.Incarnation() != turn.Incarnation:
		ref = reject(api.ReasonProcessChanged, "the agent process is not the one the turn was sent to")
	case m.rec.Screen != api.ScreenWorking:
		ref = reject(api.ReasonNotCancellable, "the agent is %s: only a working agent is interrupted (a dialog is answered, not cancelled)", m.rec.Screen)
	default:
		key = interruptKey[m.ident.Agent]
		if key == nil {
			ref = reject(api.ReasonNotCancellable, "no interrupt key for %s", m.ident.Agent)
		}
	}
	before := view{rec: m.rec, seq: m.screenSeq}
	m.mu.Unlock()
	if ref != nil {
		return ref.result(op, turn.TerminalID), nil
	}
	res := store.Reservation{ID: s.newID("rcpt_", "receipt"), Op: op, Controller: controller, TerminalID: turn.TerminalID,
		TurnID: turn.ID, Incarnation: turn.Incarnation, BindingGen: turn.BindingGen}
	out := api.ActionResult{V: api.SchemaVersion, Op: op, TerminalID: turn.TerminalID, TurnID: turn.ID,
		SessionID: turn.SessionID, ReceiptID: res.ID}
	if err := s.reserve(&res); err != nil {
		out.Outcome, out.Reason, out.ReceiptID = api.OutcomeRejected, "store: "+err.Error(), ""
		return out, nil
	}
	ictx := context.WithoutCancel(ctx)
	st := &stepper{s: s, m: m, res: &res}
	err = st.markSent()
	if err == nil {
		err = m.sess.client.SendBytes(ictx, m.pane, key)
	}
	var rec recognition
	ok := false
	if err == nil {
		rec, ok = m.await(ictx, before, stepTimeout, func(r recognition) bool { return r.Screen != api.ScreenWorking })
	}
	if !ok {
		reason := fmt.Sprintf("%s: the interrupt was sent but the agent still shows %s", api.ReasonPostcondition, rec.Screen)
		if err != nil {
			reason = err.Error()
		}
		if aerr := s.advance(&res, store.StageUncertain, reason, "", ""); aerr != nil {
			s.lg.Error("cancel: record outcome", "err", aerr)
		}
		out.Outcome, out.Reason, out.DoNotRetry = api.OutcomeUncertain, reason, true
		return out, nil
	}
	t := *turn
	t.State, t.Reason, t.Updated, t.Settled = store.TurnCancelled, "cancelled by its controller", s.cfg.Now(), s.cfg.Now()
	if err := s.advance(&res, store.StageDone, "", "screen:"+rec.Screen, "", t); err != nil {
		out.Outcome, out.Reason, out.DoNotRetry = api.OutcomeUncertain, "receipt not recorded: "+err.Error(), true
		return out, nil
	}
	s.turnEvent(t, api.EventTurnState)
	out.Outcome, out.DoNotRetry, out.ScreenState, out.Evidence = api.OutcomeAccepted, true, rec.Screen, "screen:"+rec.Screen
	return out, nil
}
