// Package watchers follows the agents' own records, Codex rollouts
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl), Claude Code
// transcripts (~/.claude/projects/<slug>/<session>.jsonl), Gemini CLI's
// conversations (~/.gemini/tmp/<project>/chats/session-*.jsonl) and
// OpenCode's sessions in its SQLite store, and turns their complete
// records into typed durable evidence: session identity, prompts
// accepted (with the SHA-256 of their text), turns started, completed,
// aborted or failed, tools pending and their results, questions answered,
// approvals requested where the file shows them.
//
// The agents' own folders (agents/*) say where each agent's records are
// and which format they hold (agents.Records), and call the resolvers
// here; the parsers and resolvers below move into those folders one agent
// at a time (issue 40).
//
// Its parts, each in its own files:
//
//   - tail.go: a pure tail core per path (offsets, torn lines held until
//     their newline, bounded reads and lines, truncation, in-place rewrite,
//     replacement by device/inode, deletion), driven by observations and
//     byte chunks, so it is tested without a file system.
//   - watch.go: the fsnotify shell. It watches directories, never the
//     files, down to a depth (new Codex day directories included), picks up
//     files that exist when a directory is added, follows renames within a
//     directory, restarts a path whose file was replaced, and rescans
//     everything when the kernel's event queue overflows. Events only mark
//     paths dirty; one worker drains them, so bursts coalesce.
//   - dirwatch.go, roots.go: the directory watches under the agents'
//     roots, and the retries when an agent's first record appears.
//   - record.go, record_follow.go, parse.go: one record read whole, or
//     followed, by format.
//   - codex.go, claude.go, gemini.go, opencode.go: parsers into the events
//     of evidence.go; opencode_db.go reads OpenCode's store (read-only, the
//     one SQLite user). Unknown record types are skipped and counted; malformed
//     lines become Malformed events with their file and offset. Claude
//     events follow the records' parentUuid chain (Claude Code does not
//     always write in that order), each with its own line's offset. Gemini
//     CLI writes no end of turn and a tool call only once it ended: a turn
//     is reported completed, at its last reply's line, when the next
//     prompt comes, and a call's ToolPending comes with its ToolResult.
//   - identity.go, identity_gemini.go, opencode_identity.go and accept.go:
//     which native session a pane's agent is
//     writing (resolved, ambiguous, verified_absent, unavailable, with the
//     evidence), and request-hash acceptance after a pre-send anchor
//     (accepted, pending, uncertain).
//   - keymap.go: the user's own keybindings that change what akk's keys
//     do (Claude Code's keybindings.json, Codex's config.toml).
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
//   - It does not poll. Between fsnotify events nothing is read; a lost
//     event is only recovered by an overflow rescan or the next event of
//     the same path.
//   - It does not follow a file across directories (a Codex rollout moved
//     to archived_sessions is reported deleted) nor watch deeper than
//     Options.Depth (Claude's subagent transcripts are not followed).
//   - It does not persist offsets; Options.Start lets the caller resume
//     from an End it stored.
//   - It does not find the agent's processes: identity resolution is given
//     the pids (from the pane's foreground process group) and the cwd.
//     Threads reads the other processes (through procid.Table) only to
//     learn which conversations are live elsewhere (their open rollouts,
//     Claude's session records).
//   - It does not tell a Claude permission prompt from a question from
//     the transcript (both leave only a pending tool_use); the screen
//     does.
package watchers
