package rig

import (
	"slices"
	"testing"
)

// TestDraftBwrap: draft-bwrap is the draft with the bundled bubblewrap
// first on PATH, in the pane's standard size.
func TestDraftBwrap(t *testing.T) {
	s, err := FindScenario("codex", "draft-bwrap")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := FindScenario("codex", "draft")
	if s.Setup == nil || s.Drive == nil || s.Script == nil {
		t.Fatalf("draft-bwrap: Setup, Drive and Script must be set: %+v", s)
	}
	if w, h := s.size(); w != 120 || h != 40 {
		t.Fatalf("draft-bwrap is %dx%d, want 120x40", w, h)
	}
	if s == base || base.Name != "draft" || base.Setup != nil {
		t.Fatalf("the draft scenario changed: %+v", base)
	}
	if !slices.Contains(ScenarioNames("codex"), "draft-bwrap") || slices.Contains(ScenarioNames("claude"), "draft-bwrap") {
		t.Fatal("draft-bwrap must be Codex's only")
	}
}
