package rig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeyBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		app  bool
		want string
	}{
		{"Enter", false, "\r"}, {"Escape", false, "\x1b"}, {"Tab", false, "\t"},
		{"Up", false, "\x1b[A"}, {"Up", true, "\x1bOA"}, {"Down", true, "\x1bOB"},
		{"M-Up", false, "\x1b[1;3A"}, {"C-]", false, "\x1d"}, {"2", false, "2"}, {"y", false, "y"},
	} {
		got, err := keyBytes(tc.name, tc.app)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s (app %v) = %q, %v; want %q", tc.name, tc.app, got, err, tc.want)
		}
	}
	if _, err := keyBytes("Hyper", false); err == nil {
		t.Error("unknown key accepted")
	}
}

func TestScenarios(t *testing.T) {
	for _, agent := range []string{"claude", "codex"} {
		names := ScenarioNames(agent)
		if len(names) < 12 {
			t.Errorf("%s: only %d scenarios", agent, len(names))
		}
		for _, n := range names {
			s, err := FindScenario(agent, n)
			if err != nil || s.Drive == nil || s.Script == nil {
				t.Errorf("%s/%s: %v", agent, n, err)
			}
		}
	}
	if _, err := FindScenario("claude", "nope"); err == nil || !strings.Contains(err.Error(), "idle") {
		t.Errorf("unknown scenario: %v", err)
	}
	s, _ := FindScenario("codex", "async-question")
	if s.Supports("0.153.4") || !s.Supports("0.155.1") || codexModel(s, "0.155.1") != "gpt-6-astra" {
		t.Error("async-question applies to 0.154.0/0.155.1 with gpt-6-astra only")
	}
	idle, _ := FindScenario("codex", "idle")
	if codexModel(idle, "0.171.0") != "gpt-6-sol" || codexModel(idle, "0.155.1") != "gpt-5.5" {
		t.Error("codex models")
	}
}

func TestConfigs(t *testing.T) {
	h, err := newHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := writeCodexConfig(h, "http://127.0.0.1:9", "gpt-5.5"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(h.Home, ".codex", "config.toml"))
	for _, want := range []string{`model = "gpt-5.5"`, `base_url = "http://127.0.0.1:9/v1"`, `[projects."` + h.Work + `"]`, "request_max_retries = 0"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("config.toml lacks %s:\n%s", want, b)
		}
	}
	if err := writeClaudeConfig(h, "2.1.267", false); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(h.Home, ".claude.json"))
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
	if s, _ := FindScenario("claude", "idle-auto"); s == nil || !s.AgentMode || s.Supports("2.1.267") || !s.Supports("2.1.332") {
		t.Error("idle-auto: 2.1.332 in its own default mode only")
	}
	for _, kv := range claudeEnv(h, "http://127.0.0.1:9") {
		if strings.HasPrefix(kv, "ANTHROPIC_BASE_URL=") && kv != "ANTHROPIC_BASE_URL=http://127.0.0.1:9" {
			t.Error(kv)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v, min string
		want   bool
	}{
		{"2.1.332", "2.1.332", true}, {"2.1.333", "2.1.332", true}, {"2.1.267", "2.1.332", false},
		{"2.2.0", "2.1.332", true}, {"0.171.0", "0.171", true}, {"0.155.1", "0.171.0", false},
	} {
		if got := VersionAtLeast(tc.v, tc.min); got != tc.want {
			t.Errorf("VersionAtLeast(%s, %s) = %v", tc.v, tc.min, got)
		}
	}
	if claudeReviewMarker("2.1.267").Questions[0].Prompt == "" || claudeReviewMarker("2.1.332").Questions[0].Prompt != "" {
		t.Error("the review's prompt line: 2.1.26x have it, 2.1.332 does not")
	}
}
