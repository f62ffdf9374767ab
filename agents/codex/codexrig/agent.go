package codexrig

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// longCodexModel is a model id longer than any Codex ships with; the
// fake server answers to any model.
const longCodexModel = "gpt-5.5-codex-extended-context-research-preview-2026-11"

func init() {
	rig.Register(rig.Agent{Name: "codex", Package: "@openai/codex", Bin: "codex",
		Serve: fakemodel.Responses,
		World: func(h *rig.Home, sc *rig.Scenario, version, url string) ([]string, error) {
			return codexEnv(h), writeCodexConfig(h, url, codexModel(sc, version))
		},
		Args:        codexArgs,
		JournalGlob: ".codex/sessions/*/*/*/rollout-*.jsonl",
		JournalKind: "rollout",
		Script:      codexScript,
		Environs: []rig.Environ{rig.W60, rig.W80, rig.W200, rig.W250, rig.H15, rig.H50,
			{Suffix: "bg-light", Apply: func(s *rig.Scenario) { s.PaneBG = "#ffffff" }},
			{Suffix: "bg-dark", Apply: func(s *rig.Scenario) { s.PaneBG = "#000000" }},
			rig.Cwd120(".codex/config.toml"),
			{Suffix: "model-long", Apply: codexLongModel},
		},
		Scenarios: scenarios(),
		Core:      []string{"send", "permission-approve", "permission-reject", "question-digit", "question-notes", "question-unanswered"},
	})
}

// scenarios are Codex's scenarios, one table per file (the matrix adds
// its variants).
func scenarios() []*rig.Scenario {
	return slices.Concat(basicScenarios(), toolScenarios(), asyncScenarios(), asyncWorkingScenarios(),
		blockedScenarios(), interruptedScenarios(), quotedScenarios(), secretScenarios(), startupScenarios(),
		submitAllScenarios(), threadScenarios(), userScenarios(), inspectScenarios(), matrixScenarios())
}

// steps is the rig's driver with Codex's own steps (its idle composer,
// its prompt, its tool calls and dialogs, its turn's end).
type steps struct {
	*rig.Steps
	d *rig.Driver
}

// wrap gives the rig's driver Codex's steps.
func wrap(s *rig.Steps) steps { return steps{s, s.Driver()} }

// drive is the Drive of a scenario made of Codex's steps.
func drive(f func(s steps)) func(*rig.Steps) {
	return func(s *rig.Steps) { f(wrap(s)) }
}

// composer is Codex's composer for the rig's step families (the thread
// and blocked scenarios).
var composer = rig.Composer{
	Idle:   func(s *rig.Steps) { wrap(s).idle() },
	Prompt: func(s *rig.Steps, text string) { wrap(s).prompt(text) },
}

// codexModel is the model for a scenario at version: its own, else
// gpt-5.5, or gpt-6-sol on 0.171.
func codexModel(sc *rig.Scenario, version string) string {
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

// codexArgs: --no-daemon where Codex's --help lists it. The help runs in
// a HOME of its own, removed after: Codex writes its helper links under
// $CODEX_HOME/tmp even for --help, and a qualification runs the user's
// own binary, whose HOME it must never touch.
func codexArgs(in rig.Installed) []string {
	home, err := os.MkdirTemp("", "akk-codex-help-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(home)
	cmd := exec.Command(in.Bin, "--help")
	cmd.Env = []string{"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"), "TMPDIR=" + home,
		"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "--no-daemon") {
		return []string{"--no-daemon"}
	}
	return nil
}

// codexEnv is Codex's whole environment.
func codexEnv(h *rig.Home) []string {
	return []string{"HOME=" + h.Home, "CODEX_HOME=" + filepath.Join(h.Home, ".codex"), "TMPDIR=" + h.Tmp,
		"TERM=xterm-256color", "LANG=C.UTF-8", "FAKE_OPENAI_API_KEY=sk-fake-local",
		"PATH=/usr/local/bin:/usr/bin:/bin"}
}

// writeCodexConfig writes $CODEX_HOME/config.toml for the fake provider.
func writeCodexConfig(h *rig.Home, url, model string) error {
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
	return rig.WriteFile(filepath.Join(h.Home, ".codex", "config.toml"), b.String())
}
