// Package claude is akk's native knowledge of Claude Code (Anthropic's
// terminal agent), as agents.Agent: its names, how its process is
// recognised, where its records are and how its session is resolved, its
// resume candidates, its interrupt, its user's keybindings and the traits
// the engines act on.
package claude

import (
	"context"
	"path/filepath"

	_ "github.com/agent-knock-knock/akk/agents/claude/screen" // registers its screen grammars (recognizers)

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Name is Claude Code's value in the contract.
const Name = "claude"

// Agent is Claude Code (agents.Agent).
var Agent agent

type agent struct{}

func (agent) Name() string    { return Name }
func (agent) Command() string { return Name }
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

// Records: transcripts under ~/.claude/projects, one directory per
// project.
func (agent) Records() evidence.Format { return transcript.Format }

// Resolve: the process's session record names its session exactly
// (2.1.267 and later); without one, the transcripts of its cwd appended
// since it started (in a transition: since its Enter, the session it
// resumes, or any but the one it leaves).
func (agent) Resolve(ctx context.Context, root string, q agents.SessionQuery) watchers.NativeIdentity {
	cq := query{ProjectsRoot: root, Cwd: q.Cwd, Since: q.Since, PIDs: q.PIDs, Quiet: q.Quiet}
	if tr := q.Transition; tr != nil {
		cq.Since = tr.Since
		if tr.Target != "" {
			cq.SessionID = tr.Target
		} else if tr.Left != "" {
			cq.Exclude = []string{tr.Left}
		}
	}
	ni, _ := resolve(ctx, cq)
	return ni
}

// Root: ~/.claude/projects.
func (agent) Root(home string, _ func(string) string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".claude", "projects")
}

// Threads: resume_thread and new_thread run on Claude Code.
func (agent) Threads() agents.Threads { return threads{} }

type threads struct{}

func (threads) Candidates(ctx context.Context, root string, q watchers.ThreadQuery) ([]watchers.Thread, error) {
	q.Agent, q.Root = transcript.Agent, root
	return watchers.Threads(ctx, q, threadFormat{})
}

// Written: the transcripts of its workspace appended since it started
// (not its session record, which names only the current one).
func (threads) Written(ctx context.Context, root string, q agents.SessionQuery) (watchers.NativeIdentity, error) {
	return resolve(ctx, query{ProjectsRoot: root, Cwd: q.Cwd, Since: q.Since, Quiet: q.Quiet})
}

// Traits: it stashes drafts (ctrl+s) and puts them back at a submit.
func (agent) Traits() agents.Traits { return agents.Traits{Stashes: true} }

// Remapped: keybindings.json in its config directory (~/.claude, the
// records root's parent), re-read while it runs.
func (agent) Remapped(root string) (string, error) {
	return remapped(filepath.Join(agents.ConfigDir(root), "keybindings.json"))
}
