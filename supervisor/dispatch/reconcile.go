package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// reconcile_binding (seed 003 "Human Handoff"): a person's /new or
// /resume in a Codex pane leaves its process holding two rollouts open
// (Codex keeps every rollout it wrote open until it exits), and in a
// Claude Code pane without a session record two transcripts written since
// it started: nothing says which one it writes now, the binding is
// ambiguous and every managed send is refused. The controller
// may detach the conversation the terminal was bound to (Binding.Left)
// once akk proves it stale: the process wrote another transcript of its
// workspace after its last write to it. Nothing is typed; nothing is
// adopted by fiat: the binder then resolves by its own rule with the
// detached file left out while it does not grow.

// reconcileWithin bounds the wait for the binder's resolution after a
// detach.
const reconcileWithin = 5 * time.Second

// ReconcileBinding answers POST /v1/reconcile_binding.
func (d *Dispatcher) ReconcileBinding(ctx context.Context, req api.ReconcileBindingRequest) (api.ActionResult, error) {
	const op = "reconcile_binding"
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "reconcile_binding needs terminal_id"))
	}
	if err := checkID("conflicting_session_id", req.ConflictingSessionID, "ses"); err != nil || req.ConflictingSessionID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "reconcile_binding needs conflicting_session_id"))
	}
	m := d.cfg.Terminals.Terminal(req.TerminalID)
	if m == nil {
		return reject(api.ReasonUnknownTerminal, "no terminal %s: run `akk list` for the current ids", req.TerminalID).result(op, req.TerminalID), nil
	}
	if d.cfg.Threads == nil {
		return reject(api.ReasonNotAnAgent, "this daemon follows no native sessions").result(op, req.TerminalID), nil
	}
	var v terminal.View
	var det store.BindingDetach
	tx, ref := d.begin(ctx, m, txnSpec{op: op, check: func(view terminal.View) *refusal {
		v = view
		var ref *refusal
		det, ref = d.staleBinding(ctx, v, req.ConflictingSessionID)
		return ref
	}})
	if ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	defer tx.end()
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: op, Controller: ControllerOf(ctx), TerminalID: req.TerminalID,
		Incarnation: v.Ident.Incarnation(), BindingGen: v.Bind.Generation}
	if ref := tx.reserve(res); ref != nil {
		return tx.refused(ref), nil
	}
	if err := d.cfg.Threads.Detach(req.TerminalID, det); err != nil {
		return tx.fail(fmt.Sprintf("%s: %v", api.ReasonTerminalGone, err), v.Rec.Screen, ""), nil
	}
	bind := d.awaitGeneration(ctx, m, v.Bind.Generation)
	out := tx.accept("binding:detached "+det.SessionID, v.Rec.Screen, "")
	out.ThreadFacts = &api.ThreadFacts{PreviousNativeThreadID: det.SessionID, NativeThreadID: bind.SessionID,
		BindingGeneration: bind.Generation, NativeIdentityState: cmp.Or(bind.State, v.Bind.State)}
	if bind.State == contract.IdentityResolved {
		out.SessionID = terminal.SessionID(d.cfg.Secret, v.Ident.Agent, bind.SessionID)
	}
	return out, nil
}

// staleBinding is the check: the terminal's binding names no conversation,
// the one it left is the conflicting session, and akk proves it stale.
func (d *Dispatcher) staleBinding(ctx context.Context, v terminal.View, conflicting string) (store.BindingDetach, *refusal) {
	switch {
	case v.Ident == nil || !registry.Known(v.Ident.Agent):
		return store.BindingDetach{}, reject(api.ReasonNotAnAgent, "no coding agent runs in this terminal")
	case v.Bind.State == contract.IdentityResolved:
		return store.BindingDetach{}, reject(api.ReasonNotStale, "the binding names one conversation: nothing conflicts")
	case v.Bind.Left == "" || terminal.SessionID(d.cfg.Secret, v.Ident.Agent, v.Bind.Left) != conflicting:
		return store.BindingDetach{}, reject(api.ReasonNotStale, "%s is not the conversation this terminal was bound to", conflicting)
	}
	det, err := d.cfg.Threads.Stale(ctx, v)
	if err != nil {
		return det, reject(api.ReasonNotStale, "%v", err)
	}
	return det, nil
}

// awaitGeneration waits a little for the binder's next binding.
func (d *Dispatcher) awaitGeneration(ctx context.Context, m Terminal, gen uint64) terminal.Binding {
	deadline := time.Now().Add(reconcileWithin)
	for {
		v, ch := m.Next()
		if v.Bind.Generation != gen || time.Now().After(deadline) {
			return v.Bind
		}
		if !pause(ctx, ch, 250*time.Millisecond) {
			return v.Bind
		}
	}
}

// pause is a poll's wait between two looks: until the terminal's next
// view (ch), d, or ctx's end, whichever comes first. It reports false
// once ctx has ended.
func pause(ctx context.Context, ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
		return false
	}
	return true
}
