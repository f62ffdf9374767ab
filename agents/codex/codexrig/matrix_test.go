package codexrig

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestDraftBwrap: draft-bwrap is the draft with the bundled bubblewrap
// first on PATH, in the pane's standard size.
func TestDraftBwrap(t *testing.T) {
	s, err := rig.FindScenario("codex", "draft-bwrap")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := rig.FindScenario("codex", "draft")
	if s.Setup == nil || s.Drive == nil || s.Script == nil {
		t.Fatalf("draft-bwrap: Setup, Drive and Script must be set: %+v", s)
	}
	if w, h := s.Size(); w != 120 || h != 40 {
		t.Fatalf("draft-bwrap is %dx%d, want 120x40", w, h)
	}
	if s == base || base.Name != "draft" || base.Setup != nil {
		t.Fatalf("the draft scenario changed: %+v", base)
	}
	if !slices.Contains(rig.ScenarioNames("codex"), "draft-bwrap") {
		t.Fatal("draft-bwrap must be Codex's (recordings/rig's TestScenarios: Codex's only)")
	}
}

// TestFallbackTools: under the long model id, Codex 0.171.0's run-ls is
// a call of the exec_command function (Codex offers no code mode to a
// model it has no metadata for), and the drive waits for that tool; the
// standard permission-approve keeps code mode's exec.
func TestFallbackTools(t *testing.T) {
	long, err := rig.FindScenario("codex", "permission-approve-model-long")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := rig.FindScenario("codex", "permission-approve")
	const v = "0.171.0"
	if !long.FallbackTools || base.FallbackTools {
		t.Fatalf("FallbackTools: long %v, base %v", long.FallbackTools, base.FallbackTools)
	}
	if m := codexModel(long, v); m != longCodexModel {
		t.Fatalf("model %q, want %q", m, longCodexModel)
	}
	runLs := func(s *rig.Scenario) (string, bool) {
		for _, k := range s.Script(v).Keywords {
			if k.Word == "run-ls" && k.Reply.Tool != nil {
				return k.Reply.Tool.Name, k.Reply.Tool.Custom
			}
		}
		t.Fatalf("%s: no run-ls tool call", s.Name)
		return "", false
	}
	if name, custom := runLs(long); name != "exec_command" || custom {
		t.Fatalf("long model's run-ls calls %s (custom %v), want the exec_command function", name, custom)
	}
	if name, custom := runLs(base); name != "exec" || !custom {
		t.Fatalf("standard run-ls calls %s (custom %v), want code mode's freeform exec", name, custom)
	}
	for s, want := range map[*rig.Scenario]string{long: "exec_command", base: "exec"} {
		if got := codexShellTool(v, s); got != want {
			t.Errorf("%s: the drive waits for %s, want %s", s.Name, got, want)
		}
	}
}
