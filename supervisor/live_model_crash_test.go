package supervisor

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestLiveModelCrash kills the daemon (the fault hook's SIGKILL) inside
// set_model on the real agents, after a model_options by the same
// daemon: with the menu open (after /model's Enter), and right after the
// set key (Claude's "s", Codex's Enter on the effort) before its proof.
// Restarted on the same store, the daemon settles the reservation
// uncertain and types nothing: the menu or the confirmation stays as the
// kill left it (Codex's repair_model_control cleans it up; a Claude
// menu refuses model_options until a person closes it), and the agent's
// notice shows at most once: the set key went at most once.
func TestLiveModelCrash(t *testing.T) {
	eachAgentCrash(t, dispatch.ModelFaultPoints, modelCrashRun)
}

// modelCrashTargets are the tuples set, different from the one in use.
var modelCrashTargets = map[string]api.ModelTuple{
	"claude": {Model: "Sonnet", ReasoningEffort: "Medium"},
	"codex":  {Model: "gpt-5.6-luna", ReasoningEffort: "High"},
}

func modelCrashRun(t *testing.T, agent, version, point string) {
	// A person's first prompt (Claude then asks before a switch), the
	// conversation bound, model_options offered.
	lc := startLiveCrash(t, agent, version, point)
	la, roots, c, ctx, row := lc.la, lc.roots, lc.c, lc.ctx, lc.row
	c.awaitOffered(t, ctx, row.TerminalID, "model_options")
	opts := mustAction(t)(c.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: row.TerminalID}))
	if opts.Outcome != api.OutcomeAccepted || opts.Catalog == nil {
		t.Fatalf("model_options: %+v", opts)
	}
	before := opts.Catalog.Current
	target := modelCrashTargets[agent]
	if _, err := c.cl.SetModel(ctx, api.SetModelRequest{TerminalID: row.TerminalID, Model: target.Model, ReasoningEffort: target.ReasoningEffort}); err == nil {
		t.Fatalf("set_model returned: the fault hook did not fire")
	}
	open := modelKilled(t, c, point)
	d, final := c.restartedUncertain(t, la.srv, "set_model", []store.Reservation{open}, roots)
	defer d.stop()
	set := point == dispatch.FaultModelSet
	// The restarted daemon types nothing: what the kill left stays.
	l := awaitRowFor(t, ctx, d, la.pane, func(r api.Terminal) string {
		switch {
		case r.Profile != "exact":
			return "an exact profile, not " + r.Profile
		case (!set || agent == "claude") && r.ScreenState != contract.ScreenMenuOrViewer:
			return "the menu or confirmation left open, not " + string(r.ScreenState)
		case set && agent == "codex" && (r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty):
			return "idle and empty after the set: " + string(r.ScreenState) + "/" + string(r.Composer)
		}
		return ""
	})
	screen := string(la.srv.MustRun("capture-pane", "-p", "-S", "-", "-t", la.pane))
	notices := strings.Count(screen, "Model changed to") + strings.Count(screen, "Set model to")
	if want := map[bool]int{true: 1, false: 0}[set && agent == "codex"]; notices != want {
		t.Fatalf("the agent's notice shows %d times, want %d:\n%s", notices, want, screen)
	}
	res := mustAction(t)(d.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: l.TerminalID}))
	if (agent == "claude" || !set) && res.Outcome != api.OutcomeRejected {
		t.Fatalf("model_options over what the kill left: %+v", res)
	}
	switch {
	case agent == "codex" && !set:
		// The popup the kill left: repaired, then the model is the one before.
		if _, ok := l.AvailableActions["repair_model_control"]; !ok {
			t.Fatalf("repair_model_control not advertised over the popup: %+v", l.AvailableActions)
		}
		if res := mustAction(t)(d.cl.RepairModelControl(ctx, api.RepairModelControlRequest{TerminalID: l.TerminalID})); res.Outcome != api.OutcomeAccepted {
			t.Fatalf("repair: %+v", res)
		}
		res = mustAction(t)(d.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: l.TerminalID}))
		if res.Catalog == nil || res.Catalog.Current.Model != before.Model {
			t.Fatalf("after the repair the model is %+v, want %+v unchanged", res.Catalog, before)
		}
	case agent == "codex":
		if res.Catalog == nil || !strings.EqualFold(res.Catalog.Current.Model, target.Model) {
			t.Fatalf("after the kill the model is %+v, want %s (set once, by the killed daemon)", res.Catalog, target.Model)
		}
	}
	t.Logf("%s %s at %s: reservation %s after the restart; %d notice(s); model_options then %s (%s)", agent, version, point, final, notices, res.Outcome, res.Reason)
}

// modelKilled waits for the child to die at point and returns set_model's
// reservation as the kill left it: open, its input sent.
func modelKilled(t *testing.T, c *crashChild, point string) store.Reservation {
	t.Helper()
	rs := c.atKill(t, "set_model", point)
	var open []store.Reservation
	for _, r := range rs {
		if r.Op == api.OpSetModel {
			open = append(open, r)
		}
	}
	if len(open) != 1 || open[0].Stage != store.StageInputSent || open[0].Private {
		t.Fatalf("at kill time set_model's reservations are %+v", open)
	}
	return open[0]
}
