// Package procid reads /proc: process stat, a terminal's foreground
// process group (its members' exe, cwd and argv), and what runs there
// (Classifier: Claude Code, Codex, an akk replica, or no agent), with the
// agent's version from the nearest package.json, and the owner of the
// other end of a loopback TCP connection (/proc/net/tcp and tcp6: the TCP
// counterpart of a unix socket's SO_PEERCRED, for akk's HTTP faces). It is
// the only production code that reads /proc.
//
// A read of a pane's foreground group can race what it reads: a shell that
// has forked but not yet exec'd leads a new group under its own name, an
// exec in progress has its new name and executable but not yet its
// arguments (/proc/<pid>/cmdline reads empty until the kernel has set them
// up), and the npm codex command is a Node launcher whose native child
// appears a little later. Inconclusive names such a read, so that its
// caller reads again shortly after instead of polling.
//
// What it does not do: it never signals, traces or writes to a process,
// never spawns one (no ps, no lsof), and does not decide when to look:
// the daemon reads when tmux or the pane says something changed. It does
// not read recordings either: a replica's header comes through
// Options.ReadReplica.
package procid
