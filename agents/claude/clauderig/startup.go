package clauderig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's startup screens (rig.Steps.Probe).
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
func editClaudeConfig(h *rig.Home, edit func(cfg map[string]any)) error {
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

// probe waits for any of the anchors, lets the screen settle (one
// still second) and marks it blocked with the composer it shows.
func (s steps) probe(composer string, anchors ...string) {
	s.Probe(composer, func(s *rig.Steps) { s.Quiet(time.Second) }, anchors...)
}

func startupScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out,
		&rig.Scenario{Name: "startup-trust", Agent: "claude", Script: claudeScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) {
					p := cfg["projects"].(map[string]any)[h.Work].(map[string]any)
					p["hasTrustDialogAccepted"] = false
				})
			},
			Drive: drive(func(s steps) { s.probe("absent", "trust", "Trust", "safety") })},
		&rig.Scenario{Name: "startup-login", Agent: "claude", Script: claudeScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return rig.WithoutEnv(env, "ANTHROPIC_API_KEY"), editClaudeConfig(h, func(cfg map[string]any) {
					delete(cfg, "customApiKeyResponses")
				})
			},
			// The composer is there: a prompt would get "Please run /login".
			Drive: drive(func(s steps) { s.probe("empty", "Not logged in") })},
		&rig.Scenario{Name: "startup-api-key", Agent: "claude", Script: claudeScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) { delete(cfg, "customApiKeyResponses") })
			},
			Drive: drive(func(s steps) { s.probe("absent", "API key", "api key") })},
		&rig.Scenario{Name: "startup-onboarding", Agent: "claude", Script: claudeScript,
			Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) {
					cfg["hasCompletedOnboarding"] = false
					delete(cfg, "theme")
				})
			},
			Drive: drive(func(s steps) { s.probe("absent", "theme", "Theme", "style", "Welcome") })},
	)
	return out
}
