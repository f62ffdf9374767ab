package dispatch

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestNativeInspect runs native_inspect against the recorded status
// surfaces: accepted with exactly the recorded inputs (/status, Enter,
// and Claude's Esc), the panel's fields parsed, the same composer after,
// a private reservation (no receipt id, no dispatch events); refused with
// zero input where the screen does not allow it; uncertain with no Enter
// where the typed command cannot be proven.
func TestNativeInspect(t *testing.T) {
	for _, c := range []struct {
		name                  string
		agent, version, shown string
		rec                   string
		marker                int
		outcome, reason       string
		inputs                int
		want                  map[string]string // fields that must read so
		frozen                bool              // the pane takes input, its screen never moves on
	}{
		{name: "claude 2.1.267", agent: "claude", version: "2.1.267", rec: "status", marker: 0, outcome: api.OutcomeAccepted, inputs: 3,
			want: map[string]string{"Version": "2.1.267", "Session kind": "interactive", "Model": "Default (claude-opus-5[1m])"}},
		{name: "claude 2.1.332", agent: "claude", version: "2.1.332", rec: "status", marker: 0, outcome: api.OutcomeAccepted, inputs: 3,
			want: map[string]string{"Version": "2.1.332", "Model": "Default (claude-opus-5-5)"}},
		{name: "codex 0.155.1", agent: "codex", version: "0.155.1", rec: "status", marker: -1, outcome: api.OutcomeAccepted, inputs: 2,
			want: map[string]string{"Model provider": "fake", "Directory": "~/project", "Model": "gpt-5.5 (reasoning medium, summaries auto)"}},
		{name: "codex 0.171.0", agent: "codex", version: "0.171.0", rec: "status", marker: -1, outcome: api.OutcomeAccepted, inputs: 2,
			want: map[string]string{"Model provider": "fake", "Directory": "~/project"}},
		{name: "codex: /statusline highlighted", agent: "codex", version: "0.155.1", rec: "status-completion", marker: 1,
			outcome: api.OutcomeRejected, reason: api.ReasonComposerNotEmpty},
		{name: "the typed command never shows (no Enter)", agent: "claude", version: "2.1.267", rec: "status", marker: 0, frozen: true,
			outcome: api.OutcomeUncertain, reason: api.ReasonPostcondition, inputs: 1},
		// A person left /status in the composer with /statusline highlighted.
		{name: "/statusline highlighted", agent: "claude", version: "2.1.267", rec: "status-completion", marker: 2,
			outcome: api.OutcomeRejected, reason: api.ReasonComposerNotEmpty},
		{name: "an unknown version", agent: "claude", version: "2.1.267", shown: "9.9.9", rec: "status", marker: 0,
			outcome: api.OutcomeRejected, reason: api.ReasonUnknownVersion},
		{name: "an exact profile without an inspection", agent: "claude", version: "2.1.263", rec: "send", marker: -1,
			outcome: api.OutcomeRejected, reason: api.ReasonUnknownVersion},
	} {
		t.Run(c.name, func(t *testing.T) {
			shown := c.version
			if c.shown != "" {
				shown = c.shown
			}
			x := newThreadFixture(t, c.agent, c.version, shown, c.rec, c.marker, idFirst)
			x.f.frozen = c.frozen
			v := x.f.View()
			if _, ok := terminal.Actions(v)["native_inspect"]; ok != (c.outcome != api.OutcomeRejected) {
				t.Errorf("native_inspect advertised %v on %s/%s", ok, v.Rec.Screen, v.Rec.Composer)
			}
			res, err := x.d.NativeInspect(api.WithController(context.Background(), person),
				api.NativeInspectRequest{TerminalID: v.ID, Inspection: api.InspectionStatus})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || !strings.HasPrefix(res.Reason, c.reason) {
				t.Fatalf("native_inspect: %s (%s), want %s (%s)", res.Outcome, res.Reason, c.outcome, c.reason)
			}
			x.f.mu.Lock()
			sent, inputs, diverged := x.f.sent, x.f.inputs, x.f.diverged
			x.f.mu.Unlock()
			rs := reservationsOf(t, x.st, v.ID)
			evs, err := x.st.Events(0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if e.Type == api.EventDispatchReserved || e.Type == api.EventDispatchReceipt {
					t.Errorf("an inspection wrote a %s event", e.Type)
				}
			}
			if res.ReceiptID != "" {
				t.Errorf("an inspection returned a receipt id")
			}
			switch res.Outcome {
			case api.OutcomeAccepted:
				if inputs != c.inputs || len(diverged) > 0 || len(rs) != 1 || rs[0].Stage != store.StageDone || !rs[0].Private {
					t.Errorf("accepted with %d inputs (want %d), %q besides, reservations %+v", inputs, c.inputs, diverged, rs)
				}
				got := map[string]string{}
				for _, f := range res.Status.Fields {
					got[f.Name] = f.Value
				}
				for k, want := range c.want {
					if got[k] != want {
						t.Errorf("field %s = %q, want %q (all: %+v)", k, got[k], want, res.Status.Fields)
					}
				}
			case api.OutcomeUncertain:
				if inputs != c.inputs || !res.DoNotRetry || len(rs) != 1 || rs[0].Stage != store.StageUncertain || res.Status != nil {
					t.Errorf("uncertain: %d inputs (want %d), do_not_retry %v, reservations %+v", inputs, c.inputs, res.DoNotRetry, rs)
				}
			default:
				if sent != 0 || len(rs) != 0 {
					t.Errorf("a refusal typed %d bytes, reservations %+v", sent, rs)
				}
			}
		})
	}
}
