package dispatch

import (
	"context"
	"fmt"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// cancel interrupts a managed Turn the way its agent's user would (the
// agent's Interrupt: a key, or a key twice, the second once the screen
// shows the first armed it). Only a working agent is
// interrupted: with a permission prompt or a question up, Escape would
// cancel that dialog (not reject it) and C-c could quit Codex, so cancel
// is refused then.

// Cancel answers POST /v1/cancel.
func (d *Dispatcher) Cancel(ctx context.Context, req api.CancelRequest) (api.ActionResult, error) {
	const op = "cancel"
	if err := needTurnID(req.TurnID, "cancel needs turn_id"); err != nil {
		return api.ActionResult{}, err
	}
	controller := ControllerOf(ctx)
	m, turn, ref := d.subject(controller, req.TurnID, "", "")
	if ref != nil {
		return ref.result(op, ""), nil
	}
	var key []byte
	var arm bool
	var before terminal.View
	tx, ref := d.begin(ctx, m, txnSpec{op: op, check: func(v terminal.View) *refusal {
		switch {
		case v.Ident == nil || v.Ident.Incarnation() != turn.Incarnation:
			return reject(api.ReasonProcessChanged, "the agent process is not the one the turn was sent to")
		case v.Rec.Screen != contract.ScreenWorking:
			return reject(api.ReasonNotCancellable, "the agent is %s: only a working agent is interrupted (a dialog is answered, not cancelled)", v.Rec.Screen)
		}
		a, ok := registry.Lookup(v.Ident.Agent)
		if !ok || len(a.Interrupt().Key) == 0 {
			return reject(api.ReasonNotCancellable, "no interrupt key for %s", v.Ident.Agent)
		}
		key, arm = a.Interrupt().Key, a.Interrupt().Twice
		before = v
		return nil
	}})
	if ref != nil {
		return ref.result(op, turn.TerminalID), nil
	}
	defer tx.end()
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: op, Controller: controller, TerminalID: turn.TerminalID,
		TurnID: turn.ID, Incarnation: turn.Incarnation, BindingGen: turn.BindingGen}
	if ref := tx.reserve(res); ref != nil {
		out := tx.refused(ref)
		out.SessionID = turn.SessionID
		return out, nil
	}
	tx.out.SessionID = turn.SessionID
	ictx := context.WithoutCancel(ctx)
	err := tx.keys(ictx, key)
	var rec terminal.Recognition
	ok := false
	if err == nil && arm {
		// The second key only on the armed screen; a turn that ended
		// meanwhile takes none.
		rec, ok = m.Await(ictx, before.Seq, stepTimeout, func(r terminal.Recognition) bool {
			return r.Screen != contract.ScreenWorking || r.InterruptArmed
		})
		if ok && rec.Screen == contract.ScreenWorking {
			err = tx.keys(ictx, key)
		}
	}
	if err == nil {
		rec, ok = m.Await(ictx, before.Seq, stepTimeout, func(r terminal.Recognition) bool { return r.Screen != contract.ScreenWorking })
	}
	if !ok {
		reason := fmt.Sprintf("%s: the interrupt was sent but the agent still shows %s", api.ReasonPostcondition, rec.Screen)
		if err != nil {
			reason = err.Error()
		}
		return tx.fail(reason, rec.Screen, ""), nil
	}
	t := *turn
	t.State, t.Reason, t.Updated, t.Settled = store.TurnCancelled, "cancelled by its controller", d.cfg.Now(), d.cfg.Now()
	out := tx.accept("screen:"+string(rec.Screen), rec.Screen, "", t)
	if out.Outcome == api.OutcomeAccepted {
		d.turnEvent(t, api.EventTurnState)
	}
	return out, nil
}
