package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Native thread transitions (seed 003): new_thread and resume_thread move
// the agent's pane to a new conversation or an earlier one through the
// profile's closed native command. They are checks, then the transaction,
// like every mutation:
//
//	checks   verified idle agent, empty composer, exact thread profile,
//	         no active or unresolved Turn or dispatch, a resolved (or
//	         verified absent) binding; resume: the candidate, fresh
//	reserve  before the first key
//	command  typed (resume: with the conversation's full id); the composer
//	         shows exactly it and nothing else Enter could run (the list
//	         highlights exactly the command; with an argument, no list),
//	         or no Enter (residue: uncertain)
//	Enter    once
//	prove    the idle empty composer, then the binding the transition
//	         expects (the binder holds the old one until then: one
//	         generation step), then the receipt
//
// The transition creates no Turn. The AKK session follows the native one
// (terminal.SessionID): a new conversation is a new session, a resumed one
// its old session again. Offers and fences of the binding before carry its
// generation and can no longer act.

// Threads is what the transitions need beyond the terminal: the binder's
// hold on the binding while one runs, and the agent's resumable
// conversations.
type Threads interface {
	// Expect holds the terminal's binding until tr's shows (binding.Binder).
	Expect(terminalID string, tr terminal.Transition)
	// Unexpect drops the hold of a transition that ended unproven.
	Unexpect(terminalID string) bool
	// Candidates lists the conversations the agent in v may resume.
	Candidates(ctx context.Context, v terminal.View) ([]Candidate, error)
	// Stale proves the conversation v's terminal left (Bind.Left) stale:
	// its process wrote another transcript of its workspace since.
	Stale(ctx context.Context, v terminal.View) (store.BindingDetach, error)
	// Detach has the binder leave a stale conversation out.
	Detach(terminalID string, d store.BindingDetach) error
}

// Candidate is one resumable conversation, with what its listing saw of
// its file (a replaced or changed file is not resumed under it).
type Candidate struct {
	ID, Title string
	Updated   time.Time
	// Unchanged re-reads the file: the one listed, no longer than then.
	Unchanged func() bool
}

// Timeouts of a transition's proofs.
const (
	transitionStep    = 10 * time.Second // a screen after a key
	transitionBinding = 15 * time.Second // the binding the transition expects
)

// NewThread answers POST /v1/new_thread.
func (d *Dispatcher) NewThread(ctx context.Context, req api.NewThreadRequest) (api.ActionResult, error) {
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "new_thread needs terminal_id"))
	}
	return d.transition(ctx, api.OpNewThread, req.TerminalID, nil), nil
}

// ResumeThread answers POST /v1/resume_thread.
func (d *Dispatcher) ResumeThread(ctx context.Context, req api.ResumeThreadRequest) (api.ActionResult, error) {
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "resume_thread needs terminal_id"))
	}
	if (req.NativeThreadID == "") == (req.Ref == "") {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "resume_thread needs exactly one of native_thread_id and ref")
	}
	if req.NativeThreadID != "" && !IsThreadID(req.NativeThreadID) {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "native_thread_id %q is not a full conversation id", clip(req.NativeThreadID, 40))
	}
	t := &resumeTarget{id: req.NativeThreadID}
	if req.Ref != "" {
		var ref *refusal
		if t.id, t.listed, ref = d.snapshots.resolve(ControllerOf(ctx), req.TerminalID, req.Ref, d.cfg.Now()); ref != nil {
			return ref.result(api.OpResumeThread, req.TerminalID), nil
		}
	}
	return d.transition(ctx, api.OpResumeThread, req.TerminalID, t), nil
}

// resumeTarget is the conversation to resume, and the ordered ids of the
// listing a number or short ref was resolved from (nil for a full id).
type resumeTarget struct {
	id     string
	listed []string
}

func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// transitionPre is what the checks proved, for the transaction.
type transitionPre struct {
	view    terminal.View
	profile recognizers.ThreadProfile
	target  *Candidate // resume
}

// transition runs one native thread transition; target is resume's
// conversation id (nil for a new thread).
func (d *Dispatcher) transition(ctx context.Context, op, terminalID string, target *resumeTarget) api.ActionResult {
	controller := ControllerOf(ctx)
	m := d.cfg.Terminals.Terminal(terminalID)
	if m == nil {
		return reject(api.ReasonUnknownTerminal, "no terminal %s: run `akk list` for the current ids", terminalID).result(op, terminalID)
	}
	if d.cfg.Threads == nil {
		return reject(api.ReasonNotAnAgent, "this daemon follows no native sessions").result(op, terminalID)
	}
	var pre transitionPre
	tx, ref := d.begin(ctx, m, txnSpec{op: op, quiet: true,
		before: func() *refusal { return d.noOpenWork(terminalID) },
		check: func(v terminal.View) *refusal {
			var ref *refusal
			pre, ref = d.transitionReady(ctx, v, op, target)
			return ref
		}})
	if ref != nil {
		return ref.result(op, terminalID)
	}
	defer tx.end()
	v := pre.view
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: op, Controller: controller, TerminalID: terminalID,
		Incarnation: v.Ident.Incarnation(), BindingGen: v.Bind.Generation}
	if ref := tx.reserve(res); ref != nil {
		return tx.refused(ref)
	}
	tr := terminal.Transition{Op: op, Receipt: res.ID, Incarnation: v.Ident.Incarnation(), From: v.Bind, Since: d.cfg.Now()}
	if pre.target != nil {
		tr.Target = pre.target.ID
	}
	d.cfg.Threads.Expect(terminalID, tr)
	// Compare-and-swap: the binding the checks saw is still the one the
	// binder holds, now that it holds it for the transition.
	if now := m.View(); now.Bind.Generation != v.Bind.Generation || now.Ident == nil || now.Ident.Incarnation() != tr.Incarnation {
		d.cfg.Threads.Unexpect(terminalID)
		return tx.fail(api.ReasonBindingChanged+": the terminal's native session moved on during the checks", now.Rec.Screen, "")
	}
	rec, err := d.runTransition(ctx, tx, pre)
	if err != nil {
		d.cfg.Threads.Unexpect(terminalID)
		return tx.fail(err.Error(), rec.Screen, "")
	}
	bind, ok := d.awaitBinding(ctx, m, v.Bind.Generation, tr)
	if !ok {
		d.cfg.Threads.Unexpect(terminalID)
		return tx.fail(fmt.Sprintf("%s: the agent shows its idle composer but its conversation is not the one %s expects (binding %s)",
			api.ReasonPostcondition, op, bind.State), rec.Screen, "")
	}
	out := tx.accept("binding:generation "+strconv.FormatUint(bind.Generation, 10), rec.Screen, "")
	out.ThreadFacts = &api.ThreadFacts{PreviousNativeThreadID: v.Bind.SessionID, NativeThreadID: bind.SessionID,
		BindingGeneration: bind.Generation, NativeIdentityState: bind.State}
	if bind.State == contract.IdentityResolved {
		out.SessionID = terminal.SessionID(d.cfg.Secret, v.Ident.Agent, bind.SessionID)
	}
	if out.Outcome == api.OutcomeAccepted {
		d.snapshots.drop(terminalID) // the candidates moved: list again
	}
	return out
}

// noOpenWork refuses while the terminal has a Turn that has not settled
// or a dispatch whose outcome is not recorded: the transition would take
// its conversation away from under it.
func (d *Dispatcher) noOpenWork(terminalID string) *refusal {
	turns, err := d.cfg.Store.Turns()
	if err != nil {
		return reject(api.ReasonStore, "read turns: %v", err)
	}
	for _, t := range turns {
		if t.TerminalID == terminalID && !turnSettled(t.State) && t.Management != "closed" {
			return reject(api.ReasonTurnActive, "turn %s on this terminal is %s: wait for it, cancel or close it first", t.ID, t.State)
		}
	}
	rs, err := d.cfg.Store.Reservations()
	if err != nil {
		return reject(api.ReasonStore, "read reservations: %v", err)
	}
	for _, r := range rs {
		if r.TerminalID == terminalID && !r.Final() {
			return reject(api.ReasonTurnActive, "a %s on this terminal has no recorded outcome yet (%s)", r.Op, r.ID)
		}
	}
	return nil
}

// transitionReady is the check on the settled screen.
func (d *Dispatcher) transitionReady(ctx context.Context, v terminal.View, op string, target *resumeTarget) (transitionPre, *refusal) {
	pre := transitionPre{view: v}
	if ref := provenAgent(v); ref != nil {
		return pre, ref
	}
	p, ok := recognizers.Threads(v.Ident.Agent, v.Ident.Version)
	if !ok {
		return pre, unprofiled(v, "%s %s has no thread profile: no recorded screen proves its commands", v.Ident.Agent, v.Ident.Version)
	}
	if ref := nativeReady(v); ref != nil {
		return pre, ref
	}
	pre.profile = p
	if op != api.OpResumeThread {
		return pre, nil
	}
	if target.id == v.Bind.SessionID {
		return pre, reject(api.ReasonNotResumable, "%s is the conversation the terminal runs now", target.id)
	}
	cands, err := d.cfg.Threads.Candidates(ctx, v)
	if err != nil {
		return pre, reject(api.ReasonStore, "list the agent's conversations: %v", err)
	}
	if target.listed != nil {
		ids := make([]string, 0, len(cands))
		for _, c := range cands {
			ids = append(ids, c.ID)
		}
		if !slices.Equal(ids, target.listed) {
			return pre, reject(api.ReasonStaleCandidates, "the conversations changed since the listing: list them again")
		}
	}
	// The file the controller's listing showed must be the one there now,
	// unchanged: a replaced or rewritten conversation is not resumed under
	// the metadata it saw.
	if s, ok := d.snapshots.listed(ControllerOf(ctx), v.ID, d.cfg.Now()); ok {
		for _, c := range s.cands {
			if c.ID == target.id && c.Unchanged != nil && !c.Unchanged() {
				return pre, reject(api.ReasonStaleCandidates, "the conversation's file changed since it was listed: list again")
			}
		}
	}
	for i := range cands {
		if cands[i].ID == target.id {
			pre.target = &cands[i]
			return pre, nil
		}
	}
	return pre, reject(api.ReasonNotResumable, "%s is not a resumable conversation of this workspace (another workspace, archived, active in another process, or unknown)", target.id)
}

// nativeReady is what every native command needs of the settled screen
// besides its profile: a real agent, idle, with an empty composer, no
// turn in progress or managed, and a binding that names its conversation
// (or verifiably none yet).
func nativeReady(v terminal.View) *refusal {
	switch {
	case v.Ident.Replica:
		return reject(api.ReasonNotAnAgent, "a replica has no native session of its own")
	case v.Rec.Screen != contract.ScreenIdle:
		return reject(api.ReasonNotIdle, "the agent is %s, not idle", v.Rec.Screen)
	case v.Rec.Composer != contract.ComposerEmpty:
		return reject(api.ReasonComposerNotEmpty, "the composer is %s, not empty", v.Rec.Composer)
	case terminal.NativeBusy(v):
		return reject(api.ReasonNotIdle, "the agent's session file shows a turn in progress")
	case v.ActiveTurn != "":
		return reject(api.ReasonTurnActive, "turn %s is active on this terminal", v.ActiveTurn)
	case v.Bind.State != contract.IdentityResolved && v.Bind.State != contract.IdentityVerifiedAbsent:
		return reject(api.ReasonBindingChanged, "the terminal's native session is %s: it must be known (reconcile_binding)", cmp.Or(v.Bind.State, "unresolved"))
	}
	return nil
}

// runTransition types the command line, proves it, presses Enter once,
// and proves the idle empty composer.
func (d *Dispatcher) runTransition(ctx context.Context, tx *txn, pre transitionPre) (terminal.Recognition, error) {
	ctx = context.WithoutCancel(ctx) // input that started is followed by its proof
	cmd := slashCommand{line: pre.profile.New, proven: func(r terminal.Recognition) bool { return r.Completion == pre.profile.New }}
	if pre.target != nil {
		// With its argument no version draws a completion list: Enter runs
		// the line as typed, once the screen proves no list is drawn.
		cmd = slashCommand{line: pre.profile.Resume + " " + pre.target.ID, proven: func(r terminal.Recognition) bool { return r.NoCompletion }}
	}
	seq, err := d.enterCommand(ctx, tx, cmd)
	if err != nil {
		return tx.t.View().Rec, err
	}
	rec, ok := tx.t.Await(ctx, seq, transitionStep, func(r terminal.Recognition) bool {
		return r.Exact && r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty
	})
	if !ok {
		return rec, fmt.Errorf("%s: after the command's Enter the agent shows %s, not its idle empty composer", api.ReasonPostcondition, rec.Screen)
	}
	return rec, nil
}

// awaitBinding waits for the binding the transition expects (the binder
// adopts it with one generation step), asking for a resolution at most
// once a second.
func (d *Dispatcher) awaitBinding(ctx context.Context, m Terminal, gen uint64, tr terminal.Transition) (terminal.Binding, bool) {
	ctx = context.WithoutCancel(ctx)
	deadline := time.Now().Add(transitionBinding)
	var asked time.Time
	for {
		v, ch := m.Next()
		b := v.Bind
		if b.Generation != gen && b.Last != nil && b.Last.Receipt == tr.Receipt {
			return b, true
		}
		if time.Now().After(deadline) {
			return b, false
		}
		if time.Since(asked) >= time.Second {
			asked = time.Now()
			m.Resolve()
		}
		pause(ctx, ch, 250*time.Millisecond)
	}
}
