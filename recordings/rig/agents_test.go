package rig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/rig"

	_ "github.com/agent-knock-knock/akk/agents/claude/clauderig"
	_ "github.com/agent-knock-knock/akk/agents/codex/codexrig"
)

// TestScenarios: the agents' folders register their scenarios, each with
// a drive and a script, and an unknown scenario's error lists them.
func TestScenarios(t *testing.T) {
	for _, agent := range []string{"claude", "codex"} {
		names := rig.ScenarioNames(agent)
		if len(names) < 12 {
			t.Errorf("%s: only %d scenarios", agent, len(names))
		}
		for _, n := range names {
			s, err := rig.FindScenario(agent, n)
			if err != nil || s.Drive == nil || s.Script == nil {
				t.Errorf("%s/%s: %v", agent, n, err)
			}
		}
	}
	if _, err := rig.FindScenario("claude", "nope"); err == nil || !strings.Contains(err.Error(), "idle") {
		t.Errorf("unknown scenario: %v", err)
	}
	if !slices.Contains(rig.ScenarioNames("codex"), "draft-bwrap") || slices.Contains(rig.ScenarioNames("claude"), "draft-bwrap") {
		t.Error("draft-bwrap must be Codex's only")
	}
}
