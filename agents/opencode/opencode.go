// Package opencode is akk's native knowledge of OpenCode, as agents.Agent:
// its names, how its process is recognised, where its records are and how
// its session is resolved, its resume candidates, its interrupt, its user's
// keybindings and the traits the engines act on.
package opencode

import (
	"context"
	"path/filepath"

	_ "github.com/agent-knock-knock/akk/agents/opencode/screen" // registers its screen grammars (recognizers)

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Name is OpenCode's value in the contract.
const Name = "opencode"

// Agent is OpenCode (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Command() string { return Name }
func (agent) Display() string { return "OpenCode" }

// Process: its native binary, bin/opencode.exe of npm's opencode-ai, or
// bin/opencode of its platform package (opencode-linux-x64, ...).
func (agent) Process() procid.Rule {
	return procid.Rule{Agent: Name, Exes: []string{"opencode", "opencode.exe"}, Packages: []string{"opencode-ai", "opencode-*"}}
}

// Interrupt: Escape twice: the first arms it ("esc again to interrupt").
func (agent) Interrupt() agents.Interrupt { return agents.Interrupt{Key: []byte{0x1b}, Twice: true} }

// Records: every session of every directory in one store
// (~/.local/share/opencode/opencode.db); it grows at each commit (its -wal
// file).
func (agent) Records() evidence.Format { return sessiondb.Format }

// Resolve: the store's sessions of its directory updated since the
// process started. A session of the store is a record of its own, named
// by a path of its own. No thread transition or reconcile_binding is
// offered for OpenCode: there are no quiet sessions to keep.
func (agent) Resolve(ctx context.Context, root string, q agents.SessionQuery) watchers.NativeIdentity {
	ni, _ := resolve(ctx, query{DB: root, Cwd: q.Cwd, Since: q.Since})
	for i := range ni.Candidates {
		ni.Candidates[i].Path = evidence.RecordPath(root, ni.Candidates[i].SessionID)
	}
	if ni.State == contract.IdentityResolved {
		ni.Path = evidence.RecordPath(root, ni.SessionID)
		ni.File, _ = watchers.RecordID(sessiondb.Agent, ni.Path)
	}
	return ni
}

// Root: $XDG_DATA_HOME/opencode/opencode.db, ~/.local/share by default.
func (agent) Root(home string, getenv func(string) string) string {
	data := getenv("XDG_DATA_HOME")
	if data == "" && home != "" {
		data = filepath.Join(home, ".local", "share")
	}
	if data == "" {
		return ""
	}
	return filepath.Join(data, "opencode", "opencode.db")
}

// Threads: akk runs no thread operation on it yet.
func (agent) Threads() agents.Threads { return nil }

// Traits: none the engines act on.
func (agent) Traits() agents.Traits { return agents.Traits{} }

// Remapped: no keybinding of its user's is known to change akk's keys.
func (agent) Remapped(string) (string, error) { return "", nil }
