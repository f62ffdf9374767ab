package recognizers_test

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// TestGenericRelabelled: every recording of an exact version, relabelled
// 9.9.9, is read with the agent's generic profile: the same screen states
// as the markers, a compatibility warning, and no actionable interaction
// (manual_required with unknown_version where the marker has one).
func TestGenericRelabelled(t *testing.T) {
	markers := 0
	for _, f := range screentest.CorpusCasts(t) {
		rec := screentest.LoadCast(t, f.Cast)
		rec.Header.Akk.Version = "9.9.9"
		p := recognizers.Lookup(rec.Header.Akk.Agent, rec.Header.Akk.Version)
		if p.Exact || p.ID() != f.Agent+"@generic" {
			t.Fatalf("%s 9.9.9 got profile %s", f.Agent, p.ID())
		}
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		name := f.Agent + "/" + f.Version + "/" + f.Surface
		known := screenCannotTell[name] + notYetProfiled[name]
		_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
			if s.Marker == nil {
				return nil
			}
			markers++
			got := r.Recognize(s.Screen)
			m := s.Marker
			switch {
			case got.ScreenState != m.State && known > 0:
				t.Logf("%s event %d: state %s, marker %s (a known marker problem of the exact profile too)", f.Cast, s.Index, got.ScreenState, m.State)
			case got.ScreenState != m.State:
				t.Errorf("%s event %d: state %s, marker %s", f.Cast, s.Index, got.ScreenState, m.State)
			case len(got.Warnings) == 0:
				t.Errorf("%s event %d: no compatibility warning", f.Cast, s.Index)
			case got.Actionable() || got.Plan != nil:
				t.Errorf("%s event %d: actionable under the generic profile", f.Cast, s.Index)
			case m.Expect.Kind != nil && (got.Interaction == nil || got.Interaction.State != contract.StateManualRequired ||
				!slices.Contains(got.Interaction.Reasons, recognizers.ReasonUnknownVersion)):
				t.Errorf("%s event %d: interaction %v, want manual_required unknown_version", f.Cast, s.Index, got.Interaction)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d markers read with the generic profiles", markers)
}

// TestLookup: exact versions only; anything else is generic.
func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		agent, version, id string
		exact              bool
	}{
		{"claude", "2.1.267", "claude@2.1.267", true},
		{"claude", "2.1.268", "claude@generic", false},
		{"claude", "2.1.26", "claude@generic", false},
		{"codex", "0.155.1", "codex@0.155.1", true},
		{"codex", "0.155.1-linux-x64", "codex@generic", false},
		{"gemini", "1.0.0", "gemini@generic", false},
		{"opencode", "1.18.33", "opencode@1.18.33", true},
		{"opencode", "1.18.34", "opencode@generic", false},
	} {
		p := recognizers.Lookup(tc.agent, tc.version)
		if p.ID() != tc.id || p.Exact != tc.exact {
			t.Errorf("Lookup(%s, %s) = %s exact %v, want %s %v", tc.agent, tc.version, p.ID(), p.Exact, tc.id, tc.exact)
		}
	}
	var ids []string
	for _, p := range recognizers.Profiles() {
		ids = append(ids, p.ID())
	}
	want := []string{"claude@2.1.263", "claude@2.1.266", "claude@2.1.267", "claude@2.1.332",
		"codex@0.153.4", "codex@0.154.0", "codex@0.155.1", "codex@0.171.0", "gemini@0.61.0", "opencode@1.18.33"}
	if !slices.Equal(ids, want) {
		t.Errorf("Profiles() = %v, want %v", ids, want)
	}
}
