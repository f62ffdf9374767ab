package rig

import (
	"encoding/json"
	"path/filepath"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// longClaudeModel is a model id longer than any Claude Code ships with;
// the fake server answers to any model.
const longClaudeModel = "claude-opus-5-20261101-extended-context-preview"

func init() {
	Register(Agent{Name: "claude", Package: "@anthropic-ai/claude-code", Bin: "claude",
		Serve: fakemodel.Anthropic,
		World: func(h *Home, sc *Scenario, version, url string) ([]string, error) {
			return claudeEnv(h, url), writeClaudeConfig(h, version, sc.AgentMode)
		},
		JournalGlob: ".claude/projects/*/*.jsonl",
		Script:      claudeScript,
		Environs: []Environ{W60, W80, W200, W250, H15, H50,
			claudeThemeLight, {"theme-dark-daltonized", claudeTheme("dark-daltonized")}, claudeThemeLightANSI,
			Cwd120(".claude.json"),
			{"model-long", WithSetup(func(h *Home, env []string) ([]string, error) {
				return append(env, "ANTHROPIC_MODEL="+longClaudeModel), nil
			})},
		},
	})
}

// Claude Code's light themes, which restyle its questions too.
var (
	claudeThemeLight     = Environ{"theme-light", claudeTheme("light")}
	claudeThemeLightANSI = Environ{"theme-light-ansi", claudeTheme("light-ansi")}
)

// claudeTheme sets ~/.claude.json's theme.
func claudeTheme(theme string) func(s *Scenario) {
	return WithSetup(func(h *Home, env []string) ([]string, error) {
		return env, editClaudeConfig(h, func(cfg map[string]any) { cfg["theme"] = theme })
	})
}

// fakeAnthropicKey looks like an API key (Claude Code checks the shape);
// it is accepted only by the fake server.
const fakeAnthropicKey = "sk-ant-api03-fakefakefakefakefakefakefakefakefakefakefakefakefakefake-AAAA"

// claudeEnv is Claude Code's whole environment (it runs under env -i).
func claudeEnv(h *Home, url string) []string {
	return []string{"HOME=" + h.Home, "TMPDIR=" + h.Tmp, "TERM=xterm-256color", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin", "ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=" + fakeAnthropicKey,
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
}

// writeClaudeConfig writes ~/.claude.json and ~/.claude/settings.json so
// that no onboarding, trust or update screen appears. The permission mode
// is pinned to "default" (manual: Bash asks) unless agentMode, which
// leaves the version's own default.
func writeClaudeConfig(h *Home, version string, agentMode bool) error {
	cfg := map[string]any{
		"numStartups": 5, "installMethod": "npm", "autoUpdates": false,
		"hasCompletedOnboarding": true, "lastOnboardingVersion": version, "lastReleaseNotesSeen": version,
		"theme": "dark", "hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses": map[string]any{"approved": []string{fakeAnthropicKey[len(fakeAnthropicKey)-20:]}, "rejected": []string{}},
		"projects": map[string]any{h.Work: map[string]any{
			"allowedTools": []string{}, "hasTrustDialogAccepted": true,
			"hasCompletedProjectOnboarding": true, "projectOnboardingSeenCount": 1}},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := WriteFile(filepath.Join(h.Home, ".claude.json"), string(b)+"\n"); err != nil {
		return err
	}
	settings := `{"permissions":{"defaultMode":"default"}}`
	if agentMode {
		settings = `{}`
	}
	return WriteFile(filepath.Join(h.Home, ".claude", "settings.json"), settings+"\n")
}
