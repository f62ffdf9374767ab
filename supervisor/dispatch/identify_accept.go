package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// acceptAmong proves identify_and_send's request from the rollouts: the
// frozen candidates past their pre-send anchors, together with any rollout
// the process opened since (read from its start). One Acceptor over all of
// them: exactly one record with the request's hash is acceptance; two or
// more, or an anchored file replaced, is uncertain. The accepting rollout
// must be the one /status named, and becomes the binding (adoptAccepted).
func (d *Dispatcher) acceptAmong(ctx context.Context, tx *txn, v terminal.View, proof *api.ForegroundProof, anchors []watchers.Anchor,
	request string, turn *store.Turn) (evidence, reason string, pending bool) {
	fault.Point(FaultIdentifyTaskEnter)
	m := tx.t
	inc := v.Ident.Incarnation()
	within := cmp.Or(d.cfg.AcceptWithin, acceptTimeout)
	deadline := time.Now().Add(within)
	var asked time.Time
	for time.Now().Before(deadline) {
		cur, ch := m.Next()
		anchors = opened(anchors, cur, inc)
		acc, err := watchers.Accept(ctx, request, 0, anchors...)
		if err != nil {
			return "", "read the rollouts: " + err.Error(), false
		}
		switch acc.Verdict {
		case watchers.Accepted:
			return d.adoptAccepted(ctx, tx, v, proof, anchors, acc.Match, turn)
		case watchers.Uncertain:
			return "", "acceptance uncertain: " + acc.Reason, false
		}
		if time.Since(asked) >= time.Second {
			// A rollout the process opened since shows among the
			// binding's candidates once the binder looks again.
			asked = time.Now()
			m.Resolve()
		}
		pause(ctx, ch, acceptInterval)
	}
	return "", fmt.Sprintf("acceptance pending: none of the %d rollouts shows a record of the request yet (%s)", len(anchors), within), true
}

// opened adds to anchors the rollouts the binding in cur lists that none
// of them anchors (the process opened them after the inventory): read
// from their start, any record of the request in them counts.
func opened(anchors []watchers.Anchor, cur terminal.View, inc string) []watchers.Anchor {
	if cur.Ident == nil || cur.Ident.Incarnation() != inc {
		return anchors
	}
	files := append([]terminal.BindingCandidate(nil), cur.Bind.Candidates...)
	if cur.Bind.State == contract.IdentityResolved && cur.Bind.Path != "" {
		files = append(files, terminal.BindingCandidate{SessionID: cur.Bind.SessionID, Path: cur.Bind.Path})
	}
	for _, c := range files {
		known := false
		for _, a := range anchors {
			known = known || a.Path == c.Path
		}
		if !known {
			anchors = append(anchors, watchers.Anchor{Agent: evidence.Agent(cur.Ident.Agent), Path: c.Path, Absent: true, SessionID: c.SessionID})
		}
	}
	return anchors
}

// adoptAccepted makes the rollout that accepted the request the Turn's
// native session and the terminal's binding: the binder resolves to it
// with one generation step (a transition it expects, the other rollouts
// detached at their pre-send size: no candidates again until they grow).
// A rollout other than the /status thread is uncertain.
func (d *Dispatcher) adoptAccepted(ctx context.Context, tx *txn, v terminal.View, proof *api.ForegroundProof, anchors []watchers.Anchor,
	match *evidence.PromptAccepted, turn *store.Turn) (evidence, reason string, pending bool) {
	at := match.At()
	inc := v.Ident.Incarnation()
	var won watchers.Anchor
	var leave []store.BindingDetach
	for _, a := range anchors {
		if a.Path == at.Path {
			won = a
			continue
		}
		leave = append(leave, store.BindingDetach{Incarnation: inc, SessionID: a.SessionID, Path: a.Path, Size: a.Offset})
	}
	if won.Path == "" || won.Absent || won.SessionID != proof.NativeThreadID {
		return "", fmt.Sprintf("%s: the request was taken by rollout %s (thread %s), not by the /status thread %s", api.ReasonAcceptedElsewhere,
			filepath.Base(at.Path), cmp.Or(won.SessionID, "unknown"), proof.NativeThreadID), false
	}
	m := tx.t
	tr := terminal.Transition{Op: api.OpIdentifyAndSend, Receipt: tx.res.ID, Incarnation: inc, From: v.Bind, Target: won.SessionID,
		Since: d.cfg.Now(), Leave: leave}
	d.cfg.Threads.Expect(v.ID, tr)
	// Compare-and-swap, as a transition: the binding is still the one the
	// checks saw now that the binder holds it for this send.
	if now := m.View(); now.Bind.Generation != v.Bind.Generation || now.Ident == nil || now.Ident.Incarnation() != inc {
		d.cfg.Threads.Unexpect(v.ID)
		return "", fmt.Sprintf("%s: the request was accepted by thread %s, but the terminal's binding moved on meanwhile", api.ReasonBindingChanged, won.SessionID), false
	}
	bind, ok := d.awaitBinding(ctx, m, v.Bind.Generation, tr)
	if !ok {
		d.cfg.Threads.Unexpect(v.ID)
		return "", fmt.Sprintf("%s: the request was accepted by thread %s, but the binding did not resolve to it (binding %s)",
			api.ReasonPostcondition, won.SessionID, bind.State), false
	}
	turn.NativeSession, turn.NativePath, turn.BindingGen = won.SessionID, won.Path, bind.Generation
	turn.Anchor, turn.FileDev, turn.FileIno, turn.NativeTurn = won.Offset, at.File.Dev, at.File.Ino, match.TurnID
	turn.SessionID = terminal.SessionID(d.cfg.Secret, v.Ident.Agent, won.SessionID)
	return "transcript:request_hash", "", false
}
