// Package registry is the one table of the agents akk knows. Adding an
// agent is a folder under agents/ and a row here; the engines read this
// table and name no agent.
package registry

import (
	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/claude"
	"github.com/agent-knock-knock/akk/agents/codex"
	"github.com/agent-knock-knock/akk/agents/gemini"
	"github.com/agent-knock-knock/akk/agents/opencode"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// All is every agent, in the order a pane's processes are tried.
var All = []agents.Agent{
	claude.Agent,
	codex.Agent,
	gemini.Agent,
	opencode.Agent,
}

// Lookup is the agent the contract calls name.
func Lookup(name string) (agents.Agent, bool) {
	for _, a := range All {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Known reports whether name is an agent akk knows (not "none", not "").
func Known(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// ProcessRules are every agent's process identity rules.
func ProcessRules() []procid.Rule {
	rules := make([]procid.Rule, len(All))
	for i, a := range All {
		rules[i] = a.Process()
	}
	return rules
}
