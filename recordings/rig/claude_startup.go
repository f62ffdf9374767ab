package rig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// Claude Code's startup screens (startup.go).
//
// Not recorded, and why:
//   - Claude Code has no update dialog. Its binaries (2.1.267, 2.1.332)
//     show a waiting update as a line of the idle footer ("Update
//     available! Run: claude update", " (auto-update failed)"), or exit
//     when a minimum version is required ("... or higher is required. Run
//     `claude update` to update."); the check asks the npm registry or
//     Anthropic's servers, which offline runs cannot answer, and the rig
//     turns the updater off. An idle composer with that footer line is not
//     a recorded shape: akk reads it as unknown (zero input), never idle.

// editClaudeConfig rewrites ~/.claude.json with edit applied.
func editClaudeConfig(h *Home, edit func(cfg map[string]any)) error {
	path := filepath.Join(h.Home, ".claude.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		return err
	}
	edit(cfg)
	out, _ := json.MarshalIndent(cfg, "", "  ")
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

// claudeProbe waits for any of the anchors, lets the screen settle (one
// still second) and marks it blocked with the composer it shows.
func (s *Steps) claudeProbe(composer string, anchors ...string) {
	s.Probe(composer, func(s *Steps) { s.Quiet(time.Second) }, anchors...)
}

func init() {
	register(
		&Scenario{Name: "startup-trust", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) {
					p := cfg["projects"].(map[string]any)[h.Work].(map[string]any)
					p["hasTrustDialogAccepted"] = false
				})
			},
			Drive: func(s *Steps) { s.claudeProbe("absent", "trust", "Trust", "safety") }},
		&Scenario{Name: "startup-login", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return WithoutEnv(env, "ANTHROPIC_API_KEY"), editClaudeConfig(h, func(cfg map[string]any) {
					delete(cfg, "customApiKeyResponses")
				})
			},
			// The composer is there: a prompt would get "Please run /login".
			Drive: func(s *Steps) { s.claudeProbe("empty", "Not logged in") }},
		&Scenario{Name: "startup-api-key", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) { delete(cfg, "customApiKeyResponses") })
			},
			Drive: func(s *Steps) { s.claudeProbe("absent", "API key", "api key") }},
		&Scenario{Name: "startup-onboarding", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) {
					cfg["hasCompletedOnboarding"] = false
					delete(cfg, "theme")
				})
			},
			Drive: func(s *Steps) { s.claudeProbe("absent", "theme", "Theme", "style", "Welcome") }},
	)
}
