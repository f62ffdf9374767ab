package dispatch

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// The user-explicit send (seed 003 "Managed Turn Flow", mode
// terminal_user_explicit): a person's own send to the terminal they
// chose. A working agent or a draft in the composer does not refuse it;
// a dialog, questionnaire, editor, menu or viewer does (zero input), and
// so does a draft whose shape the profile cannot prove it clears whole,
// or keybindings that change the keys akk presses. The transaction is
// the managed one with one step before the text:
//
//	reserve -> the profile's clear key once -> an empty composer proven
//	-> the text -> the paste window -> exactly one Enter (nothing seen
//	after the text vetoes it) -> submitted proven -> acceptance
//
// Codex clears with C-u (from the line start to the cursor: one line,
// the cursor at its end, is the only shape it empties whole); Claude Code
// stashes with C-s (any draft; it puts the draft back by itself after the
// submit, which the result reports as restored). With a resolved native
// session file the send is a managed Turn; without one, managed
// preparation has failed before input, and the same single physical send
// is made and followed by a Watch (seed 003: notify-only until the
// agent's own evidence accepts it).

// Keymaps says whether an agent's own keybindings change the keys the
// user-explicit send presses (Claude Code's keybindings.json, Codex's
// [tui.keymap]): a non-empty answer is why, and refuses the send.
type Keymaps interface {
	Remapped(agent string) (why string, err error)
}

// userSendReady checks, on a view right after the settle, that a
// user-explicit send may go in. It sends nothing.
func (d *Dispatcher) userSendReady(v terminal.View, req api.SendRequest) (sendState, *refusal) {
	st := sendState{terminalID: v.ID, before: v, bind: v.Bind}
	r := v.Rec
	if ref := provenAgent(v); ref != nil {
		return st, ref
	}
	switch {
	case r.Interaction != nil && !terminal.CollapsedAsync(r):
		return st, reject(api.ReasonInputOwned, "the agent shows a %s: it owns the input (answer it, or approve, first)", r.Interaction.Kind)
	case r.Screen != contract.ScreenIdle && r.Screen != contract.ScreenWorking:
		return st, reject(api.ReasonInputOwned, "the agent's screen is %s, not its main composer", r.Screen)
	case r.Composer == contract.ComposerDraft && r.Clear == nil:
		return st, reject(api.ReasonDraftShape, "the composer's draft cannot be cleared exactly (%s)", draftShapeWhy(v.Ident.Agent, r))
	case r.Composer != contract.ComposerEmpty && r.Composer != contract.ComposerDraft:
		return st, reject(api.ReasonComposerNotEmpty, "the composer is %s", r.Composer)
	}
	if strings.Contains(req.Request, "\n") && !v.BracketedPaste {
		return st, reject(api.ReasonBadText, "a request of several lines needs bracketed paste, which the agent has not enabled")
	}
	if d.cfg.Keymaps != nil {
		why, err := d.cfg.Keymaps.Remapped(v.Ident.Agent)
		if err != nil {
			return st, reject(api.ReasonKeysRemapped, "the agent's keybindings cannot be read: %v", err)
		}
		if why != "" {
			return st, reject(api.ReasonKeysRemapped, "%s", why)
		}
	}
	if r.Composer == contract.ComposerDraft {
		st.clear = r.Clear
	}
	st.agent, st.version, st.replica, st.incarnation = v.Ident.Agent, v.Ident.Version, v.Ident.Replica, v.Ident.Incarnation()
	// A replica has no file by design (its proof is the screen); an
	// agent's send is managed with its resolved native session file, or
	// when it verifiably has none yet (the first prompt makes it, and the
	// binder finds it: the managed send's own path).
	switch contract.Identity(v.Bind.State) {
	case contract.IdentityResolved:
		st.managed = v.Bind.Path != ""
	case contract.IdentityVerifiedAbsent:
		st.managed = true
	}
	st.managed = st.managed || st.replica
	return st, nil
}

// draftShapeWhy says what the profile could not prove of the draft.
func draftShapeWhy(agent string, r terminal.Recognition) string {
	if a, ok := registry.Lookup(agent); ok && a.Traits().Stashes {
		if r.Stashed {
			return "a stashed draft is waiting: another ctrl+s would replace it"
		}
		return "the composer is not one the profile reads whole"
	}
	return "the native clear is proven only for a one-line draft with the cursor at its end"
}

// physicalSend is the one physical send of request after the
// reservation: the profile's clear when a draft was found, the text, the
// paste window, exactly one Enter, and the screen's proof that it was
// submitted. A non-empty why means the input may have landed unproven
// (uncertain: never sent again).
func physicalSend(ctx context.Context, tx *txn, pre sendState, request string) (terminal.Recognition, *api.SendFacts, string) {
	m := tx.t
	facts := &api.SendFacts{}
	base := pre.before.Seq
	if c := pre.clear; c != nil {
		if err := tx.keys(ctx, c.Keys); err != nil {
			return terminal.Recognition{}, nil, "clear the draft: " + err.Error()
		}
		rec, ok := m.Await(ctx, base, submitTimeout, func(r terminal.Recognition) bool {
			return r.Exact && r.Interaction == nil && r.Composer == contract.ComposerEmpty && (!c.Stash || r.Stashed) &&
				(r.Screen == contract.ScreenIdle || r.Screen == contract.ScreenWorking)
		})
		if !ok {
			return rec, nil, fmt.Sprintf("%s: the draft's clear key was sent, but no empty composer was proven after it (screen %s, composer %s); "+
				"nothing more was typed", api.ReasonPostcondition, rec.Screen, rec.Composer)
		}
		facts.ClearedDraft = true
		base = m.View().Seq
	}
	if err := tx.text(ctx, request); err != nil {
		return terminal.Recognition{}, nil, "type the request: " + err.Error()
	}
	m.AwaitQuiet(ctx, base, sendQuiet, echoQuietMax)
	typed := m.View()
	if err := tx.keys(ctx, []byte("\r")); err != nil {
		return terminal.Recognition{}, nil, "press Enter: " + err.Error()
	}
	// Submitted: the request left the composer (empty, or, for Claude
	// Code, another draft there: it puts a stashed draft back the moment
	// a prompt is submitted), or an idle agent started. A working agent
	// was working before Enter: only its composer says. Codex's composer
	// never puts a draft back: a changed Codex draft is an Enter taken as
	// a newline.
	restored := func(r terminal.Recognition) bool {
		return stashes(pre.agent) && r.Composer == contract.ComposerDraft && r.DraftSum != typed.Rec.DraftSum
	}
	// An agent that was not working (idle, or stopped on a resumable
	// block such as Claude's "Interrupted") shows the submit by moving
	// to a state of its own: working, or the dialog its reply opened at
	// once, which may replace the composer before any pass saw it empty
	// (Claude Code answering from its interrupted state with a question).
	// Idle or blocked again, or a screen akk cannot read, proves nothing.
	wasStopped := pre.before.Rec.Screen == contract.ScreenIdle || pre.before.Rec.Screen == contract.ScreenBlocked
	moved := func(r terminal.Recognition) bool {
		return r.Screen != contract.ScreenIdle && r.Screen != contract.ScreenBlocked && r.Screen != contract.ScreenUnknown
	}
	rec, ok := m.Await(ctx, typed.Seq, submitTimeout, func(r terminal.Recognition) bool {
		return wasStopped && moved(r) || r.Composer == contract.ComposerEmpty || restored(r)
	})
	if !ok {
		return rec, nil, fmt.Sprintf("%s: the request was typed and Enter pressed, but the composer never emptied (screen %s)", api.ReasonPostcondition, rec.Screen)
	}
	facts.DraftRestored = restored(rec)
	return rec, facts, ""
}

// sendUnmanaged is a user-explicit send with no native session file to
// prove it from: reserved like any send, the same physical send, then a
// Watch of the terminal (best effort: a Watch that cannot be made is
// reported and changes nothing of the send, which is never made again).
func (d *Dispatcher) sendUnmanaged(ctx context.Context, tx *txn, pre sendState, controller string, req api.SendRequest) api.ActionResult {
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: tx.op, Controller: controller, TerminalID: pre.terminalID,
		TextLen: len([]rune(req.Request)), Incarnation: pre.incarnation, BindingGen: pre.bind.Generation}
	if ref := tx.reserve(res); ref != nil {
		return tx.refused(ref)
	}
	ictx := context.WithoutCancel(ctx)
	rec, facts, why := physicalSend(ictx, tx, pre, req.Request)
	if why != "" {
		return tx.fail(why, rec.Screen, "")
	}
	out := tx.submitted("screen:submitted; no native session file: the agent's acceptance is not proven", rec.Screen)
	if out.Outcome != api.OutcomePending {
		return out
	}
	facts.TerminalInputDispatched, facts.AgentAcceptance, facts.ManagementMode = true, api.AcceptancePending, "unmanaged"
	id, mode, err := d.cfg.Turns.WatchSent(ictx, pre.terminalID, controller)
	if err != nil {
		out.Reason = "sent once; no Watch follows it: " + err.Error()
	} else {
		facts.WatchID, facts.ObservationMode = id, mode
		facts.Capabilities = []string{api.ToolStatus, api.ToolWatch}
	}
	out.SendFacts = facts
	d.lg.Info(tx.op, "terminal", pre.terminalID, "mode", api.SendUserExplicit, "request_len", res.TextLen, "watch", facts.WatchID)
	return out
}

// stashes reports whether agent puts a stashed draft back at a submit
// (Traits.Stashes).
func stashes(agent string) bool {
	a, ok := registry.Lookup(agent)
	return ok && a.Traits().Stashes
}
