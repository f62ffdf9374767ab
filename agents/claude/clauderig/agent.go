package clauderig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// longClaudeModel is a model id longer than any Claude Code ships with;
// the fake server answers to any model.
const longClaudeModel = "claude-opus-5-20261101-extended-context-preview"

func init() {
	rig.Register(rig.Agent{Name: "claude", Package: "@anthropic-ai/claude-code", Bin: "claude",
		Serve: fakemodel.Anthropic,
		World: func(h *rig.Home, sc *rig.Scenario, version, url string) ([]string, error) {
			return claudeEnv(h, url), writeClaudeConfig(h, version, sc.AgentMode)
		},
		JournalGlob: ".claude/projects/*/*.jsonl",
		JournalKind: "transcript",
		Script:      claudeScript,
		Environs: []rig.Environ{rig.W60, rig.W80, rig.W200, rig.W250, rig.H15, rig.H50,
			claudeThemeLight, {Suffix: "theme-dark-daltonized", Apply: claudeTheme("dark-daltonized")}, claudeThemeLightANSI,
			rig.Cwd120(".claude.json"),
			{Suffix: "model-long", Apply: rig.WithSetup(func(h *rig.Home, env []string) ([]string, error) {
				return append(env, "ANTHROPIC_MODEL="+longClaudeModel), nil
			})},
		},
		Scenarios: scenarios(),
		Core:      []string{"send", "permission-approve", "permission-reject", "question-digit", "type-something", "several-questions"},
		UserTheme: userTheme,
	})
}

// scenarios are Claude Code's scenarios, one table per file (the matrix
// adds its variants).
func scenarios() []*rig.Scenario {
	return slices.Concat(basicScenarios(), questionScenarios(), autoModeScenarios(), toolScenarios(),
		blockedScenarios(), interruptedScenarios(), quotedScenarios(), secretScenarios(), startupScenarios(),
		threadScenarios(), userScenarios(), usageLimitScenarios(), inspectScenarios())
}

// steps is the rig's driver with Claude Code's own steps (its idle
// composer, its prompt, its tool calls and dialogs, its turn's end).
type steps struct {
	*rig.Steps
	d *rig.Driver
}

// wrap gives the rig's driver Claude Code's steps.
func wrap(s *rig.Steps) steps { return steps{s, s.Driver()} }

// drive is the Drive of a scenario made of Claude Code's steps.
func drive(f func(s steps)) func(*rig.Steps) {
	return func(s *rig.Steps) { f(wrap(s)) }
}

// composer is Claude Code's composer for the rig's step families (the
// thread and blocked scenarios).
var composer = rig.Composer{
	Idle:   func(s *rig.Steps) { wrap(s).idle() },
	Prompt: func(s *rig.Steps, text string) { wrap(s).prompt(text) },
}

// Claude Code's light themes, which restyle its questions too.
var (
	claudeThemeLight     = rig.Environ{Suffix: "theme-light", Apply: claudeTheme("light")}
	claudeThemeLightANSI = rig.Environ{Suffix: "theme-light-ansi", Apply: claudeTheme("light-ansi")}
)

// userTheme reads the theme the user chose: ~/.claude.json's "theme",
// nothing else of the file. "dark", the rig's own, needs no change.
func userTheme(home string) (rig.Environ, bool) {
	b, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil {
		return rig.Environ{}, false
	}
	var cfg struct {
		Theme string `json:"theme"`
	}
	if json.Unmarshal(b, &cfg) != nil || cfg.Theme == "" || cfg.Theme == "dark" || !themeName.MatchString(cfg.Theme) {
		return rig.Environ{}, false
	}
	return rig.Environ{Suffix: "theme-" + cfg.Theme, Apply: claudeTheme(cfg.Theme)}, true
}

// themeName: a theme is a short lower-case name ("light-daltonized").
var themeName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// claudeTheme sets ~/.claude.json's theme.
func claudeTheme(theme string) func(s *rig.Scenario) {
	return rig.WithSetup(func(h *rig.Home, env []string) ([]string, error) {
		return env, editClaudeConfig(h, func(cfg map[string]any) { cfg["theme"] = theme })
	})
}

// fakeAnthropicKey looks like an API key (Claude Code checks the shape);
// it is accepted only by the fake server.
const fakeAnthropicKey = "sk-ant-api03-fakefakefakefakefakefakefakefakefakefakefakefakefakefake-AAAA"

// claudeEnv is Claude Code's whole environment (it runs under env -i).
func claudeEnv(h *rig.Home, url string) []string {
	return []string{"HOME=" + h.Home, "TMPDIR=" + h.Tmp, "TERM=xterm-256color", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin", "ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=" + fakeAnthropicKey,
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
}

// writeClaudeConfig writes ~/.claude.json and ~/.claude/settings.json so
// that no onboarding, trust or update screen appears. The permission mode
// is pinned to "default" (manual: Bash asks) unless agentMode, which
// leaves the version's own default.
func writeClaudeConfig(h *rig.Home, version string, agentMode bool) error {
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
	if err := rig.WriteFile(filepath.Join(h.Home, ".claude.json"), string(b)+"\n"); err != nil {
		return err
	}
	settings := `{"permissions":{"defaultMode":"default"}}`
	if agentMode {
		settings = `{}`
	}
	return rig.WriteFile(filepath.Join(h.Home, ".claude", "settings.json"), settings+"\n")
}
