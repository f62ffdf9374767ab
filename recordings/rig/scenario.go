package rig

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Scenario is one short, scripted session with an agent: what the fake
// model answers, and the keys, waits and markers that drive the agent.
type Scenario struct {
	Name   string
	Agent  string
	Width  int      // 0: 120
	Height int      // 0: 40
	Only   []string // versions it applies to; nil: all
	// AgentMode (Claude): leave the permission mode to the version's own
	// default instead of pinning "default" (manual) mode; 2.1.332 defaults
	// to auto mode, where Bash runs without a prompt.
	AgentMode bool
	// Model is the Codex model for a version ("" or nil: gpt-5.5, or
	// gpt-6-sol on 0.171).
	Model func(version string) string
	// FallbackTools (Codex): Model is an id Codex has no metadata for, so
	// it offers its fallback tools (exec_command as a function) on every
	// version, code mode's 0.171 too; the script calls them.
	FallbackTools bool
	Script        func(version string) fakemodel.Script
	Drive         func(d *Driver) error
	// Setup, when set, changes the run's world after the standard config
	// is written and before the agent starts: files under h (an untrusted
	// project, an MCP server, plan mode) and the agent's environment (it
	// returns env, changed or not). url is the fake model's.
	Setup func(h *Home, version, url string, env []string) ([]string, error)
	// PaneBG, when set, is the pane's background colour ("#ffffff"), set
	// before the agent starts: tmux answers the agent's OSC 11 query with
	// it, so Codex picks its light or dark palette from it.
	PaneBG string
}

// Supports reports whether the scenario applies to version.
func (s *Scenario) Supports(version string) bool {
	return s.Only == nil || slices.Contains(s.Only, version)
}

func (s *Scenario) size() (int, int) {
	w, h := s.Width, s.Height
	if w == 0 {
		w = 120
	}
	if h == 0 {
		h = 40
	}
	return w, h
}

func (s *Scenario) model(version string) string {
	if s.Model != nil {
		if m := s.Model(version); m != "" {
			return m
		}
	}
	if strings.HasPrefix(version, "0.171.") {
		return "gpt-6-sol"
	}
	return "gpt-5.5"
}

// args are the agent's command-line arguments: Codex gets --no-daemon
// where its --help lists it.
func (s *Scenario) args(in Installed) []string {
	if in.Agent.Name != "codex" {
		return nil
	}
	out, _ := exec.Command(in.Bin, "--help").CombinedOutput()
	if strings.Contains(string(out), "--no-daemon") {
		return []string{"--no-daemon"}
	}
	return nil
}

var scenarios = map[string]*Scenario{}

func register(ss ...*Scenario) {
	for _, s := range ss {
		scenarios[s.Agent+"/"+s.Name] = s
	}
}

// FindScenario returns the named scenario of agent.
func FindScenario(agent, name string) (*Scenario, error) {
	registerVariants()
	if s, ok := scenarios[agent+"/"+name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("rig: no scenario %q for %s (have %s)", name, agent, strings.Join(ScenarioNames(agent), ", "))
}

// ScenarioNames lists agent's scenarios.
func ScenarioNames(agent string) []string {
	registerVariants()
	var names []string
	for _, s := range scenarios {
		if s.Agent == agent {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	return names
}

// versionAtLeast reports whether version v (major.minor.patch, numeric)
// is at least min; a part that is not a number compares as 0.
func versionAtLeast(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y int
		if i < len(a) {
			x, _ = strconv.Atoi(a[i])
		}
		if i < len(b) {
			y, _ = strconv.Atoi(b[i])
		}
		if x != y {
			return x > y
		}
	}
	return true
}

// Script is the fake model's script of the corpus scenarios for agent at
// version (the keywords run-touch / run-ls, ask-color, ask-multi,
// ask-many, hello, slow-work), for live tests that drive the same
// surfaces through akk.
func Script(agent, version string) fakemodel.Script {
	switch agent {
	case "codex":
		return codexScript(version)
	case "gemini":
		return geminiScript(version)
	case "opencode":
		return openCodeScript(version)
	}
	return claudeScript(version)
}
