// Package agents is the interface every agent akk knows implements: what
// akk knows natively of one agent, outside the generic engines. Each agent
// is a folder below this one (agents/claude, agents/codex, ...) and a row
// of agents/registry's table, as database/sql drivers or Telegraf inputs
// are; the engines call the registry and name no agent.
//
// The move is under way (issue 40): an agent's folder holds its display
// name and its process identity rule so far; its record parser, session
// resolution, resume candidates, keymap, roots, rig scenarios and screen
// grammars follow, one agent at a time. The architecture test counts the
// agents' names still outside these folders.
package agents

import "github.com/agent-knock-knock/akk/internal/procid"

// Agent is one agent's native knowledge.
type Agent interface {
	// Name is the contract's value of the agent (a terminal row's
	// "agent"), stable across versions.
	Name() string
	// Display is the agent's name for people ("Claude Code").
	Display() string
	// Process says how its process is recognised among a pane's
	// foreground group (procid.Classify).
	Process() procid.Rule
	// Interrupt is how its user stops a working turn.
	Interrupt() Interrupt
}

// Interrupt is the keys that stop a working turn, as the agent's user
// types them.
type Interrupt struct {
	Key []byte
	// Twice: the key is pressed twice, the second only once the screen
	// shows the first armed the interrupt ("esc again to interrupt").
	Twice bool
}
