package clauderig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

func TestConfigs(t *testing.T) {
	h, err := rig.NewHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := writeClaudeConfig(h, "2.1.267", false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(h.Home, ".claude.json"))
	if !strings.Contains(string(b), `"hasTrustDialogAccepted": true`) || !strings.Contains(string(b), h.Work) {
		t.Errorf(".claude.json:\n%s", b)
	}
	settings := filepath.Join(h.Home, ".claude", "settings.json")
	if b, _ = os.ReadFile(settings); !strings.Contains(string(b), `"defaultMode":"default"`) {
		t.Errorf("settings.json pins no manual mode: %s", b)
	}
	if err := writeClaudeConfig(h, "2.1.332", true); err != nil {
		t.Fatal(err)
	}
	if b, _ = os.ReadFile(settings); strings.Contains(string(b), "defaultMode") {
		t.Errorf("settings.json of an agent-mode scenario pins a mode: %s", b)
	}
	if s, _ := rig.FindScenario("claude", "idle-auto"); s == nil || !s.AgentMode || s.Supports("2.1.267") || !s.Supports("2.1.332") {
		t.Error("idle-auto: 2.1.332 in its own default mode only")
	}
	for _, kv := range claudeEnv(h, "http://127.0.0.1:9") {
		if strings.HasPrefix(kv, "ANTHROPIC_BASE_URL=") && kv != "ANTHROPIC_BASE_URL=http://127.0.0.1:9" {
			t.Error(kv)
		}
	}
}

// TestReviewMarker: the final review's prompt line: 2.1.26x have it,
// 2.1.332 does not.
func TestReviewMarker(t *testing.T) {
	if claudeReviewMarker("2.1.267").Questions[0].Prompt == "" || claudeReviewMarker("2.1.332").Questions[0].Prompt != "" {
		t.Error("the review's prompt line: 2.1.26x have it, 2.1.332 does not")
	}
}
