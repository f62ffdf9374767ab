// Package claude is akk's native knowledge of Claude Code (Anthropic's
// terminal agent): how its process is recognised and what people call it.
package claude

import (
	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// Name is Claude Code's value in the contract.
const Name = "claude"

// Agent is Claude Code (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Display() string { return "Claude Code" }

// Process: the npm package's binary (bin/claude.exe in
// @anthropic-ai/claude-code, or a platform package of it), or the native
// installer's ~/.local/share/claude/versions/<x.y.z>.
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, Exes: []string{"claude", "claude.exe"},
		Packages: []string{"@anthropic-ai/claude-code*"}, InstallDir: "claude"}
}

// Interrupt: Escape ("esc to interrupt" on its working row).
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}} }
