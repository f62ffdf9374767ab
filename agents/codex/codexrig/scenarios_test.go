package codexrig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestModels: async-question applies to 0.154.0/0.155.1 with gpt-6-astra
// (and 0.171.0 with its own model); the others run gpt-5.5, gpt-6-sol on
// 0.171.
func TestModels(t *testing.T) {
	s, _ := rig.FindScenario("codex", "async-question")
	if s.Supports("0.153.4") || !s.Supports("0.155.1") || codexModel(s, "0.155.1") != "gpt-6-astra" {
		t.Error("async-question applies to 0.154.0/0.155.1 with gpt-6-astra only")
	}
	idle, _ := rig.FindScenario("codex", "idle")
	if codexModel(idle, "0.171.0") != "gpt-6-sol" || codexModel(idle, "0.155.1") != "gpt-5.5" {
		t.Error("codex models")
	}
}

// configuredHome is a fresh rig home whose config.toml points gpt-5.5 at
// the fake model's url.
func configuredHome(t *testing.T, url string) *rig.Home {
	t.Helper()
	h, err := rig.NewHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := writeCodexConfig(h, url, "gpt-5.5"); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestConfig(t *testing.T) {
	h := configuredHome(t, "http://127.0.0.1:9")
	b, _ := os.ReadFile(filepath.Join(h.Home, ".codex", "config.toml"))
	for _, want := range []string{`model = "gpt-5.5"`, `base_url = "http://127.0.0.1:9/v1"`, `[projects."` + h.Work + `"]`, "request_max_retries = 0"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("config.toml lacks %s:\n%s", want, b)
		}
	}
}
