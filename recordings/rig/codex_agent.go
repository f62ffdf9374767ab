package rig

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// longCodexModel is a model id longer than any Codex ships with; the
// fake server answers to any model.
const longCodexModel = "gpt-5.5-codex-extended-context-research-preview-2026-11"

func init() {
	Register(Agent{Name: "codex", Package: "@openai/codex", Bin: "codex",
		Serve: fakemodel.Responses,
		World: func(h *Home, sc *Scenario, version, url string) ([]string, error) {
			return codexEnv(h), writeCodexConfig(h, url, codexModel(sc, version))
		},
		Args:        codexArgs,
		JournalGlob: ".codex/sessions/*/*/*/rollout-*.jsonl",
		Script:      codexScript,
		Environs: []Environ{W60, W80, W200, W250, H15, H50,
			{"bg-light", func(s *Scenario) { s.PaneBG = "#ffffff" }},
			{"bg-dark", func(s *Scenario) { s.PaneBG = "#000000" }},
			Cwd120(".codex/config.toml"),
			{"model-long", codexLongModel},
		},
	})
}

// codexModel is the model for a scenario at version: its own, else
// gpt-5.5, or gpt-6-sol on 0.171.
func codexModel(sc *Scenario, version string) string {
	if sc.Model != nil {
		if m := sc.Model(version); m != "" {
			return m
		}
	}
	if strings.HasPrefix(version, "0.171.") {
		return "gpt-6-sol"
	}
	return "gpt-5.5"
}

// codexArgs: --no-daemon where Codex's --help lists it.
func codexArgs(in Installed) []string {
	out, _ := exec.Command(in.Bin, "--help").CombinedOutput()
	if strings.Contains(string(out), "--no-daemon") {
		return []string{"--no-daemon"}
	}
	return nil
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
	return WriteFile(filepath.Join(h.Home, ".codex", "config.toml"), b.String())
}
