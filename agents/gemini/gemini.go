// Package gemini is akk's native knowledge of Gemini CLI (Google's terminal
// agent), as agents.Agent: its names, how its process is recognised, where
// its records are and how its session is resolved, its resume candidates,
// its interrupt, its user's keybindings and the traits the engines act on.
package gemini

import (
	"context"
	"path/filepath"

	_ "github.com/agent-knock-knock/akk/agents/gemini/screen" // registers its screen grammars (recognizers)

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/gemini/chats"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Name is Gemini CLI's value in the contract.
const Name = "gemini"

// Agent is Gemini CLI (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Command() string { return Name }
func (agent) Display() string { return "Gemini CLI" }

// Process: a Node script of @google/gemini-cli. It restarts itself in a
// child node with a larger heap, and the child draws the screen and
// writes the chats: the child is the agent.
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, NodePackage: "@google/gemini-cli", Relaunches: true}
}

// Interrupt: Escape ("esc to cancel" on its working row).
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}} }

// Records: conversations under ~/.gemini/tmp/<project>/chats.
func (agent) Records() evidence.Format { return chats.Format }

// Resolve: the conversations of its project started since the process.
func (agent) Resolve(ctx context.Context, root string, q agents.SessionQuery) watchers.NativeIdentity {
	ni, _ := resolve(ctx, query{TmpRoot: root, Cwd: q.Cwd, Since: q.Since, Quiet: q.Quiet})
	return ni
}

// Root: ~/.gemini/tmp.
func (agent) Root(home string, _ func(string) string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".gemini", "tmp")
}

// Threads: akk runs no thread operation on it yet.
func (agent) Threads() agents.Threads { return nil }

// Traits: none the engines act on.
func (agent) Traits() agents.Traits { return agents.Traits{} }

// Remapped: no keybinding of its user's is known to change akk's keys.
func (agent) Remapped(string) (string, error) { return "", nil }
