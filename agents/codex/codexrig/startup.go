package codexrig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's startup screens (rig.Steps.Probe).
//
// Not recorded, and why:
//   - Codex 0.155.1 shows no onboarding screen to a logged-in user with a
//     config; 0.171.0's model nudge is startup-model-nudge.

// editCodexConfig rewrites $CODEX_HOME/config.toml with edit applied.
func editCodexConfig(h *rig.Home, edit func(toml string) string) error {
	path := filepath.Join(h.Home, ".codex", "config.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(edit(string(b))), 0o644)
}

// probe waits for any of the anchors, then for the dialog's footer
// (Codex's welcome logo animates: its footer is the anchor; 0.171.0's
// update prompt: "enter continue · esc skip"), and marks the dialog
// blocked, its composer absent.
func (s steps) probe(anchors ...string) {
	s.Probe("absent", func(s *rig.Steps) {
		s.ScreenFunc("the dialog's footer", func(text string) bool {
			return strings.Contains(text, "Press enter to continue") || strings.Contains(text, "enter continue") ||
				strings.Contains(text, "enter/esc confirm")
		})
	}, anchors...)
}

func startupScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out,
		// 0.171.0 asks nothing here: it starts at its composer.
		&rig.Scenario{Name: "startup-trust", Agent: "codex", Script: codexScript, Only: []string{"0.155.1"},
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return env, editCodexConfig(h, func(t string) string {
					i := strings.Index(t, "[projects.")
					j := strings.Index(t, "[features]")
					return t[:i] + t[j:]
				})
			},
			Drive: drive(func(s steps) { s.probe("trust", "Trust") })},
		&rig.Scenario{Name: "startup-login", Agent: "codex", Script: codexScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return rig.WithoutEnv(env, "FAKE_OPENAI_API_KEY"), editCodexConfig(h, func(t string) string {
					return strings.Replace(t, "model_provider = \"fake\"\n", "", 1)
				})
			},
			Drive: drive(func(s steps) { s.probe("Sign in", "sign in", "API key", "ChatGPT") })},
		&rig.Scenario{Name: "startup-update", Agent: "codex", Script: codexScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				v := map[string]any{"latest_version": "9.0.0", "last_checked_at": time.Now().UTC().Format(time.RFC3339), "dismissed_version": nil}
				b, _ := json.Marshal(v)
				if err := os.WriteFile(filepath.Join(h.Home, ".codex", "version.json"), b, 0o644); err != nil {
					return env, err
				}
				return env, editCodexConfig(h, func(t string) string {
					return strings.Replace(t, "check_for_update_on_startup = false", "check_for_update_on_startup = true", 1)
				})
			},
			Drive: drive(func(s steps) { s.probe("Update", "update", "9.0.0") })},
		// 0.171.0 configured with an older model offers its newest at
		// startup ("Meet GPT-6 Sol": Try new model / Use existing model).
		&rig.Scenario{Name: "startup-model-nudge", Agent: "codex", Script: codexScript, Only: []string{"0.171.0"},
			Model: func(string) string { return "gpt-5.5" },
			Drive: drive(func(s steps) { s.probe("Try new model") })},
	)
	return out
}
