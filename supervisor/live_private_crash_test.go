package supervisor

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// privateOp is a native operation whose reservation is private: the
// call, the command it types, and the residue a person leaves first.
type privateOp struct {
	op      string
	command string // what akk types first (its Enter follows only once proven)
	residue string // typed by a person before the call ("" none)
	call    func(ctx context.Context, cl *api.Client, term string) (api.ActionResult, error)
}

var privateOps = map[string]privateOp{
	api.OpNativeInspect: {op: api.OpNativeInspect, command: "/status", call: func(ctx context.Context, cl *api.Client, term string) (api.ActionResult, error) {
		return cl.NativeInspect(ctx, api.NativeInspectRequest{TerminalID: term, Inspection: api.InspectionStatus})
	}},
	api.OpModelOptions: {op: api.OpModelOptions, command: "/model", call: func(ctx context.Context, cl *api.Client, term string) (api.ActionResult, error) {
		return cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: term})
	}},
	api.OpRepairModelControl: {op: api.OpRepairModelControl, residue: "/model", call: func(ctx context.Context, cl *api.Client, term string) (api.ActionResult, error) {
		return cl.RepairModelControl(ctx, api.RepairModelControlRequest{TerminalID: term})
	}},
}

// TestLivePrivateCrash kills the daemon inside the native operations
// whose reservation is private (native_inspect, model_options,
// repair_model_control) on the real agents: after the first input (the
// command typed, its Enter not sent), and before the outcome is written.
// Restarted on the same store, the reservation is uncertain and nothing
// is typed again: a command typed without its Enter stays in the
// composer (a fresh call is refused with zero input; on Codex, "/model"
// is a residue repair_model_control cleans up), and an operation that
// ran to its end left the composer idle and empty, so a fresh call goes
// through.
func TestLivePrivateCrash(t *testing.T) {
	requireFaultHook(t)
	for _, c := range []struct{ agent, version, op string }{
		{"claude", "2.1.267", api.OpNativeInspect}, {"codex", "0.155.1", api.OpNativeInspect},
		{"claude", "2.1.267", api.OpModelOptions}, {"codex", "0.155.1", api.OpModelOptions},
		{"codex", "0.155.1", api.OpRepairModelControl},
	} {
		t.Run(c.agent+"/"+c.op, func(t *testing.T) {
			for _, point := range []string{dispatch.FaultAfterInput, dispatch.FaultBeforeReceipt} {
				t.Run(point, func(t *testing.T) { privateCrashRun(t, c.agent, c.version, privateOps[c.op], point) })
			}
		})
	}
}

func privateCrashRun(t *testing.T, agent, version string, p privateOp, point string) {
	// A person's first prompt binds the conversation (Claude writes its
	// transcript then); then the residue, where the operation needs one.
	lc := startLiveCrash(t, agent, version, point)
	la, roots, c, ctx, row := lc.la, lc.roots, lc.c, lc.ctx, lc.row
	want := p.op
	if p.residue != "" {
		la.srv.MustRun("send-keys", "-t", la.pane, "-l", p.residue)
		want = "repair_model_control"
	}
	c.awaitOffered(t, ctx, row.TerminalID, want)
	if _, err := p.call(ctx, c.cl, row.TerminalID); err == nil {
		t.Fatalf("%s returned: the fault hook did not fire", p.op)
	}
	rs := c.killedOp(t, p.op, point, p.op)
	if len(rs) != 1 || !rs[0].Private {
		t.Fatalf("at kill time %s's reservations are %+v, want one private", p.op, rs)
	}
	d, final := c.restartedUncertain(t, la.srv, p.op, rs, roots)
	defer d.stop()
	typed := point == dispatch.FaultAfterInput && p.command != ""
	l := awaitIdleAfterKill(t, ctx, d, la.pane, typed, true)
	// The command was typed once at most, its Enter at most once: the
	// agent shows what it prints for it at most once.
	screen := string(la.srv.MustRun("capture-pane", "-p", "-S", "-", "-t", la.pane))
	if n := strings.Count(screen, "Kept model as") + strings.Count(screen, "Model changed to"); n > 1 {
		t.Fatalf("the model menu was closed %d times:\n%s", n, screen)
	}
	res, err := p.call(ctx, d.cl, l.TerminalID)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case typed && p.op == api.OpModelOptions && agent == "codex":
		// The bare "/model" left is a residue: repaired, then read.
		if res.Outcome != api.OutcomeRejected {
			t.Fatalf("%s over the typed command: %+v", p.op, res)
		}
		mustAction(t)(d.cl.RepairModelControl(ctx, api.RepairModelControlRequest{TerminalID: l.TerminalID}))
		res = mustAction(t)(p.call(ctx, d.cl, l.TerminalID))
		if res.Outcome != api.OutcomeAccepted {
			t.Fatalf("%s after the repair: %+v", p.op, res)
		}
	case typed && (res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonComposerNotEmpty)):
		t.Fatalf("a fresh %s over the typed command: %+v", p.op, res)
	case p.op == api.OpRepairModelControl && (res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonNoResidue)):
		t.Fatalf("a fresh repair after the composer was emptied: %+v", res)
	case !typed && p.op != api.OpRepairModelControl && res.Outcome != api.OutcomeAccepted:
		t.Fatalf("a fresh %s on the idle empty composer: %+v", p.op, res)
	}
	t.Logf("%s %s %s at %s: after the restart %s; a fresh call %s (%s)", agent, version, p.op, point, final, res.Outcome, res.Reason)
}
