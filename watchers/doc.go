// Package watchers is the engine that follows the agents' own records and
// turns their complete entries into typed durable evidence (the values of
// watchers/evidence): session identity, prompts accepted (with the SHA-256
// of their text), turns started, completed, aborted or failed, tools
// pending and their results, questions answered, approvals requested
// where the records show them.
//
// It names no agent. Each agent's folder holds its record format (a
// parser of lines, or a store of sessions, and how its records prove a
// prompt taken: evidence.Format, registered from the format package's
// init), its session resolution and its conversations' listing
// (ThreadFormat); the engine follows, reads, anchors, accepts and lists
// through them.
//
// Its parts, each in its own files:
//
//   - tail.go: a pure tail core per path (offsets, torn lines held until
//     their newline, bounded reads and lines, truncation, in-place rewrite,
//     replacement by device/inode, deletion), driven by observations and
//     byte chunks, so it is tested without a file system.
//   - watch.go: the fsnotify shell. It watches directories, never the
//     files, down to a format's depth (directories that appear later
//     included), picks up files that exist when a directory is added,
//     follows renames within a directory, restarts a path whose file was
//     replaced, and rescans everything when the kernel's event queue
//     overflows. Events only mark paths dirty; one worker drains them, so
//     bursts coalesce.
//   - dirwatch.go, roots.go: the directory watches under the agents'
//     roots, and the retries when an agent's first record appears.
//   - format.go, record.go, record_follow.go: a record read whole, or
//     followed, through its agent's format (StoreFollower for a store of
//     sessions).
//   - identity.go: the answer to "which native session is this pane's
//     agent writing?" (resolved, ambiguous, verified_absent, unavailable,
//     with the evidence), which each agent's folder resolves.
//   - accept.go: request-hash acceptance after a pre-send anchor
//     (accepted, pending, uncertain), by the format's acceptance rule.
//   - threads.go: the earlier conversations a pane's agent could resume
//     (same cwd, not archived, not live in another process, not the
//     current one), newest first, each with the title the agent's own
//     picker shows and the file's identity at discovery.
//
// What it does not do:
//
//   - It does not decide anything about a pane. Evidence is input to the
//     supervisor, which weighs it against the screen; a prompt hash match
//     is proof of acceptance only together with the anchor the supervisor
//     took before its send.
//   - It never writes, locks, moves or repairs the agents' files, and never
//     keeps prompt, answer or tool text: only hashes, lengths, ids and names.
//     The one exception is a Thread's Title, a bounded single line of the
//     user's own first prompt or the conversation's name, returned for a
//     controller to show and never stored here.
//   - It does not poll line files. Between fsnotify events nothing is
//     read; a lost event is only recovered by an overflow rescan or the
//     next event of the same path. A store is read at each write of its
//     directory, and at a bounded safety interval.
//   - It does not follow a file across directories (a record moved to an
//     archive is reported deleted) nor watch deeper than Options.Depth.
//   - It does not persist offsets; Options.Start lets the caller resume
//     from an End it stored.
//   - It does not find the agent's processes: identity resolution is given
//     the pids (from the pane's foreground process group) and the cwd.
package watchers
