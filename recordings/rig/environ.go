package rig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The environment matrix (issue "every dialog the agents really show"):
// the idle, draft and permission-approve scenarios of each agent again in
// the environments users have and the rig's standard one is not: other
// pane sizes, Claude Code's other themes, Codex on a light or a dark
// background, a long working directory, a long model name. Each variant
// is its base scenario with one axis changed, named <base>-<axis>.

// environ is one axis value: a name suffix and the change it makes.
type environ struct {
	suffix string
	agents []string // the agents it applies to
	apply  func(s *Scenario)
}

// longCwd is the project directory of the -cwd120 variants: 120
// characters under HOME, so the agents print a long path in their
// headers and status rows.
var longCwd = filepath.Join("projects", "client-work", "acme-corporation", "backend-services",
	"payments-reconciliation-service", "src", "internal", "adapters")

// longClaudeModel and longCodexModel are model ids longer than any the
// agents ship with; the fake servers answer to any model.
const (
	longClaudeModel = "claude-opus-5-20261101-extended-context-preview"
	longCodexModel  = "gpt-5.5-codex-extended-context-research-preview-2026-11"
	longGeminiModel = "gemini-3.8-flash-extended-context-research-preview-2026-11"
	// longOpenCodeModel is the fake provider's model id and name.
	longOpenCodeModel = "fake-model-extended-context-research-preview-2026-11"
)

var environs = []environ{
	{"w60", []string{"claude", "codex", "gemini", "opencode"}, func(s *Scenario) { s.Width, s.Height = 60, 24 }},
	{"w80", []string{"claude", "codex", "gemini", "opencode"}, func(s *Scenario) { s.Width, s.Height = 80, 24 }},
	{"w200", []string{"claude", "codex", "gemini", "opencode"}, func(s *Scenario) { s.Width, s.Height = 200, 40 }},
	{"w250", []string{"claude", "codex"}, func(s *Scenario) { s.Width, s.Height = 250, 40 }},
	{"h15", []string{"claude", "codex", "gemini", "opencode"}, func(s *Scenario) { s.Width, s.Height = 120, 15 }},
	{"h50", []string{"claude", "codex"}, func(s *Scenario) { s.Width, s.Height = 120, 50 }},
	{"theme-light", []string{"claude"}, claudeTheme("light")},
	{"theme-dark-daltonized", []string{"claude"}, claudeTheme("dark-daltonized")},
	{"theme-light-ansi", []string{"claude"}, claudeTheme("light-ansi")},
	{"bg-light", []string{"codex"}, func(s *Scenario) { s.PaneBG = "#ffffff" }},
	{"bg-dark", []string{"codex"}, func(s *Scenario) { s.PaneBG = "#000000" }},
	{"cwd120", []string{"claude", "codex", "gemini", "opencode"}, withSetup(func(h *Home, env []string) ([]string, error) {
		return env, longWork(h)
	})},
	// Gemini CLI without COLORTERM (a terminal that does not say it has
	// true colour): a warning row, and the 256-colour palette. OpenCode
	// the same way.
	{"colors256", []string{"gemini", "opencode"}, withSetup(func(h *Home, env []string) ([]string, error) {
		return slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, "COLORTERM=") }), nil
	})},
	{"model-long", []string{"gemini"}, withSetup(func(h *Home, env []string) ([]string, error) {
		return append(env, "GEMINI_MODEL="+longGeminiModel), nil
	})},
	{"model-long", []string{"opencode"}, withSetup(func(h *Home, env []string) ([]string, error) {
		return env, setOpenCodeModel(h, longOpenCodeModel)
	})},
	{"model-long", []string{"claude"}, withSetup(func(h *Home, env []string) ([]string, error) {
		return append(env, "ANTHROPIC_MODEL="+longClaudeModel), nil
	})},
	{"model-long", []string{"codex"}, codexLongModel},
}

// claudeTheme sets ~/.claude.json's theme.
func claudeTheme(theme string) func(s *Scenario) {
	return withSetup(func(h *Home, env []string) ([]string, error) {
		return env, editClaudeConfig(h, func(cfg map[string]any) { cfg["theme"] = theme })
	})
}

// withSetup chains a change after the scenario's own Setup.
func withSetup(f func(h *Home, env []string) ([]string, error)) func(s *Scenario) {
	return func(s *Scenario) {
		prev := s.Setup
		s.Setup = func(h *Home, version, url string, env []string) ([]string, error) {
			if prev != nil {
				var err error
				if env, err = prev(h, version, url, env); err != nil {
					return env, err
				}
			}
			return f(h, env)
		}
	}
}

// longWork moves the run's project to a directory whose path is 120
// characters long (trusted as the standard one is: the configs name
// h.Work, rewritten here).
func longWork(h *Home) error {
	old := h.Work
	long := filepath.Join(h.Home, longCwd)
	for len(long) < 120 {
		long += "-x"
	}
	long = long[:120]
	if strings.HasSuffix(long, "/") {
		long = long[:119] + "x"
	}
	if err := os.MkdirAll(filepath.Dir(long), 0o755); err != nil {
		return err
	}
	if err := os.Rename(old, long); err != nil {
		return err
	}
	h.Work = long
	for _, cfg := range []string{filepath.Join(h.Home, ".claude.json"), filepath.Join(h.Home, ".codex", "config.toml")} {
		b, err := os.ReadFile(cfg)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(string(b), old, long)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// variant is base in the matrix's environment named suffix, as the
// matrix makes its variants (<base>-<suffix>).
func variant(base *Scenario, suffix string) *Scenario {
	for _, e := range environs {
		if e.suffix == suffix && slices.Contains(e.agents, base.Agent) {
			v := *base
			v.Name = base.Name + "-" + suffix
			e.apply(&v)
			return &v
		}
	}
	panic("rig: no environment " + suffix + " for " + base.Agent)
}

// registerVariants registers the matrix's variants of every agent's base
// scenarios, once, when a scenario is first looked up: after every file's
// init has registered its agent's scenarios, whatever the files' order.
var registerVariants = sync.OnceFunc(func() {
	for _, base := range []string{"idle", "draft", "permission-approve"} {
		for _, e := range environs {
			for _, agent := range e.agents {
				b, ok := scenarios[agent+"/"+base]
				if !ok {
					panic("rig: no base scenario " + agent + "/" + base)
				}
				register(variant(b, e.suffix))
			}
		}
	}
	// Claude's single-select question (issue 19: it came back unknown in
	// the light themes) in the themes that restyle it.
	for _, e := range environs {
		if e.suffix != "theme-light" && e.suffix != "theme-light-ansi" {
			continue
		}
		register(variant(scenarios["claude/question-digit"], e.suffix))
	}
})
