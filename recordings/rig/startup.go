package rig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
)

// Startup screens: what an agent shows before its composer when the
// machine is not set up as the rig's standard home is (an untrusted
// project, no login, a first run, an update waiting), and what it shows
// after a person pressed Esc in a running turn. Each scenario's Setup
// undoes one piece of the standard config; the Drive waits for the
// screen, marks it, and a person's key takes the agent on to its idle
// composer where the agent allows it (the mark before is what akk must
// read: blocked, never actionable).
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
//   - Codex 0.155.1 shows no onboarding screen to a logged-in user with a
//     config; 0.171.0's model nudge is startup-model-nudge.

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

// withoutEnv drops the variables named by prefix (NAME=).
func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// editCodexConfig rewrites $CODEX_HOME/config.toml with edit applied.
func editCodexConfig(h *Home, edit func(toml string) string) error {
	path := filepath.Join(h.Home, ".codex", "config.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(edit(string(b))), 0o644)
}

// probe waits for any of the anchors, lets the screen settle and marks
// it blocked, its composer absent (a dialog).
func (s *sticky) probe(anchors ...string) { s.probeComposer("absent", anchors...) }

// probeComposer is probe with the composer state the screen shows.
func (s *sticky) probeComposer(composer string, anchors ...string) {
	s.screenFunc("one of "+strings.Join(anchors, " | "), func(text string) bool {
		for _, a := range anchors {
			if strings.Contains(text, a) {
				return true
			}
		}
		return false
	})
	if s.d.scenario != nil && s.d.scenario.Agent == "codex" {
		// Codex's welcome logo animates: its footer is the anchor
		// (0.171.0's update prompt: "enter continue · esc skip").
		s.screenFunc("the dialog's footer", func(text string) bool {
			return strings.Contains(text, "Press enter to continue") || strings.Contains(text, "enter continue") ||
				strings.Contains(text, "enter/esc confirm")
		})
	} else {
		s.quiet(time.Second)
	}
	s.markNow("blocked", recordings.MarkerState{Composer: contract.Composer(composer)})
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
			Drive: steps(func(s *sticky) { s.probe("trust", "Trust", "safety") })},
		&Scenario{Name: "startup-login", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return withoutEnv(env, "ANTHROPIC_API_KEY"), editClaudeConfig(h, func(cfg map[string]any) {
					delete(cfg, "customApiKeyResponses")
				})
			},
			// The composer is there: a prompt would get "Please run /login".
			Drive: steps(func(s *sticky) { s.probeComposer("empty", "Not logged in") })},
		&Scenario{Name: "startup-api-key", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) { delete(cfg, "customApiKeyResponses") })
			},
			Drive: steps(func(s *sticky) { s.probe("API key", "api key") })},
		&Scenario{Name: "startup-onboarding", Agent: "claude", Script: claudeScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editClaudeConfig(h, func(cfg map[string]any) {
					cfg["hasCompletedOnboarding"] = false
					delete(cfg, "theme")
				})
			},
			Drive: steps(func(s *sticky) { s.probe("theme", "Theme", "style", "Welcome") })},
		// 0.171.0 asks nothing here: it starts at its composer.
		&Scenario{Name: "startup-trust", Agent: "codex", Script: codexScript, Only: []string{"0.155.1"},
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return env, editCodexConfig(h, func(t string) string {
					i := strings.Index(t, "[projects.")
					j := strings.Index(t, "[features]")
					return t[:i] + t[j:]
				})
			},
			Drive: steps(func(s *sticky) { s.probe("trust", "Trust") })},
		&Scenario{Name: "startup-login", Agent: "codex", Script: codexScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				return withoutEnv(env, "FAKE_OPENAI_API_KEY"), editCodexConfig(h, func(t string) string {
					return strings.Replace(t, "model_provider = \"fake\"\n", "", 1)
				})
			},
			Drive: steps(func(s *sticky) { s.probe("Sign in", "sign in", "API key", "ChatGPT") })},
		&Scenario{Name: "startup-update", Agent: "codex", Script: codexScript,
			Setup: func(h *Home, version, url string, env []string) ([]string, error) {
				v := map[string]any{"latest_version": "9.0.0", "last_checked_at": time.Now().UTC().Format(time.RFC3339), "dismissed_version": nil}
				b, _ := json.Marshal(v)
				if err := os.WriteFile(filepath.Join(h.Home, ".codex", "version.json"), b, 0o644); err != nil {
					return env, err
				}
				return env, editCodexConfig(h, func(t string) string {
					return strings.Replace(t, "check_for_update_on_startup = false", "check_for_update_on_startup = true", 1)
				})
			},
			Drive: steps(func(s *sticky) { s.probe("Update", "update", "9.0.0") })},
		// 0.171.0 configured with an older model offers its newest at
		// startup ("Meet GPT-6 Sol": Try new model / Use existing model).
		&Scenario{Name: "startup-model-nudge", Agent: "codex", Script: codexScript, Only: []string{"0.171.0"},
			Model: func(string) string { return "gpt-5.5" },
			Drive: steps(func(s *sticky) { s.probe("Try new model") })},
	)
}
