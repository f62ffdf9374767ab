// Package codex is akk's native knowledge of Codex (OpenAI's terminal
// agent), as agents.Agent: its names, how its process is recognised, where
// its records are and how its session is resolved, its resume candidates,
// its interrupt, its user's keybindings and the traits the engines act on.
package codex

import (
	"context"
	"path/filepath"

	_ "github.com/agent-knock-knock/akk/agents/codex/screen" // registers its screen grammars (recognizers)

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Name is Codex's value in the contract.
const Name = "codex"

// Agent is Codex (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Command() string { return Name }
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

// Records: rollouts under $CODEX_HOME/sessions/YYYY/MM/DD.
func (agent) Records() evidence.Format { return rollout.Format }

// Resolve: the rollouts the processes hold open (Codex keeps every one it
// wrote open until it exits; the ones it left are quiet).
func (agent) Resolve(ctx context.Context, root string, q agents.SessionQuery) watchers.NativeIdentity {
	ni, _ := resolve(ctx, query{PIDs: q.PIDs, SessionsRoot: root, Quiet: q.Quiet})
	return ni
}

// Root: $CODEX_HOME/sessions, ~/.codex/sessions by default.
func (agent) Root(home string, getenv func(string) string) string {
	if ch := getenv("CODEX_HOME"); ch != "" {
		return filepath.Join(ch, "sessions")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex", "sessions")
}

// Threads: resume_thread and new_thread run on Codex.
func (agent) Threads() agents.Threads { return threads{} }

type threads struct{}

// Candidates: its rollouts, and the archived ones beside sessions/.
func (threads) Candidates(ctx context.Context, root string, q watchers.ThreadQuery) ([]watchers.Thread, error) {
	q.Agent, q.Root = rollout.Agent, root
	if root != "" {
		q.ArchivedRoot = filepath.Join(filepath.Dir(root), "archived_sessions")
	}
	return watchers.Threads(ctx, q, threadFormat{})
}

// Written: every rollout it holds open (it keeps each one it wrote open).
func (threads) Written(ctx context.Context, root string, q agents.SessionQuery) (watchers.NativeIdentity, error) {
	return resolve(ctx, query{PIDs: q.PIDs, SessionsRoot: root, Quiet: q.Quiet})
}

// Traits: its status line vanishes while it streams a reply (recording
// interrupted, 0.155.1 and 0.171.0); a steered prompt is recorded in the
// running turn; it keeps every rollout it wrote open, and its /status
// names the foreground thread; a new thread has no rollout until its
// first prompt.
func (agent) Traits() agents.Traits {
	return agents.Traits{HidesWorking: true, Steers: true, Identifies: true, NewThreadUnwritten: true}
}

// Remapped: config.toml's [tui.keymap] (or its vim mode) in $CODEX_HOME,
// the records root's parent.
func (agent) Remapped(root string) (string, error) {
	return remapped(filepath.Join(agents.ConfigDir(root), "config.toml"))
}
