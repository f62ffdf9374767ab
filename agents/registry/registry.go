// Package registry is the one table of the agents akk knows. Adding an
// agent is a folder under agents/ and a row here; the engines read this
// table and name no agent.
package registry

import (
	"strings"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/claude"
	"github.com/agent-knock-knock/akk/agents/codex"
	"github.com/agent-knock-knock/akk/agents/gemini"
	"github.com/agent-knock-knock/akk/agents/opencode"
	"github.com/agent-knock-knock/akk/agents/parrot"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// All is every agent, in the order a pane's processes are tried.
var All = []agents.Agent{
	claude.Agent,
	codex.Agent,
	gemini.Agent,
	opencode.Agent,
	parrot.Agent,
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

// Users are the agents akk shows its users (its help, akk doctor): every
// agent but akk's own test agents (agents.Traits.TestOnly), in All's
// order. Lookup and Known still find a test agent.
func Users() []agents.Agent {
	var out []agents.Agent
	for _, a := range All {
		if !a.Traits().TestOnly {
			out = append(out, a)
		}
	}
	return out
}

// Names are every user's agent's contract value (Users), joined by sep.
func Names(sep string) string {
	var b strings.Builder
	for i, a := range Users() {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(a.Name())
	}
	return b.String()
}

// Displays are the display names of the user's agents (Users) keep
// says, joined by ", " (every one's with keep nil).
func Displays(keep func(agents.Agent) bool) string {
	var out []string
	for _, a := range Users() {
		if keep == nil || keep(a) {
			out = append(out, a.Display())
		}
	}
	return strings.Join(out, ", ")
}

// ProcessRules are every agent's process identity rules.
func ProcessRules() []procid.Rule {
	rules := make([]procid.Rule, len(All))
	for i, a := range All {
		rules[i] = a.Process()
	}
	return rules
}
