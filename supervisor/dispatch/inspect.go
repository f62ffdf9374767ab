package dispatch

import (
	"context"
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// native_inspect (seed 003 "Native Status Inspection"): the agent's own
// status, read through the profile's closed /status command. Checks, then
// the transaction, with a private reservation (crash safety only: no
// reserved or receipt event, no receipt id in the result):
//
//	checks   an inspection profile, idle agent, empty composer, no Turn or
//	         open dispatch on the terminal, a known binding
//	command  /status typed; Enter once only when the completion list
//	         highlights exactly /status (Claude's /statusline starts a
//	         model turn that edits settings: never that)
//	result   the status the profile parses (Recognition.Status), bounded
//	dismiss  Claude's modal panel: its key once, back to the same idle
//	         empty composer; Codex prints above a composer that stays so
//
// It creates no Session, Turn, binding or callback. A step unproven after
// input is uncertain and never retried (no second Enter).

// inspectDismissed bounds the wait for the panel to go.
const inspectDismissed = 5 * time.Second

// NativeInspect answers POST /v1/native_inspect.
func (d *Dispatcher) NativeInspect(ctx context.Context, req api.NativeInspectRequest) (api.ActionResult, error) {
	const op = api.OpNativeInspect
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "native_inspect needs terminal_id"))
	}
	if req.Inspection != api.InspectionStatus {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "native_inspect: inspection %q: only %q is offered", clip(req.Inspection, 20), api.InspectionStatus)
	}
	m, tx, before, prof, refused := beginNative(ctx, d, op, req.TerminalID, true, inspectReady)
	if tx == nil {
		return refused, nil
	}
	defer tx.end()
	ictx := context.WithoutCancel(ctx)
	seq, err := d.enterCommand(ictx, tx, slashCommand{line: prof.Status, proven: func(r terminal.Recognition) bool { return r.Completion == prof.Status }})
	if err != nil {
		return privateResult(tx.fail(err.Error(), m.View().Rec.Screen, "")), nil
	}
	shown, ok := m.Await(ictx, seq, stepTimeout, func(r terminal.Recognition) bool { return r.Exact && r.Status != nil })
	if !ok {
		return privateResult(tx.fail(fmt.Sprintf("%s: /status showed no status the profile reads (screen %s)", api.ReasonPostcondition, shown.Screen), shown.Screen, "")), nil
	}
	status := nativeStatus(shown.Status, before, d.cfg.Now())
	after := shown
	if prof.Dismiss != nil {
		view := m.View()
		if err := tx.keys(ictx, prof.Dismiss); err != nil {
			return privateResult(tx.fail(fmt.Sprintf("%s: dismiss: %v", api.ReasonDelivery, err), view.Rec.Screen, "")), nil
		}
		// The same composer as before, once any notice the panel's closing
		// draws under it has gone.
		after, ok = m.Await(ictx, view.Seq, inspectDismissed, func(r terminal.Recognition) bool {
			return r.Exact && r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && r.Fingerprint == before.Rec.Fingerprint
		})
	} else {
		ok = after.Screen == contract.ScreenIdle && after.Composer == contract.ComposerEmpty
	}
	if !ok || after.Fingerprint != before.Rec.Fingerprint {
		return privateResult(tx.fail(fmt.Sprintf("%s: after the status the agent shows %s/%s, not the same idle empty composer", api.ReasonPostcondition,
			after.Screen, after.Composer), after.Screen, "")), nil
	}
	out := privateResult(tx.accept("screen:status", after.Screen, ""))
	if out.Outcome == api.OutcomeAccepted {
		out.Status = status
	}
	return out, nil
}

// inspectReady is the check on the settled screen.
func inspectReady(v terminal.View) (recognizers.InspectProfile, *refusal) {
	return nativeProfile(v, recognizers.Inspect, "no inspection profile: no recorded screen proves its status")
}

// nativeProfile is a native operation's check on the settled screen: a
// proven agent, its version's profile for the operation (lookup; lacking
// says why there is none), then nativeReady.
func nativeProfile[P any](v terminal.View, lookup func(agent, version string) (P, bool), lacking string) (P, *refusal) {
	if ref := provenAgent(v); ref != nil {
		var none P
		return none, ref
	}
	p, ok := lookup(v.Ident.Agent, v.Ident.Version)
	if !ok {
		return p, unprofiled(v, "%s %s has %s", v.Ident.Agent, v.Ident.Version, lacking)
	}
	return p, nativeReady(v)
}

// nativeStatus is the public, bounded result of a parsed status.
func nativeStatus(s *recognizers.StatusPanel, v terminal.View, now time.Time) *api.NativeStatus {
	out := &api.NativeStatus{Inspection: api.InspectionStatus, Agent: v.Ident.Agent, Version: v.Ident.Version, ObservedAt: now,
		Fields: []api.StatusField{}}
	for i, f := range s.Fields {
		if i == api.MaxInspectFields {
			break
		}
		out.Fields = append(out.Fields, api.StatusField{Name: f.Name, Value: f.Value, Redacted: f.Redacted})
	}
	return out
}

// privateResult drops the receipt id: an inspection's reservation is
// private.
// beginNative is the start of an operation through the agent's own
// commands (native_inspect, model control, its repair): the terminal; the
// transaction's checks, no open work on it, then check on the settled
// screen (ready), whose view and profile it returns; and the reservation, on that view's
// process and binding (private: crash safety only, privateResult). On a
// refusal tx is nil and out is the result to return: nothing was sent.
func beginNative[P any](ctx context.Context, d *Dispatcher, op, terminalID string, private bool,
	ready func(terminal.View) (P, *refusal)) (m Terminal, tx *txn, before terminal.View, prof P, out api.ActionResult) {
	if m = d.cfg.Terminals.Terminal(terminalID); m == nil {
		return nil, nil, before, prof, reject(api.ReasonUnknownTerminal, "no terminal %s: run `akk list` for the current ids", terminalID).result(op, terminalID)
	}
	tx, ref := d.begin(ctx, m, txnSpec{op: op, quiet: true,
		before: func() *refusal { return d.noOpenWork(terminalID) },
		check: func(v terminal.View) *refusal {
			before = v
			var ref *refusal
			prof, ref = ready(v)
			return ref
		}})
	if ref != nil {
		return m, nil, before, prof, ref.result(op, terminalID)
	}
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: op, Controller: ControllerOf(ctx), TerminalID: terminalID,
		Incarnation: before.Ident.Incarnation(), BindingGen: before.Bind.Generation, Private: private}
	if ref := tx.reserve(res); ref != nil {
		out = tx.refused(ref)
		tx.end()
		if private {
			out = privateResult(out)
		}
		return m, nil, before, prof, out
	}
	return m, tx, before, prof, api.ActionResult{}
}

func privateResult(out api.ActionResult) api.ActionResult {
	out.ReceiptID = ""
	return out
}
