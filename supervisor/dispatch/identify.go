package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Foreground identification (seed 003, issue 22): a Codex process holding
// several rollouts open leaves its binding ambiguous (a person's /new or
// /resume: Codex keeps every rollout it wrote open). Checks, then the
// transaction, as native_inspect:
//
//	checks   Codex with an inspection profile, idle, exactly empty
//	         composer, no Turn or open dispatch, a binding ambiguous
//	         between listed rollouts
//	probe    /status once under a private reservation (crash safety only:
//	         no events, no receipt id), Enter only when the completion
//	         list highlights exactly /status; the card's Session row is
//	         the foreground thread, matched against the candidates
//
// identify_foreground stops there: its result is a diagnostic proof, no
// authority (nothing accepts it back). identify_and_send goes on under the
// same dispatch lock (a follower transaction, follow):
//
//	recheck  idle, empty composer, the same process, version, cwd,
//	         binding generation and candidates
//	anchor   every candidate rollout (the frozen pre-send inventory)
//	send     the ordinary managed send (deliver): one Enter
//	accept   the rollouts read past their anchors (and any the process
//	         opened since): exactly one takes the exact request, and it
//	         is the /status thread: it becomes the Turn's session and the
//	         binding resolves to it (one generation step, the others
//	         detached at their pre-send size); none: pending; several, or
//	         another one: uncertain, never retried
//
// Whatever leaves the probe unproven stops before the task: no task input,
// and the result says do_not_retry (the probe itself was input).

// Fault points of foreground identification (-tags akkfault): after the
// probe's Enter, and after the task's. Not in FaultPoints, which every
// transaction passes.
const (
	FaultIdentifyProbeEnter = "dispatch.identify_probe_enter"
	FaultIdentifyTaskEnter  = "dispatch.identify_task_enter"
)

// IdentifyFaultPoints lists them in order.
var IdentifyFaultPoints = []string{FaultIdentifyProbeEnter, FaultIdentifyTaskEnter}

// identifyPre is what the checks before the probe proved.
type identifyPre struct {
	view    terminal.View
	profile recognizers.InspectProfile
}

// IdentifyForeground answers POST /v1/identify_foreground.
func (d *Dispatcher) IdentifyForeground(ctx context.Context, req api.IdentifyForegroundRequest) (api.ActionResult, error) {
	const op = api.OpIdentifyForeground
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "identify_foreground needs terminal_id"))
	}
	tx, pre, ref := d.beginIdentify(ctx, op, req.TerminalID, "")
	if ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	defer tx.end()
	out, _ := d.probe(ctx, tx, pre)
	return out, nil
}

// IdentifyAndSend answers POST /v1/identify_and_send.
func (d *Dispatcher) IdentifyAndSend(ctx context.Context, req api.IdentifyAndSendRequest) (api.ActionResult, error) {
	const op = api.OpIdentifyAndSend
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ActionResult{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "identify_and_send needs terminal_id"))
	}
	if len(req.Request) > api.MaxRequestText {
		return reject(api.ReasonTextTooLong, "request of %d bytes (max %d)", len(req.Request), api.MaxRequestText).result(op, req.TerminalID), nil
	}
	if ref := checkText(req.Request, true); ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	if d.cfg.Threads == nil {
		return reject(api.ReasonNotAnAgent, "this daemon follows no native sessions").result(op, req.TerminalID), nil
	}
	tx, pre, ref := d.beginIdentify(ctx, op, req.TerminalID, req.Request)
	if ref != nil {
		return ref.result(op, req.TerminalID), nil
	}
	defer tx.end()
	out, proof := d.probe(ctx, tx, pre)
	if out.Outcome != api.OutcomeAccepted {
		out.DoNotRetry = out.DoNotRetry || out.Outcome == api.OutcomeUncertain
		return out, nil
	}
	if !proof.Candidate {
		return stopped(out, api.OutcomeManual, out.Reason), nil
	}
	return d.sendIdentified(ctx, tx, pre, proof, req.Request), nil
}

// stopped is identify_and_send's result when it stops after the probe:
// no task input, and never retried (the probe was input).
func stopped(probe api.ActionResult, outcome, reason string) api.ActionResult {
	return api.ActionResult{V: api.SchemaVersion, Op: api.OpIdentifyAndSend, Outcome: outcome, Reason: reason, DoNotRetry: true,
		TerminalID: probe.TerminalID, Foreground: probe.Foreground, SendFacts: &api.SendFacts{AgentAcceptance: api.AcceptanceNone}}
}

// beginIdentify takes the terminal's dispatch lock and runs the checks
// before the probe; request is identify_and_send's (checked against the
// pane too, before anything is typed).
func (d *Dispatcher) beginIdentify(ctx context.Context, op, terminalID, request string) (*txn, identifyPre, *refusal) {
	var pre identifyPre
	m := d.cfg.Terminals.Terminal(terminalID)
	if m == nil {
		return nil, pre, reject(api.ReasonUnknownTerminal, "no terminal %s: run `akk list` for the current ids", terminalID)
	}
	tx, ref := d.begin(ctx, m, txnSpec{op: op, quiet: true,
		before: func() *refusal { return d.noOpenWork(terminalID) },
		check: func(v terminal.View) *refusal {
			pre.view = v
			var ref *refusal
			if pre.profile, ref = identifyReady(v); ref != nil {
				return ref
			}
			if strings.Contains(request, "\n") && !v.BracketedPaste {
				return reject(api.ReasonBadText, "a request of several lines needs bracketed paste, which the agent has not enabled")
			}
			return nil
		}})
	return tx, pre, ref
}

// identifyReady is the check on the settled screen, before the probe and
// again before the task.
func identifyReady(v terminal.View) (recognizers.InspectProfile, *refusal) {
	if ref := provenAgent(v); ref != nil {
		return recognizers.InspectProfile{}, ref
	}
	if a, ok := registry.Lookup(v.Ident.Agent); !ok || !a.Traits().Identifies {
		return recognizers.InspectProfile{}, reject(api.ReasonIdentifyUnsupported, "foreground identification is not offered for %s: it names its session exactly", v.Ident.Agent)
	}
	p, ok := recognizers.Inspect(v.Ident.Agent, v.Ident.Version)
	if !ok {
		return p, unprofiled(v, "%s %s has no inspection profile: no recorded screen proves its status", v.Ident.Agent, v.Ident.Version)
	}
	switch {
	case v.Ident.Replica:
		return p, reject(api.ReasonNotAnAgent, "a replica has no native session of its own")
	case v.Rec.Screen != contract.ScreenIdle:
		return p, reject(api.ReasonNotIdle, "the agent is %s, not idle", v.Rec.Screen)
	case v.Rec.Composer != contract.ComposerEmpty:
		return p, reject(api.ReasonComposerNotEmpty, "the composer is %s, not empty", v.Rec.Composer)
	case terminal.NativeBusy(v):
		return p, reject(api.ReasonNotIdle, "the agent's session file shows a turn in progress")
	case v.ActiveTurn != "":
		return p, reject(api.ReasonTurnActive, "turn %s is active on this terminal", v.ActiveTurn)
	case v.Bind.State != contract.IdentityAmbiguous:
		return p, reject(api.ReasonNotAmbiguous, "the terminal's native session is %s, not ambiguous: there is nothing to identify", cmp.Or(v.Bind.State, "unresolved"))
	case len(v.Bind.Candidates) < 2:
		return p, reject(api.ReasonNotAmbiguous, "the ambiguous binding lists %d rollouts", len(v.Bind.Candidates))
	}
	return p, nil
}

// probe runs /status once under a private reservation and reads the
// foreground thread off the card. The result is accepted with the proof
// (a thread no candidate holds says so in its reason), or uncertain.
func (d *Dispatcher) probe(ctx context.Context, tx *txn, pre identifyPre) (api.ActionResult, *api.ForegroundProof) {
	m, v := tx.t, pre.view
	inc := v.Ident.Incarnation()
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: api.OpIdentifyForeground, Controller: ControllerOf(ctx),
		TerminalID: v.ID, Incarnation: inc, BindingGen: v.Bind.Generation, Private: true}
	if ref := tx.reserve(res); ref != nil {
		return privateResult(tx.refused(ref)), nil
	}
	ictx := context.WithoutCancel(ctx)
	status := pre.profile.Status
	seq, err := d.enterCommand(ictx, tx, slashCommand{line: status, proven: func(r terminal.Recognition) bool { return r.Completion == status }})
	if err != nil {
		return privateResult(tx.fail(err.Error(), m.View().Rec.Screen, "")), nil
	}
	fault.Point(FaultIdentifyProbeEnter)
	card := func(r terminal.Recognition) bool {
		return r.Exact && r.Status != nil && r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty
	}
	if shown, ok := m.Await(ictx, seq, stepTimeout, card); !ok {
		return privateResult(tx.fail(fmt.Sprintf("%s: /status showed no status the profile reads (screen %s)", api.ReasonPostcondition, shown.Screen), shown.Screen, "")), nil
	}
	// Read the card once the screen is quiet: the newest card above the
	// composer is this probe's, not an earlier one drawn while the Enter's
	// output was on its way.
	m.AwaitQuiet(ictx, seq, sendQuiet, echoQuietMax)
	now := m.View()
	session := statusField(now.Rec.Status, "Session")
	switch {
	case !card(now.Rec):
		return privateResult(tx.fail(fmt.Sprintf("%s: after /status the agent shows %s/%s, not its status above the idle empty composer",
			api.ReasonPostcondition, now.Rec.Screen, now.Rec.Composer), now.Rec.Screen, "")), nil
	case !IsThreadID(session):
		return privateResult(tx.fail(fmt.Sprintf("%s: the status shows no Session row with a thread id", api.ReasonForegroundUnproven), now.Rec.Screen, "")), nil
	case now.Ident == nil || now.Ident.Incarnation() != inc:
		return privateResult(tx.fail(fmt.Sprintf("%s: the agent's process changed during the probe", api.ReasonProcessChanged), now.Rec.Screen, "")), nil
	}
	proof := &api.ForegroundProof{NativeThreadID: session, Candidates: len(v.Bind.Candidates), TerminalID: v.ID, Incarnation: inc,
		Cwd: v.Ident.Cwd, Agent: v.Ident.Agent, Version: v.Ident.Version, BindingGeneration: v.Bind.Generation,
		ScreenGeneration: now.Seq, ObservedAt: d.cfg.Now()}
	proof.ExpiresAt = proof.ObservedAt.Add(api.ForegroundProofTTL)
	for _, c := range v.Bind.Candidates {
		if c.SessionID == session {
			proof.Candidate, proof.CandidatePath = true, c.Path
		}
	}
	out := privateResult(tx.accept("screen:status", now.Rec.Screen, ""))
	if out.Outcome != api.OutcomeAccepted {
		return out, nil
	}
	out.Foreground = proof
	if !proof.Candidate {
		out.Reason = fmt.Sprintf("%s: /status names thread %s, which none of the %d open rollouts holds (a conversation not written yet, or one akk cannot see)",
			api.ReasonNotCandidate, session, len(v.Bind.Candidates))
	}
	return out, proof
}

// statusField is the value of the status row named name, or "".
func statusField(s *recognizers.StatusPanel, name string) string {
	if s == nil {
		return ""
	}
	for _, f := range s.Fields {
		if f.Name == name && !f.Redacted {
			return f.Value
		}
	}
	return ""
}

// sendIdentified is identify_and_send after a proven probe, under the
// same dispatch lock: the boundary again, every candidate anchored, then
// the ordinary managed send with acceptance among the candidates.
func (d *Dispatcher) sendIdentified(ctx context.Context, held *txn, pre identifyPre, proof *api.ForegroundProof, request string) api.ActionResult {
	op := api.OpIdentifyAndSend
	was := pre.view
	var now terminal.View
	tx, ref := d.follow(ctx, held, txnSpec{op: op, quiet: true, check: func(v terminal.View) *refusal {
		now = v
		if _, ref := identifyReady(v); ref != nil {
			return ref
		}
		return sameBoundary(was, v)
	}})
	if ref != nil {
		probe := api.ActionResult{TerminalID: was.ID, Foreground: proof}
		return stopped(probe, ref.outcome, ref.reason+": "+ref.msg+" (after the probe: nothing of the task was typed)")
	}
	anchors := make([]watchers.Anchor, 0, len(now.Bind.Candidates))
	for _, c := range now.Bind.Candidates {
		a, err := takeAnchor(ctx, evidence.Agent(now.Ident.Agent), c.Path)
		if err != nil {
			probe := api.ActionResult{TerminalID: was.ID, Foreground: proof}
			return stopped(probe, api.OutcomeRejected, fmt.Sprintf("%s: cannot anchor rollout %s before sending: %v", api.ReasonAnchor, c.SessionID, err))
		}
		a.SessionID = c.SessionID
		anchors = append(anchors, a)
	}
	st := sendState{terminalID: now.ID, agent: now.Ident.Agent, version: now.Ident.Version, incarnation: now.Ident.Incarnation(),
		bind: now.Bind, before: now, managed: true}
	st.prove = func(ctx context.Context, turn *store.Turn) (string, string, bool) {
		return d.acceptAmong(ctx, tx, now, proof, anchors, request, turn)
	}
	controller := ControllerOf(ctx)
	turn := store.Turn{ID: d.newID("turn_", "turn"), TerminalID: now.ID, Controller: api.Owner(controller),
		Agent: st.agent, Version: st.version, Incarnation: st.incarnation, Management: "managed", Created: d.cfg.Now()}
	out := withFacts(d.deliver(ctx, tx, st, controller, turn, request, api.EventTurnCreated))
	out.Foreground = proof
	if out.Outcome == api.OutcomeAccepted {
		out.ThreadFacts = &api.ThreadFacts{NativeThreadID: proof.NativeThreadID, NativeIdentityState: contract.IdentityResolved}
		if b := tx.t.View().Bind; b.SessionID == proof.NativeThreadID {
			out.ThreadFacts.BindingGeneration = b.Generation
		}
	}
	d.lg.Info(op, "terminal", now.ID, "outcome", out.Outcome, "candidates", len(anchors), "request_len", utf8.RuneCountInString(request))
	return out
}

// sameBoundary refuses when the pane after the probe is not the one the
// probe was bound to: process, version, cwd, binding and candidates.
func sameBoundary(was, now terminal.View) *refusal {
	switch {
	case now.Ident.Version != was.Ident.Version:
		return reject(api.ReasonVersionChanged, "the agent runs %s, the probe read %s", now.Ident.Version, was.Ident.Version)
	case now.Ident.Incarnation() != was.Ident.Incarnation():
		return reject(api.ReasonProcessChanged, "the agent's process is not the one probed")
	case now.Ident.Cwd != was.Ident.Cwd:
		return reject(api.ReasonCwdChanged, "the agent's working directory moved")
	case now.Bind.Generation != was.Bind.Generation || !sameCandidates(was.Bind.Candidates, now.Bind.Candidates):
		return reject(api.ReasonBoundaryChanged, "the terminal's binding moved on after the probe (generation %d, %d rollouts)",
			now.Bind.Generation, len(now.Bind.Candidates))
	}
	return nil
}

// sameCandidates: the same rollouts, in any order.
func sameCandidates(a, b []terminal.BindingCandidate) bool {
	if len(a) != len(b) {
		return false
	}
	seen := make(map[terminal.BindingCandidate]bool, len(a))
	for _, c := range a {
		seen[c] = true
	}
	for _, c := range b {
		if !seen[c] {
			return false
		}
	}
	return true
}
