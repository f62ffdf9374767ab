package dispatch

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// foregroundOf is the thread the status-ambiguous recording's /status
// names: the session_meta of the rollout the rig kept with it (the second
// conversation's), read from the file, not from akk's recognizers.
func foregroundOf(t *testing.T, version string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "codex", version, "status-ambiguous.rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() {
		t.Fatal("empty rollout")
	}
	var meta struct {
		Payload struct {
			SessionID string `json:"session_id"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(sc.Bytes(), &meta); err != nil || !IsThreadID(meta.Payload.SessionID) {
		t.Fatalf("session_meta: %v %q", err, meta.Payload.SessionID)
	}
	return meta.Payload.SessionID
}

// ambiguousFixture is the status-ambiguous recording at its idle, empty
// composer before /status, the binding ambiguous between two rollouts
// (the rig's: a prompt, /new, a prompt again), one of which is others[0].
func ambiguousFixture(t *testing.T, version string, others ...string) *threadFixture {
	t.Helper()
	x := newThreadFixture(t, "codex", version, version, "status-ambiguous", 3, idFirst)
	x.f.edit(func(v *terminal.View) {
		v.Bind = terminal.Binding{Generation: 4, State: contract.IdentityAmbiguous, Reason: "2 rollouts open"}
		for _, id := range others {
			v.Bind.Candidates = append(v.Bind.Candidates, terminal.BindingCandidate{SessionID: id, Path: "/files/" + id + ".jsonl"})
		}
	})
	return x
}

// TestIdentifyForeground runs identify_foreground on the recorded
// status-ambiguous surface: exactly the recorded /status and Enter, the
// card's Session row as the proof's thread, matched against the
// binding's candidates; a private reservation (no events, no receipt
// id), no Turn, the binding unchanged.
func TestIdentifyForeground(t *testing.T) {
	for _, version := range []string{"0.155.1", "0.171.0"} {
		fg := foregroundOf(t, version)
		for _, c := range []struct {
			name       string
			candidates []string
			candidate  bool
		}{
			{name: "names a candidate", candidates: []string{idFirst, fg}, candidate: true},
			{name: "names none of them", candidates: []string{idFirst, idOther}},
		} {
			t.Run(version+" "+c.name, func(t *testing.T) {
				x := ambiguousFixture(t, version, c.candidates...)
				v := x.f.View()
				acts := terminal.Actions(v)
				if _, ok := acts["identify_foreground"]; !ok {
					t.Fatalf("identify_foreground not advertised: %v", acts)
				}
				if _, ok := acts["identify_and_send"]; !ok {
					t.Fatalf("identify_and_send not advertised: %v", acts)
				}
				start := time.Now()
				res, err := x.d.IdentifyForeground(api.WithController(context.Background(), person), api.IdentifyForegroundRequest{TerminalID: v.ID})
				if err != nil {
					t.Fatal(err)
				}
				p := res.Foreground
				if res.Outcome != api.OutcomeAccepted || p == nil || res.ReceiptID != "" || res.TurnID != "" {
					t.Fatalf("identify_foreground: %+v", res)
				}
				if p.NativeThreadID != fg || p.Candidate != c.candidate || p.Candidates != 2 || p.TerminalID != v.ID ||
					p.Incarnation != v.Ident.Incarnation() || p.Version != version || p.BindingGeneration != 4 ||
					p.ExpiresAt.Sub(p.ObservedAt) != api.ForegroundProofTTL || p.ObservedAt.Before(start) {
					t.Errorf("proof %+v (foreground %s)", p, fg)
				}
				if c.candidate != (p.CandidatePath == "/files/"+fg+".jsonl") {
					t.Errorf("candidate path %q", p.CandidatePath)
				}
				if got := strings.HasPrefix(res.Reason, api.ReasonNotCandidate); got == c.candidate {
					t.Errorf("reason %q", res.Reason)
				}
				checkProbeOnly(t, x, v.ID)
				if b := x.f.View().Bind; b.State != contract.IdentityAmbiguous || b.Generation != 4 || len(x.threads.expected) != 0 {
					t.Errorf("the probe moved the binding: %+v, expected %v", b, x.threads.expected)
				}
			})
		}
	}
}

// checkProbeOnly: exactly the recorded /status and Enter went in, under
// one private reservation now done, with no dispatch events and no Turn.
func checkProbeOnly(t *testing.T, x *threadFixture, terminalID string) {
	t.Helper()
	x.f.mu.Lock()
	inputs, diverged := x.f.inputs, x.f.diverged
	x.f.mu.Unlock()
	rs := reservationsOf(t, x.st, terminalID)
	if inputs != 2 || len(diverged) > 0 || len(rs) != 1 || !rs[0].Private || rs[0].Stage != store.StageDone || rs[0].Op != api.OpIdentifyForeground {
		t.Errorf("%d inputs, %q besides, reservations %+v", inputs, diverged, rs)
	}
	evs, err := x.st.Events(0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Type == api.EventDispatchReserved || e.Type == api.EventDispatchReceipt || e.Type == api.EventTurnCreated {
			t.Errorf("the probe wrote a %s event", e.Type)
		}
	}
	if ts, err := x.st.Turns(); err != nil || len(ts) != 0 {
		t.Errorf("turns %+v %v", ts, err)
	}
}

// TestIdentifyAndSendStops: identify_and_send stops after the probe with
// no task input, never to be retried, when the probe names no candidate
// or the pane moved on before the task (the version, the candidates);
// an unproven probe is uncertain.
func TestIdentifyAndSendStops(t *testing.T) {
	fg := foregroundOf(t, "0.155.1")
	for _, c := range []struct {
		name       string
		candidates []string
		onBarrier  func(v *terminal.View) // at the look before the task
		frozen     bool
		outcome    string
		reason     string
	}{
		{name: "names no candidate", candidates: []string{idFirst, idOther}, outcome: api.OutcomeManual, reason: api.ReasonNotCandidate},
		{name: "the version changed", candidates: []string{idFirst, fg}, outcome: api.OutcomeRejected, reason: api.ReasonVersionChanged,
			onBarrier: func(v *terminal.View) { v.Ident.Version = "0.171.0" }},
		{name: "the candidates changed", candidates: []string{idFirst, fg}, outcome: api.OutcomeRejected, reason: api.ReasonBoundaryChanged,
			onBarrier: func(v *terminal.View) {
				v.Bind.Candidates = append(v.Bind.Candidates, terminal.BindingCandidate{SessionID: idOther, Path: "/files/other.jsonl"})
			}},
		{name: "the probe unproven", candidates: []string{idFirst, fg}, frozen: true, outcome: api.OutcomeUncertain, reason: api.ReasonPostcondition},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := ambiguousFixture(t, "0.155.1", c.candidates...)
			x.f.frozen = c.frozen
			if c.onBarrier != nil {
				// Looks: the checks' settle, the probe's barrier before its
				// Enter, then the recheck before the task.
				x.f.onBarrier = func(n int, v *terminal.View) {
					if n == 3 {
						c.onBarrier(v)
					}
				}
			}
			v := x.f.View()
			res, err := x.d.IdentifyAndSend(api.WithController(context.Background(), person),
				api.IdentifyAndSendRequest{TerminalID: v.ID, Request: "hello there"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || !strings.HasPrefix(res.Reason, c.reason) || !res.DoNotRetry || res.TurnID != "" || res.Op != api.OpIdentifyAndSend {
				t.Fatalf("identify_and_send: %s (%s) do_not_retry %v, want %s (%s)", res.Outcome, res.Reason, res.DoNotRetry, c.outcome, c.reason)
			}
			if c.frozen {
				x.f.mu.Lock()
				defer x.f.mu.Unlock()
				if x.f.inputs != 1 || res.Foreground != nil {
					t.Errorf("an unproven probe: %d inputs, proof %+v", x.f.inputs, res.Foreground)
				}
				return
			}
			if res.Foreground == nil || res.Foreground.NativeThreadID != fg {
				t.Errorf("proof %+v", res.Foreground)
			}
			checkProbeOnly(t, x, v.ID)
		})
	}
}

// TestIdentifyRefusals: zero input and no reservation where the pane
// does not allow a probe, and no identification advertised there.
func TestIdentifyRefusals(t *testing.T) {
	fg := foregroundOf(t, "0.155.1")
	for _, c := range []struct {
		name   string
		fix    func(t *testing.T) *threadFixture
		reason string
	}{
		{name: "not codex", reason: api.ReasonIdentifyUnsupported, fix: func(t *testing.T) *threadFixture {
			x := newThreadFixture(t, "claude", "2.1.267", "2.1.267", "status", 0, idFirst)
			x.f.edit(func(v *terminal.View) {
				v.Bind.State, v.Bind.SessionID, v.Bind.Path = contract.IdentityAmbiguous, "", ""
			})
			return x
		}},
		{name: "no inspection profile", reason: api.ReasonUnknownVersion, fix: func(t *testing.T) *threadFixture {
			x := newThreadFixture(t, "codex", "0.155.1", "9.9.9", "status-ambiguous", 3, idFirst)
			x.f.edit(func(v *terminal.View) {
				v.Bind = terminal.Binding{Generation: 4, State: contract.IdentityAmbiguous,
					Candidates: []terminal.BindingCandidate{{SessionID: idFirst}, {SessionID: fg}}}
			})
			return x
		}},
		{name: "a resolved binding", reason: api.ReasonNotAmbiguous, fix: func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "codex", "0.155.1", "0.155.1", "status-ambiguous", 3, idFirst)
		}},
		{name: "a draft", reason: api.ReasonComposerNotEmpty, fix: func(t *testing.T) *threadFixture {
			x := ambiguousFixture(t, "0.155.1", idFirst, fg)
			if err := x.f.toMarker(0); err != nil { // "/status" typed by a person
				t.Fatal(err)
			}
			return x
		}},
		{name: "an active turn", reason: api.ReasonTurnActive, fix: func(t *testing.T) *threadFixture {
			x := ambiguousFixture(t, "0.155.1", idFirst, fg)
			x.putTurn(t, "managed")
			return x
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := c.fix(t)
			v := x.f.View()
			if _, ok := terminal.Actions(v)["identify_foreground"]; ok && c.reason != api.ReasonTurnActive {
				t.Errorf("identify_foreground advertised on %s/%s, binding %s", v.Rec.Screen, v.Rec.Composer, v.Bind.State)
			}
			ctx := api.WithController(context.Background(), person)
			a, err := x.d.IdentifyForeground(ctx, api.IdentifyForegroundRequest{TerminalID: v.ID})
			if err != nil {
				t.Fatal(err)
			}
			b, err := x.d.IdentifyAndSend(ctx, api.IdentifyAndSendRequest{TerminalID: v.ID, Request: "hello there"})
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range []api.ActionResult{a, b} {
				if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, c.reason) || res.Foreground != nil {
					t.Errorf("%s: %s (%s), want rejected (%s)", res.Op, res.Outcome, res.Reason, c.reason)
				}
			}
			x.sentNothing(t)
		})
	}
}
