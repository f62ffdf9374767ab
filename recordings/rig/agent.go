package rig

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// An Agent is what the rig knows of one agent program: the npm package it
// installs (or how it is built from source), how a run talks to it (the
// fake model's dialect, the world it starts in, where it writes its
// journal) and its scenarios. Each agent's
// folder registers one from a scenario package of its own
// (agents/<name>/<name>rig), which a program or a test that runs the rig
// imports; the rig names no agent.
type Agent struct {
	Name    string // the agent id, as akk's registry names it
	Package string // npm package
	Bin     string // command in node_modules/.bin (with Build: in its directory)
	// Build, when set, builds the agent's program from source into dir,
	// as dir/<Bin>, for version (an error for a version its source is
	// not), instead of installing Package with npm: a run builds it
	// afresh into its own directory (the build cache makes that cheap),
	// so it never runs a stale build, and the cache holds npm agents only.
	Build func(ctx context.Context, version, dir string) error
	// Serve starts the fake model in the agent's API dialect (nil: the
	// agent talks to no model, and its World gets no URL).
	Serve func(fakemodel.Script, *fakemodel.Log, *slog.Logger) (*fakemodel.Server, error)
	// World writes the agent's config under h for a run of sc at version
	// against the fake model at url, and returns the agent's whole
	// environment (it runs under env -i). A Live run passes a zero
	// Scenario.
	World func(h *Home, sc *Scenario, version, url string) ([]string, error)
	// Args are the agent's command-line arguments (nil: none).
	Args func(in Installed) []string
	// JournalGlob is where the agent writes its journals (transcripts,
	// rollouts), a pattern under HOME; "": none the rig reads.
	JournalGlob string
	// JournalKind is the corpus's name of its journal
	// (S.<JournalKind>.jsonl beside S.cast: "transcript", "rollout").
	JournalKind string
	// ReadJournal, when set, is the run's journal, read at its end, of an
	// agent whose record is not one file; nil: the newest JournalGlob file.
	ReadJournal func(ctx context.Context, home string) []byte
	// Script is the fake model's script of the corpus scenarios (see
	// Script).
	Script func(version string) fakemodel.Script
	// Environs are the axes of the environment matrix the agent is
	// recorded in: each makes a variant of its idle, draft and
	// permission-approve scenarios (matrixBases).
	Environs []Environ
	// Scenarios are the agent's scenarios (the matrix's variants are
	// added to them).
	Scenarios []*Scenario
	// Core are the scenarios of a quick qualification (akk qualify
	// without --full), in the order they run: together they show the
	// surfaces a controller uses most, a task sent to the idle
	// composer, a shell permission approved once and one rejected, a
	// single-select question, a free-text answer and a confirmation,
	// as far as the agent draws them.
	Core []string
	// UserTheme, when set, reads the user's theme from the one key of the
	// agent's own settings under home that names it (Claude Code's
	// "theme" in ~/.claude.json), never any other, and never writes:
	// the axis that makes a run draw in it, false when the user keeps the
	// rig's theme or names none.
	UserTheme func(home string) (Environ, bool)
}

var registry = struct {
	sync.Mutex
	agents    map[string]*Agent
	scenarios map[string]*Scenario // agent/name
}{agents: map[string]*Agent{}, scenarios: map[string]*Scenario{}}

// Register adds an agent and its scenarios, with their variants in the
// agent's environments (each of its matrixBases varied, which it must
// then have). It panics on a second agent of the same name, a scenario
// named twice or a base missing: the tables are code.
func Register(a Agent) {
	registry.Lock()
	defer registry.Unlock()
	if _, ok := registry.agents[a.Name]; ok {
		panic("rig: agent " + a.Name + " registered twice")
	}
	registry.agents[a.Name] = &a
	for _, s := range a.Scenarios {
		addScenario(a.Name, s)
	}
	for _, c := range a.Core {
		if _, ok := registry.scenarios[a.Name+"/"+c]; !ok {
			panic("rig: core scenario " + a.Name + "/" + c + " is not registered")
		}
	}
	for _, base := range matrixBases {
		if len(a.Environs) == 0 {
			break // no environment matrix: no variants to base
		}
		b, ok := registry.scenarios[a.Name+"/"+base]
		if !ok {
			panic("rig: no base scenario " + a.Name + "/" + base)
		}
		for _, e := range a.Environs {
			addScenario(a.Name, Variant(b, e))
		}
	}
}

func addScenario(agent string, s *Scenario) {
	if s.Agent != agent {
		panic(fmt.Sprintf("rig: scenario %s of %s registered by %s", s.Name, s.Agent, agent))
	}
	if _, ok := registry.scenarios[agent+"/"+s.Name]; ok {
		panic("rig: scenario " + agent + "/" + s.Name + " registered twice")
	}
	registry.scenarios[agent+"/"+s.Name] = s
}

// agentOf returns the registered agent named name.
func agentOf(name string) (*Agent, error) {
	registry.Lock()
	defer registry.Unlock()
	if a, ok := registry.agents[name]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("rig: unknown agent %q (registered: %s; a program imports an agent's scenario package to register it)",
		name, strings.Join(agentNames(), ", "))
}

// AgentNames lists the registered agents.
func AgentNames() []string {
	registry.Lock()
	defer registry.Unlock()
	return agentNames()
}

func agentNames() []string {
	var out []string
	for n := range registry.agents {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// FindScenario returns the named scenario of agent.
func FindScenario(agent, name string) (*Scenario, error) {
	registry.Lock()
	s, ok := registry.scenarios[agent+"/"+name]
	registry.Unlock()
	if ok {
		return s, nil
	}
	return nil, fmt.Errorf("rig: no scenario %q for %s (have %s)", name, agent, strings.Join(ScenarioNames(agent), ", "))
}

// ScenarioNames lists agent's scenarios.
func ScenarioNames(agent string) []string {
	registry.Lock()
	defer registry.Unlock()
	var names []string
	for _, s := range registry.scenarios {
		if s.Agent == agent {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	return names
}

// Core is agent's quick qualification set (Agent.Core).
func Core(agent string) ([]string, error) {
	a, err := agentOf(agent)
	if err != nil {
		return nil, err
	}
	return a.Core, nil
}

// UserTheme is the axis of the user's own theme for agent (Agent.UserTheme),
// read from home; false when there is none to apply.
func UserTheme(agent, home string) (Environ, bool) {
	a, err := agentOf(agent)
	if err != nil || a.UserTheme == nil || home == "" {
		return Environ{}, false
	}
	return a.UserTheme(home)
}

// Script is the fake model's script of the corpus scenarios for agent at
// version (the keywords run-touch / run-ls, ask-color, ask-multi,
// ask-many, hello, slow-work), for live tests that drive the same
// surfaces through akk. An agent not registered, or with no model, gets
// an empty script.
func Script(agent, version string) fakemodel.Script {
	a, err := agentOf(agent)
	if err != nil || a.Script == nil {
		return fakemodel.Script{}
	}
	return a.Script(version)
}

// journals lists the agent's journals under home.
func (a *Agent) journals(home string) []string {
	if a.JournalGlob == "" {
		return nil
	}
	ms, _ := filepath.Glob(filepath.Join(home, a.JournalGlob))
	return ms
}

// newestJournal is the newest of the agent's journals under home, ""
// when there is none.
func (a *Agent) newestJournal(home string) string {
	var best string
	var bestT time.Time
	for _, m := range a.journals(home) {
		if st, err := os.Stat(m); err == nil && st.ModTime().After(bestT) {
			best, bestT = m, st.ModTime()
		}
	}
	return best
}

// args are the agent's command-line arguments.
func (a *Agent) args(in Installed) []string {
	if a.Args == nil {
		return nil
	}
	return a.Args(in)
}
