// Package gemini is akk's native knowledge of Gemini CLI (Google's
// terminal agent): how its process is recognised and what people call it.
package gemini

import (
	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// Name is Gemini CLI's value in the contract.
const Name = "gemini"

// Agent is Gemini CLI (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Display() string { return "Gemini CLI" }

// Process: a Node script of @google/gemini-cli. It restarts itself in a
// child node with a larger heap, and the child draws the screen and
// writes the chats: the child is the agent.
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, NodePackage: "@google/gemini-cli", Relaunches: true}
}

// Interrupt: Escape ("esc to cancel" on its working row).
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}} }
