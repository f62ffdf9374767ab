package evidence

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"time"
)

// Agent names the coding agent whose file a line came from.
type Agent string

// FileID is a file's identity: device and inode. A path whose FileID
// changed is another file.
type FileID struct {
	Dev uint64
	Ino uint64
}

func (id FileID) String() string { return fmt.Sprintf("%d:%d", id.Dev, id.Ino) }

// Where locates an event: the file (path, identity and generation) and the
// byte range of the line it came from. Gen advances each time the path's
// byte stream restarts (truncated, replaced, deleted and recreated), so
// offsets are only comparable within one (File, Gen). Offset is the first
// byte of the line, End the byte after its newline. Path is the name the
// file had when it was opened for reading: a line read just as the file
// is renamed may carry the old name, and the FileRenamed event follows.
// Time is the record's own timestamp when it has one.
type Where struct {
	Agent  Agent
	Path   string
	File   FileID
	Gen    uint64
	Offset int64
	End    int64
	Time   time.Time
}

// At returns the event's location; every Event embeds a Where.
func (w Where) At() Where { return w }

// Event is one piece of evidence. The concrete types are the structs in
// this file; switch on them.
type Event interface {
	At() Where
}

// FileChange says what happened to a followed path.
type FileChange int

const (
	// FileAppeared: first sight of the path's file (at start, or created
	// later, or created again after a deletion).
	FileAppeared FileChange = iota + 1
	// FileTruncated: the file shrank below the offset already read, or the
	// bytes before that offset changed. Reading restarts at 0 in a new Gen.
	FileTruncated
	// FileReplaced: the path now names another file (device/inode changed:
	// atomic replace or rotation). Reading restarts at 0 in a new Gen.
	FileReplaced
	// FileDeleted: the path no longer exists.
	FileDeleted
	// FileRenamed: the followed file moved to Where.Path from OldPath in
	// the same directory; reading goes on at the same offset and Gen.
	FileRenamed
)

var fileChangeNames = [...]string{"", "appeared", "truncated", "replaced", "deleted", "renamed"}

func (c FileChange) String() string {
	if c > 0 && int(c) < len(fileChangeNames) {
		return fileChangeNames[c]
	}
	return fmt.Sprintf("FileChange(%d)", int(c))
}

// FileEvent reports a change of a followed path. Size is the new size (-1
// when unknown: a rewrite found by comparing bytes). Offset and End are the
// position reading resumes at (0 after a restart). OldOffset is how far
// the old byte stream had been read; Dropped counts the bytes of a torn
// last line that will never complete under the old identity.
type FileEvent struct {
	Where
	Change    FileChange
	OldPath   string
	OldFile   FileID
	OldGen    uint64
	OldOffset int64
	Size      int64
	Dropped   int
}

// SessionIdentity is the native session a file belongs to: Codex's
// session_meta, or the first Claude record carrying sessionId (again
// whenever sessionId, cwd or version change).
type SessionIdentity struct {
	Where
	SessionID string
	Cwd       string
	Version   string
}

// PromptAccepted is a user prompt the agent durably accepted. SHA256 is
// PromptHash of its text; the text itself is not kept. TurnID is the
// native turn (Codex turn_id, Claude: the prompt record's uuid).
type PromptAccepted struct {
	Where
	SessionID string
	Cwd       string
	TurnID    string
	SHA256    [32]byte
	Len       int
}

// TurnStarted: a native turn began (Codex task_started; Claude: the root
// prompt record).
type TurnStarted struct {
	Where
	TurnID string
}

// TurnCompleted: the native turn ended normally (Codex task_complete;
// Claude system/turn_duration). StopReason is Claude's stop_reason of the
// turn's last assistant line ("end_turn" for a finished answer).
// EndedWithText: the turn's last word is the agent's own text (Codex: a
// non-empty last_agent_message; Claude: the last assistant line is text
// with no tool call, stopped at end_turn) — a controller may answer it
// inside the same Turn. What the text says is never read.
type TurnCompleted struct {
	Where
	TurnID        string
	Duration      time.Duration
	StopReason    string
	EndedWithText bool
}

// ReplyEnded: the model's reply was written and, so far, made no call
// (Gemini CLI, whose file has no end of turn: a reply's calls are written
// only once they have run). The turn ended here if nothing of it follows
// while its screen rests; the file alone says so only at the next prompt
// (TurnCompleted then). Text: the reply is the agent's own text, not cut
// short. A reply cut short after it comes again with Text false.
type ReplyEnded struct {
	Where
	TurnID string
	Text   bool
}

// TurnAborted: the native turn was interrupted or its tool rejected (Codex
// turn_aborted; Claude's "[Request interrupted by user...]" markers).
type TurnAborted struct {
	Where
	TurnID string
	Reason string
}

// TurnFailed: the native turn ended in an error (Claude API error
// messages; Codex error events).
type TurnFailed struct {
	Where
	TurnID string
	Reason string
}

// ToolPending: the agent asked to run a tool; the result, if any, comes in
// a later ToolResult with the same CallID. While it is pending the agent
// may be waiting for an approval or an answer: the file alone does not
// say which (see ApprovalRequested).
type ToolPending struct {
	Where
	TurnID      string
	CallID      string
	Name        string
	InputSHA256 [32]byte
	// SecretQuestion: the call asks the user a question the agent itself
	// marks secret (Codex's request_user_input with a question's isSecret
	// set: its TUI masks only the typed Notes, the question looks the
	// same). Seed 000: such an answer is never relayed.
	SecretQuestion bool
}

// ToolResult: the result of a tool call. Rejected is set when the file
// says the user rejected it.
type ToolResult struct {
	Where
	TurnID   string
	CallID   string
	Name     string
	IsError  bool
	Rejected bool
}

// QuestionAnswered: a question tool (Claude AskUserQuestion, Codex
// request_user_input) got its answers. Questions counts the questions,
// Answered those with a non-empty answer; the text is not kept. A question
// declined with Esc is a rejected ToolResult instead.
type QuestionAnswered struct {
	Where
	TurnID    string
	CallID    string
	Questions int
	Answered  int
}

// ApprovalRequested: the file itself shows that the pending tool call
// needs the user's approval (Codex: a command asking for escalated sandbox
// permissions under an approval policy that asks).
type ApprovalRequested struct {
	Where
	TurnID string
	CallID string
	Name   string
	Reason string
}

// Malformed: a complete line that could not be read as a record. Err
// wraps ErrMalformed or ErrLineTooLong.
type Malformed struct {
	Where
	Err error
}

// Rescanned: the Watcher re-listed its directories and re-read every file
// (after an fsnotify overflow). Err says why.
type Rescanned struct {
	Where
	Err error
}

// WatchError: fsnotify or the file system reported an error that did not
// stop the Watcher.
type WatchError struct {
	Where
	Err error
}

// PromptHash is the SHA-256 of a prompt's text with trailing white space
// removed: what a Send hashes before input and what the parsers hash from
// the file.
func PromptHash(text string) [32]byte {
	return sha256.Sum256([]byte(strings.TrimRight(text, " \t\r\n")))
}

// FileIDOf is the identity of the file fi describes (zero when the file
// system gives none).
func FileIDOf(fi fs.FileInfo) FileID {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return FileID{Dev: uint64(sys.Dev), Ino: sys.Ino}
	}
	return FileID{}
}
