// Package opencode is akk's native knowledge of OpenCode: how its process
// is recognised and what people call it.
package opencode

import (
	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// Name is OpenCode's value in the contract.
const Name = "opencode"

// Agent is OpenCode (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Display() string { return "OpenCode" }

// Process: its native binary, bin/opencode.exe of npm's opencode-ai, or
// bin/opencode of its platform package (opencode-linux-x64, ...).
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, Exes: []string{"opencode", "opencode.exe"}, Packages: []string{"opencode-ai", "opencode-*"}}
}

// Interrupt: Escape twice: the first arms it ("esc again to interrupt").
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}, Twice: true} }
