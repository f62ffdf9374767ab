package supervisor

import (
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// runLiveInspect reads the real agent's own status through native_inspect:
// the fields parsed from its panel (version, session, model among them),
// nothing else typed, the composer back as it was, no Turn; a draft in
// the composer refuses it with zero input.
func runLiveInspect(t *testing.T, agent, version string) {
	ld, row := scriptedOffering(t, agent, version, "native_inspect", 3*time.Minute)
	la, d, ctx, log := ld.la, ld.d, ld.ctx, ld.la.log
	requests := len(log.Requests())
	start := time.Now()
	res, err := d.cl.NativeInspect(ctx, api.NativeInspectRequest{TerminalID: row.TerminalID, Inspection: api.InspectionStatus})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	took := time.Since(start)
	if res.Status == nil || res.ReceiptID != "" || res.TurnID != "" {
		t.Fatalf("native_inspect: %+v", res)
	}
	fields := map[string]api.StatusField{}
	for _, f := range res.Status.Fields {
		fields[f.Name] = f
	}
	bind := ld.binding()
	t.Logf("%s %s: %d fields in %s: %+v", agent, version, len(res.Status.Fields), took.Round(time.Millisecond), res.Status.Fields)
	after := ld.row()
	if after.ScreenState != contract.ScreenIdle || after.Composer != contract.ComposerEmpty {
		t.Fatalf("after the inspection the agent is %s/%s", after.ScreenState, after.Composer)
	}
	// No model turn (what /statusline would start); a title request for
	// the earlier prompt may land meanwhile (Codex titles its thread
	// after the first turn, on its own time).
	for _, r := range log.Requests()[requests:] {
		if r.Kind == "main" {
			t.Errorf("a model turn during the inspection: %s %s prompt=%q", r.Method, r.Path, r.Prompt)
		}
	}
	switch agent {
	case "claude":
		if fields["Version"].Value != version || fields["Session ID"].Value != bind.SessionID || fields["Model"].Value == "" ||
			fields["cwd"].Value != la.work ||
			!fields["Organization policy"].Redacted || fields["Organization policy"].Value != "" {
			t.Errorf("fields %+v (binding %s)", res.Status.Fields, bind.SessionID)
		}
	case "codex":
		if fields["Session"].Value != bind.SessionID || fields["Model"].Value == "" || fields["Model provider"].Value != "fake" {
			t.Errorf("fields %+v (binding %s)", res.Status.Fields, bind.SessionID)
		}
	}
	// A draft refuses it with nothing typed.
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", "draft")
	awaitRow(t, d.cl, la.pane, 20*time.Second, func(r api.Terminal) string {
		if r.Composer != contract.ComposerDraft {
			return "the draft: " + string(r.Composer)
		}
		return ""
	})
	if res, err := d.cl.NativeInspect(ctx, api.NativeInspectRequest{TerminalID: row.TerminalID, Inspection: api.InspectionStatus}); err != nil ||
		res.Outcome != api.OutcomeRejected {
		t.Fatalf("native_inspect over a draft: %+v %v", res, err)
	}
}

func TestLiveClaudeInspect(t *testing.T) { runLiveInspect(t, "claude", "2.1.267") }

// TestLiveClaudeInspectInAWorkingDirectoryTooLongForOneRow: the test's
// long name makes its temporary HOME, and so the project's path, longer
// than the panel's row: Claude breaks the cwd where the row ends, and
// akk reads it whole (status-cwd120).
func TestLiveClaudeInspectInAWorkingDirectoryTooLongForOneRow(t *testing.T) {
	runLiveInspect(t, "claude", "2.1.267")
}
func TestLiveClaude332Inspect(t *testing.T) { runLiveInspect(t, "claude", "2.1.332") }
func TestLiveCodexInspect(t *testing.T)     { runLiveInspect(t, "codex", "0.155.1") }
func TestLiveCodex171Inspect(t *testing.T)  { runLiveInspect(t, "codex", "0.171.0") }
