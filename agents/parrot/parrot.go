// Package parrot is akk's test agent, Parrot, as agents.Agent: a tiny
// terminal agent with no model whose program is in this folder
// (parrotagent), built by the recording rig (parrotrig), so that akk
// drives a fifth agent end to end the way it drives the others, and
// adding an agent is proven to be one folder and one registry row. Its
// record format is sessions, its screen grammar screen.
//
// It is test-only (Traits.TestOnly): its process rule names only its own
// program (akk-parrot), and it has no records root on a user's machine.
package parrot

import (
	"context"
	"path/filepath"

	_ "github.com/agent-knock-knock/akk/agents/parrot/screen" // registers its screen grammar (recognizers)

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/parrot/sessions"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Name is Parrot's value in the contract.
const Name = "parrot"

// Program is the name of its program, the one executable its process
// rule knows (and of the package.json the rig writes beside it, which
// gives its version).
const Program = "akk-parrot"

// Agent is Parrot (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Command() string { return Program }
func (agent) Display() string { return "Parrot (test agent)" }

// Process: its program, akk-parrot, its version from the package.json
// beside it.
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, Exes: []string{Program}, Packages: []string{Program}}
}

// Interrupt: none of its turns runs long enough to need one; Esc cancels
// its permission dialog.
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}} }

// Records: one file per session, <HOME>/.parrot/sessions/<session>.jsonl.
func (agent) Records() evidence.Format { return sessions.Format }

// Resolve: the session of its cwd started or appended since the process
// started.
func (agent) Resolve(ctx context.Context, root string, q agents.SessionQuery) watchers.NativeIdentity {
	ni, _ := resolve(ctx, query{Root: root, Cwd: q.Cwd, Since: q.Since, Quiet: q.Quiet})
	return ni
}

// Root: none on a user's machine (it is akk's test agent, and a daemon
// watches nothing for it); a test that runs it names its sessions'
// directory (SessionsDir) as the root.
func (agent) Root(string, func(string) string) string { return "" }

// SessionsDir is where Parrot run with HOME home keeps its sessions.
func SessionsDir(home string) string { return filepath.Join(home, ".parrot", "sessions") }

// Threads: akk runs no thread operation on it.
func (agent) Threads() agents.Threads { return nil }

// Traits: it is akk's test agent.
func (agent) Traits() agents.Traits { return agents.Traits{TestOnly: true} }

// Remapped: it reads no keybindings.
func (agent) Remapped(string) (string, error) { return "", nil }
