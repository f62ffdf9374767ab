package rig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fakeAnthropicKey looks like an API key (Claude Code checks the shape);
// it is accepted only by the fake server.
const fakeAnthropicKey = "sk-ant-api03-fakefakefakefakefakefakefakefakefakefakefakefakefakefake-AAAA"

// Home is the isolated world of one run: HOME, the project directory the
// agent runs in, and a TMPDIR outside both.
type Home struct {
	Root string // everything of the run lives under it
	Home string
	Work string // the agent's cwd (resolved, as pwd -P gives it)
	Tmp  string
}

func newHome(root string) (*Home, error) {
	h := &Home{Root: root, Home: filepath.Join(root, "home"), Work: filepath.Join(root, "home", "project"),
		Tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{h.Work, h.Tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("rig: home: %w", err)
		}
	}
	work, err := filepath.EvalSymlinks(h.Work)
	if err != nil {
		return nil, fmt.Errorf("rig: home: %w", err)
	}
	h.Work = work
	return h, nil
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	return nil
}

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
	if err := writeFile(filepath.Join(h.Home, ".claude.json"), string(b)+"\n"); err != nil {
		return err
	}
	settings := `{"permissions":{"defaultMode":"default"}}`
	if agentMode {
		settings = `{}`
	}
	return writeFile(filepath.Join(h.Home, ".claude", "settings.json"), settings+"\n")
}

// codexEnv is Codex's whole environment.
func codexEnv(h *Home) []string {
	return []string{"HOME=" + h.Home, "CODEX_HOME=" + filepath.Join(h.Home, ".codex"), "TMPDIR=" + h.Tmp,
		"TERM=xterm-256color", "LANG=C.UTF-8", "FAKE_OPENAI_API_KEY=sk-fake-local",
		"PATH=/usr/local/bin:/usr/bin:/bin"}
}

// writeCodexConfig writes $CODEX_HOME/config.toml for the fake provider.
func writeCodexConfig(h *Home, url, model string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "model = %q\n", model)
	b.WriteString(`model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "read-only"
check_for_update_on_startup = false
suppress_unstable_features_warning = true

[model_providers.fake]
name = "Fake"
`)
	fmt.Fprintf(&b, "base_url = %q\n", url+"/v1")
	b.WriteString(`wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[tui]
show_tooltips = false

`)
	fmt.Fprintf(&b, "[projects.%q]\ntrust_level = \"trusted\"\n\n", h.Work)
	b.WriteString("[features]\ndefault_mode_request_user_input = true\n")
	return writeFile(filepath.Join(h.Home, ".codex", "config.toml"), b.String())
}
