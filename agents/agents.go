// Package agents is the interface every agent akk knows implements: what
// akk knows natively of one agent, outside the generic engines. Each agent
// is a folder below this one (agents/claude, agents/codex, ...) and a row
// of agents/registry's table, as database/sql drivers or Telegraf inputs
// are; the engines call the registry and name no agent.
//
// An agent's folder holds everything akk knows natively of it:
//
//   - <name>.go: this interface (its names, process identity rule,
//     interrupt, records root, session resolution, conversations, traits,
//     its user's keybindings);
//   - its record format package (agents/claude/transcript,
//     agents/codex/rollout, agents/gemini/chats, agents/opencode/sessiondb):
//     the parser and evidence.Format, registered from its init;
//   - screen/: its screen grammars per version (pure), registered with
//     the recognizers' table from its init;
//   - <name>rig/: its part in the recording rig (scenarios, world,
//     fake-model dialect), which only the rig's command and tests import.
//
// The architecture test reads the agents' names from these folders and
// fails on any identifier or string literal naming one elsewhere.
package agents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Agent is one agent's native knowledge.
type Agent interface {
	// Name is the contract's value of the agent (a terminal row's
	// "agent"), stable across versions.
	Name() string
	// Display is the agent's name for people ("Claude Code").
	Display() string
	// Command is the command its user runs to start it.
	Command() string
	// Process says how its process is recognised among a pane's
	// foreground group (procid.Classify).
	Process() procid.Rule
	// Interrupt is how its user stops a working turn.
	Interrupt() Interrupt
	// Records is the format of its native records (how they lie under its
	// root, how they are parsed), for the watchers that follow them.
	Records() evidence.Format
	// Root is where its records are on this machine, given the user's
	// home and environment ("": none it can name).
	Root(home string, getenv func(string) string) string
	// Resolve answers which native session a pane's process writes, from
	// the agent's own records under root.
	Resolve(ctx context.Context, root string, q SessionQuery) watchers.NativeIdentity
	// Threads is its conversations as akk's thread operations see them
	// (nil: akk runs none on this agent).
	Threads() Threads
	// Traits are the facts of its behaviour the engines act on.
	Traits() Traits
	// Remapped says why the user's own keybindings (beside its records
	// root) may change what the keys akk presses do ("" when they cannot);
	// a file that cannot be read or parsed is an error.
	Remapped(root string) (string, error)
}

// Traits are facts of an agent's behaviour, each measured on its
// recordings, that change what the engines may conclude or do.
type Traits struct {
	// HidesWorking: its working row vanishes while it streams a reply,
	// so an idle screen proves nothing while its record shows a turn
	// running.
	HidesWorking bool
	// Steers: a prompt sent into a working turn is recorded in that
	// running turn (the anchor carries the turn).
	Steers bool
	// Stashes: it stashes a draft (ctrl+s) and puts a stashed draft back
	// the moment a prompt is submitted.
	Stashes bool
	// Identifies: several of its records may be open at once, and its
	// own status names the foreground one (identify_foreground,
	// identify_and_send).
	Identifies bool
	// NewThreadUnwritten: a new thread writes no record until its first
	// prompt, so a binding verified absent meets a new_thread.
	NewThreadUnwritten bool
	// TestOnly: akk's own test agent (a program in its folder that proves
	// an agent is one folder and one registry row), never a user's: its
	// process rule names only its test program, and what akk shows its
	// users of the agents it supervises (the CLI's help, akk doctor)
	// leaves it out (registry.Users).
	TestOnly bool
}

// Threads is an agent's native conversations for the thread operations
// (resume_thread's candidates, reconcile_binding's proof).
type Threads interface {
	// Candidates are the conversations a resume may open: q with the
	// agent's own fields (its format, root, archive) filled in.
	Candidates(ctx context.Context, root string, q watchers.ThreadQuery) ([]watchers.Thread, error)
	// Written is every record the process wrote since it started, as
	// candidates: reconcile_binding proves a conversation left by another
	// written after it.
	Written(ctx context.Context, root string, q SessionQuery) (watchers.NativeIdentity, error)
}

// ConfigDir is the directory holding a records root, where agents keep
// their configuration beside their records ("" for no root).
func ConfigDir(root string) string {
	if root == "" {
		return ""
	}
	return filepath.Dir(root)
}

// SessionQuery is what a resolution knows of a pane's agent process.
type SessionQuery struct {
	// PIDs are the pane's agent processes (a launcher, the native binary).
	PIDs []int
	// Cwd is the process's working directory.
	Cwd string
	// Since is when the process started.
	Since time.Time
	// Quiet are the files the process left (a thread transition,
	// reconcile_binding), by their size then: no candidates while they do
	// not grow.
	Quiet map[string]int64
	// Transition is set while a native thread transition runs.
	Transition *Transition
}

// Transition is a native thread transition in progress.
type Transition struct {
	// Since is the wall clock just before its Enter.
	Since time.Time
	// Target is the session it resumes, when it names one; Left the one
	// it leaves.
	Target, Left string
}

// Interrupt is the keys that stop a working turn, as the agent's user
// types them.
type Interrupt struct {
	Key []byte
	// Twice: the key is pressed twice, the second only once the screen
	// shows the first armed the interrupt ("esc again to interrupt").
	Twice bool
}

// maxConfigFile bounds what is read of a configuration file.
const maxConfigFile = 1 << 20

// ReadConfig reads a small configuration file; absent is no remapping.
func ReadConfig(path string) ([]byte, bool, error) {
	if path == "" || filepath.Dir(path) == "." {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxConfigFile {
		return nil, false, fmt.Errorf("%s: over %d bytes", path, maxConfigFile)
	}
	return b, true, nil
}
