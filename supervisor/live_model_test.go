package supervisor

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// runLiveModel drives the real agent's own /model menu: model_options
// reads the catalog (every model, its efforts) and leaves the composer as
// it was; set_model sets a tuple different from the one in use, proven by
// the agent's notice; the next request to the fake model carries it.
// Refusals type nothing: a second set_model without a fresh catalog, a
// tuple not in it, a draft in the composer. tuple is set as the menu
// names it; the request must name model at effort as the wire does.
func runLiveModel(t *testing.T, agent, version string, tuple api.ModelTuple, model, effort string) (*liveDispatch, *fakemodel.Log, string) {
	ld, row := scriptedOffering(t, agent, version, "model_options", 4*time.Minute)
	la, d, ctx, log := ld.la, ld.d, ld.ctx, ld.la.log
	requests := len(log.Requests())
	start := time.Now()
	res, err := d.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: row.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	cat := res.Catalog
	if cat == nil || len(cat.Models) < 2 || cat.Current.Model == "" || res.ReceiptID != "" {
		t.Fatalf("model_options: %+v", res)
	}
	t.Logf("%s %s: catalog of %d models in %s: %+v", agent, version, len(cat.Models), time.Since(start).Round(time.Millisecond), *cat)
	for _, r := range log.Requests()[requests:] {
		if r.Kind == "main" {
			t.Errorf("a model turn while reading the menu: %s %s", r.Method, r.Path)
		}
	}
	if after := ld.row(); after.ScreenState != contract.ScreenIdle || after.Composer != contract.ComposerEmpty {
		t.Fatalf("after model_options the agent is %s/%s", after.ScreenState, after.Composer)
	}
	// A tuple not in the catalog: refused, and the catalog stays unused
	// only until then (one attempt per catalog).
	if res, err := d.cl.SetModel(ctx, api.SetModelRequest{TerminalID: row.TerminalID, Model: "no-such-model", ReasoningEffort: "high"}); err != nil ||
		res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonModelNotOffered) {
		t.Fatalf("set_model of a model not offered: %+v %v", res, err)
	}
	if res, err := d.cl.SetModel(ctx, api.SetModelRequest{TerminalID: row.TerminalID, Model: tuple.Model, ReasoningEffort: tuple.ReasoningEffort}); err != nil ||
		res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonNoCatalog) {
		t.Fatalf("set_model after the catalog was used: %+v %v", res, err)
	}
	if res, err = d.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: row.TerminalID}); err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	start = time.Now()
	res, err = d.cl.SetModel(ctx, api.SetModelRequest{TerminalID: row.TerminalID, Model: tuple.Model, ReasoningEffort: tuple.ReasoningEffort})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	if res.ModelSet == nil || !strings.EqualFold(res.ModelSet.Model, tuple.Model) || res.ReceiptID == "" {
		t.Fatalf("set_model: %+v", res)
	}
	t.Logf("set_model %+v in %s", *res.ModelSet, time.Since(start).Round(time.Millisecond))
	ld.idle()
	ld.awaitSettled(ld.send("hello after the switch"))
	var got []string
	for _, r := range log.Requests() {
		if r.Kind == "main" && strings.Contains(r.Prompt, "hello after the switch") {
			if m, e := requestModel(r); m == model && e == effort {
				got = nil
				break
			}
			got = append(got, string(r.Body[:min(len(r.Body), 300)]))
		}
	}
	if got != nil {
		t.Fatalf("no request after the switch carries %+v: %q", tuple, got)
	}
	// A draft refuses model_options with nothing typed.
	ld.la.srv.MustRun("send-keys", "-t", la.pane, "-l", "draft")
	awaitRow(t, d.cl, la.pane, 20*time.Second, func(r api.Terminal) string {
		if r.Composer != contract.ComposerDraft {
			return "the draft: " + string(r.Composer)
		}
		return ""
	})
	if res, err := d.cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: row.TerminalID}); err != nil || res.Outcome != api.OutcomeRejected {
		t.Fatalf("model_options over a draft: %+v %v", res, err)
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "C-u")
	return ld, log, row.TerminalID
}

// requestModel is a request's model and effort (Claude output_config,
// Codex reasoning).
func requestModel(r fakemodel.Request) (model, effort string) {
	var b struct {
		Model        string `json:"model"`
		OutputConfig struct {
			Effort string `json:"effort"`
		} `json:"output_config"`
		Reasoning struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
	}
	_ = json.Unmarshal(r.Body, &b)
	return b.Model, b.OutputConfig.Effort + b.Reasoning.Effort
}

func TestLiveClaudeModel(t *testing.T) {
	// In use: Default, High.
	runLiveModel(t, "claude", "2.1.267", api.ModelTuple{Model: "Sonnet", ReasoningEffort: "Medium"}, "claude-sonnet-5", "medium")
}

func TestLiveClaude332Model(t *testing.T) {
	// In use: Default, Medium.
	runLiveModel(t, "claude", "2.1.332", api.ModelTuple{Model: "Sonnet", ReasoningEffort: "High"}, "claude-sonnet-5-5", "high")
}

// TestLiveCodexModel also repairs what a person's abandoned /model left:
// the popup open, then a bare "/model" in the composer.
func TestLiveCodexModel(t *testing.T) {
	// In use: gpt-5.5.
	ld, _, term := runLiveModel(t, "codex", "0.155.1", api.ModelTuple{Model: "gpt-5.6-luna", ReasoningEffort: "High"}, "gpt-5.6-luna", "high")
	ld.idle()
	cl, pane := ld.d.cl, ld.la.pane
	if res, err := cl.RepairModelControl(ld.ctx, api.RepairModelControlRequest{TerminalID: term}); err != nil ||
		res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonNoResidue) {
		t.Fatalf("repair with no residue: %+v %v", res, err)
	}
	advertised := func(name string, screen contract.ScreenState) {
		awaitRow(t, cl, pane, 20*time.Second, func(r api.Terminal) string {
			if _, ok := r.AvailableActions["repair_model_control"]; !ok || r.ScreenState != screen {
				return name + ": repair_model_control not advertised (" + string(r.ScreenState) + "/" + string(r.Composer) + ")"
			}
			return ""
		})
	}
	for _, c := range []struct {
		name  string
		enter bool
	}{{"the popup left open", true}, {"a bare /model", false}} {
		// As a person types: the command, then (once the screen shows it,
		// past Codex's paste window) Enter.
		ld.la.srv.MustRun("send-keys", "-t", pane, "-l", "/model")
		advertised(c.name, contract.ScreenIdle)
		if c.enter {
			ld.la.srv.MustRun("send-keys", "-t", pane, "Enter")
			advertised(c.name, contract.ScreenMenuOrViewer)
		}
		res, err := cl.RepairModelControl(ld.ctx, api.RepairModelControlRequest{TerminalID: term})
		if err != nil || res.Outcome != api.OutcomeAccepted || res.ReceiptID != "" {
			t.Fatalf("repair of %s: %+v %v", c.name, res, err)
		}
		if r := ld.row(); r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
			t.Fatalf("after the repair of %s: %s/%s", c.name, r.ScreenState, r.Composer)
		}
	}
}
