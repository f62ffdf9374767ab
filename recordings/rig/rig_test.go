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

func TestConfigs(t *testing.T) {
	h, err := NewHome(t.TempDir())
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
