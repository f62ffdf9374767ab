package dispatch

import (
	"context"
	"errors"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// answer: the controller answers a managed Turn whose agent ended its
// turn with its own text (a question, often: "Which file?"), inside the
// same Turn (seed 003's `answer` message type; its waiting_for_openclaw).
// Nothing reads what the agent wrote: the Turn is answerable when its
// native turn completed with text and nothing has happened in the pane
// since — the same process, the same binding generation, no newer Turn,
// an idle agent with an exactly empty composer. Then it is a managed
// send: the same checks and the same delivery, under the same turn_id,
// whose round counts the answers.

// Answer answers POST /v1/answer; every result carries the send's facts.
func (d *Dispatcher) Answer(ctx context.Context, req api.AnswerRequest) (api.ActionResult, error) {
	return factsOf(d.answer(ctx, req))
}

func (d *Dispatcher) answer(ctx context.Context, req api.AnswerRequest) (api.ActionResult, error) {
	const op = "answer"
	if err := needTurnID(req.TurnID, "answer needs turn_id (a new task is a send)"); err != nil {
		return api.ActionResult{}, err
	}
	if len(req.Request) > api.MaxRequestText {
		return reject(api.ReasonTextTooLong, "request of %d bytes (max %d)", len(req.Request), api.MaxRequestText).result(op, ""), nil
	}
	if ref := checkText(req.Request, true); ref != nil {
		return ref.result(op, ""), nil
	}
	controller := ControllerOf(ctx)
	turn, ref := d.answerable(controller, req.TurnID)
	if ref != nil {
		out := ref.result(op, turn.TerminalID)
		out.TurnID = req.TurnID
		return out, nil
	}
	m := d.cfg.Terminals.Terminal(turn.TerminalID)
	if m == nil {
		return reject(api.ReasonTerminalGone, "the turn's terminal %s is gone", turn.TerminalID).result(op, turn.TerminalID), nil
	}
	var pre sendState
	tx, ref := d.begin(ctx, m, txnSpec{op: op, quiet: true,
		// Under the lock: no other mutation of this terminal (a send, an
		// answer) can come between this look at the record and the input.
		before: func() *refusal {
			var r *refusal
			turn, r = d.answerable(controller, req.TurnID)
			return r
		},
		check: func(v terminal.View) *refusal {
			var r *refusal
			if pre, r = sendReady(v, api.SendRequest{TerminalID: turn.TerminalID, Request: req.Request}); r != nil {
				return r
			}
			switch {
			case pre.incarnation != turn.Incarnation:
				return reject(api.ReasonProcessChanged, "the agent process is not the one the turn was sent to")
			case v.Bind.Generation != turn.BindingGen || v.Bind.SessionID != turn.NativeSession:
				return reject(api.ReasonBindingChanged, "the terminal's native session moved on since the turn")
			}
			return promptedSince(ctx, turn)
		}})
	if ref != nil {
		out := ref.result(op, turn.TerminalID)
		out.TurnID = req.TurnID
		return out, nil
	}
	defer tx.end()
	turn.Round++
	turn.Resumed, turn.Settled, turn.Accepted, turn.EndedWithText = d.cfg.Now(), time.Time{}, time.Time{}, false
	return d.deliver(ctx, tx, pre, controller, turn, req.Request, api.EventTurnState), nil
}

// promptedSince refuses when the agent's own file took a prompt after the
// line that ended the Turn (a person's, typed in the pane, or another
// tool's): the answer would no longer follow the agent's last words.
func promptedSince(ctx context.Context, t store.Turn) *refusal {
	if t.NativePath == "" || t.SettledEnd <= 0 || t.FileIno == 0 {
		return reject(api.ReasonNotAnswerable, "turn %s has no position in the agent's own file to answer after", t.ID)
	}
	an := watchers.Anchor{Agent: evidence.Agent(t.Agent), Path: t.NativePath,
		File: evidence.FileID{Dev: t.FileDev, Ino: t.FileIno}, Offset: t.SettledEnd}
	prompted, why, err := watchers.Prompted(ctx, an, t.NativeTurn)
	switch {
	case err != nil:
		return reject(api.ReasonAnchor, "read the agent's file after the turn: %v", err)
	case prompted:
		return reject(api.ReasonSuperseded, "the agent's file moved on since the turn ended (%s): send a new task instead", why)
	}
	return nil
}

// answerable reads the Turn and refuses, sending nothing, unless it is
// the caller's, completed with the agent's own text, and the newest Turn
// of its terminal.
func (d *Dispatcher) answerable(controller, turnID string) (store.Turn, *refusal) {
	t, err := d.cfg.Store.Turn(turnID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return t, reject(api.ReasonUnknownTurn, "no turn %s", turnID)
	case err != nil:
		return t, reject(api.ReasonStore, "read turn: %v", err)
	case t.Controller != api.Owner(controller):
		return t, reject(api.ReasonNotOwner, "turn %s belongs to another controller", turnID)
	case t.Management == "closed":
		return t, reject(api.ReasonTurnClosed, "turn %s was closed", turnID)
	case t.State != store.TurnDone:
		return t, reject(api.ReasonNotAnswerable, "turn %s is %s: only a completed turn whose agent ended with its own text is answered", turnID, t.State)
	case !t.EndedWithText:
		return t, reject(api.ReasonNotAnswerable, "turn %s completed without the agent's own text last: send a new task instead", turnID)
	}
	all, err := d.cfg.Store.Turns()
	if err != nil {
		return t, reject(api.ReasonStore, "read turns: %v", err)
	}
	for _, o := range all {
		if o.ID != t.ID && o.TerminalID == t.TerminalID && o.Created.After(t.Created) {
			return t, reject(api.ReasonSuperseded, "turn %s was sent to this terminal after it: answer that one, or send", o.ID)
		}
	}
	return t, nil
}
