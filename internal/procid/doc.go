// Package procid reads /proc: process stat, a terminal's foreground
// process group (its members' exe, cwd and argv), and what runs there
// (Classifier: Claude Code, Codex, Gemini CLI, OpenCode, an akk replica,
// or no agent), with the agent's version from the nearest package.json,
// and the owner of the
// other end of a loopback TCP connection (/proc/net/tcp and tcp6: the TCP
// counterpart of a unix socket's SO_PEERCRED, for akk's HTTP faces). It is
// the only production code that reads /proc.
//
// A read of a pane's foreground group can race what it reads: a shell that
// has forked but not yet exec'd leads a new group under its own name, an
// exec in progress has its new name and executable but not yet its
// arguments (/proc/<pid>/cmdline reads empty until the kernel has set them
// up), and the npm codex command is a Node launcher whose native child
// appears a little later. So does an agent a shell script starts without
// exec (dash -c forks even its last command): the shell stays the leader
// and the agent joins its group whenever the script gets there.
// Inconclusive names such a read, so that its caller reads again shortly
// after instead of polling; Launching groups are read again as the pane
// draws.
//
// Each agent is proven by its own program, never by its screen:
//   - Claude Code: its native binary (npm's bin/claude.exe, or the native
//     installer's ~/.local/share/claude/versions/<v>), version from the
//     package.json or the file name.
//   - Codex: the native codex binary among the group (npm's codex is a
//     Node launcher whose child it is), version from the nearest
//     package.json without its platform suffix.
//   - Gemini CLI: node whose script (the first operand, resolved through
//     npm's .bin symlink) lies in the @google/gemini-cli package. The CLI
//     relaunches itself in a child node with a larger heap; that child,
//     which draws the screen and writes the chats, is the agent process.
//   - OpenCode: its native binary (npm's opencode-ai/bin/opencode.exe, or
//     the platform package's bin/opencode), version from its package.
//
// A binary of an agent's name without its package is that agent with no
// version: generic, with a warning, and never given input.
//
// What it does not do: it never signals, traces or writes to a process,
// never spawns one (no ps, no lsof), and does not decide when to look:
// the daemon reads when tmux or the pane says something changed. It does
// not read recordings either: a replica's header comes through
// Options.ReadReplica.
package procid
