// Package codex is akk's native knowledge of Codex (OpenAI's terminal
// agent): how its process is recognised and what people call it.
package codex

import (
	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// Name is Codex's value in the contract.
const Name = "codex"

// Agent is Codex (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Display() string { return "Codex" }

// Process: the native binary of @openai/codex's platform package (the
// npm codex is a Node launcher whose child is that binary). Its helpers
// from the same binary in its foreground group (codex-linux-sandbox) are
// not relaunches of it.
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, Exes: []string{"codex"}, Packages: []string{"@openai/codex*"}}
}

// Interrupt: C-c, as its user stops a turn (recording cancel).
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x03}} }
