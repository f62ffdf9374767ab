package dispatch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// modelCall is one model control call on a fixture.
type modelCall func(d *Dispatcher, ctx context.Context, id string) (api.ActionResult, error)

func callOptions(d *Dispatcher, ctx context.Context, id string) (api.ActionResult, error) {
	return d.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: id})
}

func callRepair(d *Dispatcher, ctx context.Context, id string) (api.ActionResult, error) {
	return d.RepairModelControl(ctx, api.RepairModelControlRequest{TerminalID: id})
}

func callSet(model, effort string) modelCall {
	return func(d *Dispatcher, ctx context.Context, id string) (api.ActionResult, error) {
		return d.SetModel(ctx, api.SetModelRequest{TerminalID: id, Model: model, ReasoningEffort: effort})
	}
}

// offerCatalog gives the person a catalog of the fixture's terminal as
// model_options would have left it.
func offerCatalog(x *threadFixture, incarnation string) {
	v := x.f.View()
	now := time.Now()
	x.d.models.put(person, v.ID, modelOffer{
		cat: api.ModelCatalog{Models: []api.ModelOption{
			{Model: "gpt-5.5", Current: true, Efforts: []string{"Low", "Medium"}},
			{Model: "gpt-5.6-luna", Efforts: []string{"Low", "Medium", "High"}}},
			Current: api.ModelTuple{Model: "gpt-5.5", ReasoningEffort: "Medium"}, ExpiresAt: now.Add(time.Minute)},
		rows:        []recognizers.ModelRow{{Number: 1, Label: "gpt-5.5"}, {Number: 2, Label: "gpt-5.6-luna"}},
		incarnation: incarnation, generation: v.Bind.Generation}, now)
}

// TestModelControlRefusals: what model control refuses types nothing and
// writes no reservation.
func TestModelControlRefusals(t *testing.T) {
	idle := func(t *testing.T) *threadFixture {
		return newThreadFixture(t, "codex", "0.155.1", "0.155.1", "model-menu", 0, idFirst)
	}
	// offered: idle, with a catalog offered to its process.
	offered := func(t *testing.T) *threadFixture {
		x := idle(t)
		offerCatalog(x, x.f.View().Ident.Incarnation())
		return x
	}
	for _, c := range []struct {
		name   string
		fix    func(t *testing.T) *threadFixture
		call   modelCall
		reason string
	}{
		{"options over a draft", func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "codex", "0.155.1", "0.155.1", "model-abandon", 3, idFirst) // "/model" left
		}, callOptions, api.ReasonComposerNotEmpty},
		{"options over /statusline highlighted", func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "claude", "2.1.267", "2.1.267", "status-completion", 2, idFirst)
		}, callOptions, api.ReasonComposerNotEmpty},
		{"options with an active turn", func(t *testing.T) *threadFixture {
			x := idle(t)
			x.putTurn(t, "managed")
			return x
		}, callOptions, api.ReasonTurnActive},
		{"options on a version shown as another", func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "codex", "0.155.1", "9.9.9", "model-menu", 0, idFirst)
		}, callOptions, api.ReasonUnknownVersion},
		{"options on a version whose list is not read the whole way", func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "codex", "0.171.0", "0.171.0", "model-menu", 0, idFirst)
		}, callOptions, api.ReasonUnknownVersion},
		{"set without a catalog", idle, callSet("gpt-5.6-luna", "High"), api.ReasonNoCatalog},
		{"set a model not offered", offered, callSet("gpt-6-astra", "High"), api.ReasonModelNotOffered},
		{"set an effort not offered", offered, callSet("gpt-5.5", "High"), api.ReasonModelNotOffered},
		{"set the tuple in use", offered, callSet("gpt-5.5", "Medium"), api.ReasonAlreadyCurrent},
		{"set after the agent restarted", func(t *testing.T) *threadFixture {
			x := idle(t)
			offerCatalog(x, "another process")
			return x
		}, callSet("gpt-5.6-luna", "High"), api.ReasonBindingChanged},
		{"repair with no residue", idle, callRepair, api.ReasonNoResidue},
		{"repair on Claude", func(t *testing.T) *threadFixture {
			return newThreadFixture(t, "claude", "2.1.267", "2.1.267", "model-menu", 2, idFirst) // its picker open
		}, callRepair, api.ReasonUnknownVersion},
		{"repair with a turn", func(t *testing.T) *threadFixture {
			x := newThreadFixture(t, "codex", "0.155.1", "0.155.1", "model-abandon", 6, idFirst)
			x.f.edit(func(v *terminal.View) { v.ActiveTurn = "turn_x" })
			return x
		}, callRepair, api.ReasonTurnActive},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := c.fix(t)
			v := x.f.View()
			res, err := c.call(x.d, api.WithController(context.Background(), person), v.ID)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, c.reason) || res.Catalog != nil || res.ModelSet != nil {
				t.Fatalf("%s: %s (%s), want rejected (%s)", res.Op, res.Outcome, res.Reason, c.reason)
			}
			x.sentNothing(t)
		})
	}
}

// TestRepairModelControl: each recorded residue is cleaned up with
// exactly the recorded keys (model-abandon: C-u, Esc, Esc Esc), never
// Enter, and advertised where it shows; a private reservation.
func TestRepairModelControl(t *testing.T) {
	for _, c := range []struct {
		name   string
		marker int
		inputs int
	}{
		{"a bare /model over its completion row", 0, 1},
		{"a bare /model over the status line", 3, 1},
		{"the model popup", 6, 1},
		{"the effort popup", 10, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := newThreadFixture(t, "codex", "0.155.1", "0.155.1", "model-abandon", c.marker, idFirst)
			v := x.f.View()
			if _, ok := terminal.Actions(v)["repair_model_control"]; !ok {
				t.Errorf("repair_model_control not advertised on %s/%s", v.Rec.Screen, v.Rec.Composer)
			}
			if _, ok := terminal.Actions(v)["model_options"]; ok {
				t.Errorf("model_options advertised on a residue")
			}
			res, err := callRepair(x.d, api.WithController(context.Background(), person), v.ID)
			if err != nil {
				t.Fatal(err)
			}
			x.f.mu.Lock()
			inputs, diverged := x.f.inputs, x.f.diverged
			x.f.mu.Unlock()
			rs := reservationsOf(t, x.st, v.ID)
			if res.Outcome != api.OutcomeAccepted || res.ReceiptID != "" || inputs != c.inputs || len(diverged) > 0 ||
				len(rs) != 1 || !rs[0].Private || rs[0].Stage != store.StageDone {
				t.Fatalf("repair: %s (%s), %d inputs (want %d), %q besides, reservations %+v", res.Outcome, res.Reason, inputs, c.inputs, diverged, rs)
			}
			if now := x.f.View().Rec; now.Screen != contract.ScreenIdle || now.Composer != contract.ComposerEmpty {
				t.Errorf("after the repair: %s/%s", now.Screen, now.Composer)
			}
		})
	}
}
