package watchers

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Threads lists the earlier conversations a controller may resume in a
// pane (issue 21, seed 003 "Native Thread Transitions"): the agent's own
// transcripts or rollouts of the same workspace, newest first, without
// the pane's current one, those archived and those another process is
// live in. The rules, and what the agents really do (Claude Code 2.1.267
// and 2.1.332, Codex 0.155.1 and 0.171.0, measured with the rig):
//
//   - Same workspace: the cwd the records carry (Claude: the first record
//     with one; Codex: session_meta) equals the query's after
//     filepath.Clean. The project directory's slug alone never decides
//     (Claude's own picker drops "a different directory with the same
//     project slug" too).
//   - Not archived. `codex archive <id>` (the picker's ctrl+a and the
//     /archive command offer the same) renames the rollout, unchanged,
//     from sessions/YYYY/MM/DD/ to $CODEX_HOME/archived_sessions/ (flat);
//     `codex unarchive <id>` moves it back. The file's place is the mark (its state DB
//     row says archived too; Codex's doctor holds the place as the truth).
//     Claude Code moves no transcript; 2.1.332's picker knows an
//     "archived" session mark that no run here produced, and it is not
//     read.
//   - Not live in another process. Codex: a process other than the pane's
//     (Self and its descendants) holds the rollout open, read from
//     /proc/<pid>/fd as ResolveCodex does. Both versions keep every
//     rollout they wrote open until they exit: the thread a Codex left
//     with /new still counts as live in it. Claude: both versions keep a
//     registry, ~/.claude/sessions/<pid>.json, {"pid", "sessionId", "cwd",
//     "procStart", "pidDomain", ...}, written at start, rewritten when
//     /clear or /resume changes the session, removed at exit; a record
//     counts when its process is alive with the same start time
//     (procStart is /proc/<pid>/stat's starttime), so one left by a killed
//     process does not. A live claude process in the same cwd without a
//     valid record (an older version) makes every transcript appended in
//     the last few seconds count as live in it (agents/claude).
//   - Not the current one (Exclude).
//   - Newest first by Updated (the last record's timestamp, else the
//     file's mtime), at most Limit.
//
// The Title is what the agent's own picker shows, trimmed, on one line,
// at most MaxTitleRunes runes, never the assistant's text. Claude: the last
// custom-title (/rename), else the last ai-title (2.1.267 asks the model
// for one), else the last last-prompt record's lastPrompt (2.1.332 writes
// it once, after the first turn: the first meaningful prompt), else the
// first prompt, else the first slash command (a transcript begun by
// /clear shows "/clear"). Codex: the thread's last name in
// $CODEX_HOME/session_index.jsonl (/rename; 0.171.0 also names every
// thread after its first prompt), else the first user prompt.
//
// A file that is empty, torn (its last line has no newline yet), not a
// regular file, unreadable, without an id and cwd, whose id is not its
// file name's, or without any prompt (nothing was said) gives no thread.
//
// Limits: only the head (threadHead) and tail (threadTail) of each file
// are read, as Claude's picker does, so a title record in the middle of a
// long transcript is missed; processes whose descriptors this user cannot
// read (another user's) are not seen holding anything; a Claude record
// from another pid namespace cannot be checked and counts as live;
// Claude's other picker filters (team, daemon and /loop sessions) and
// Codex's (exec and sub-agent threads) are not applied; Codex's state DB
// (state_5.sqlite: archived flag, title, name) is not read, its files
// and session index are.

// ThreadFormat is an agent's conversations as Threads reads them: where
// its record files lie, what a line says, and who else is live in one.
// Each agent's folder implements it; the listing names no agent.
type ThreadFormat interface {
	// Files lists its record files under q's roots, those archived marked.
	Files(q ThreadQuery) ([]ThreadFile, error)
	// Line reads one record line (never a blank one); a line that is not
	// a record says nothing.
	Line(line []byte) evidence.ThreadLine
	// Owns says whether a record file's base name (without .jsonl) is the
	// one of session id: a file whose name is another's gives no thread.
	Owns(base, id string) bool
	// Names are the names the agent keeps of its conversations outside
	// their records, by id (nil: none); a name comes before any title.
	Names(q ThreadQuery) map[string]string
	// MarkLive flags the threads another process than q.Self is live in
	// and says, of each, what the answer rests on (Thread.Why).
	MarkLive(threads []Thread, procs *procid.Table, q ThreadQuery, now time.Time)
}

// ThreadFile is one record file a ThreadFormat lists.
type ThreadFile struct {
	Path     string
	Archived bool
}

// ThreadQuery says whose conversations to list.
type ThreadQuery struct {
	Agent evidence.Agent
	// Root is ~/.claude/projects (Claude) or $CODEX_HOME/sessions (Codex).
	// Claude's registry is read from Root's sibling "sessions", Codex's
	// thread names from Root's sibling "session_index.jsonl".
	Root string
	// ArchivedRoot is $CODEX_HOME/archived_sessions ("": not read).
	ArchivedRoot string
	// Cwd is the pane's agent's working directory.
	Cwd string
	// Exclude is the pane's current native session id.
	Exclude string
	// Self are the pane's agent processes; they and their descendants
	// are not "another process".
	Self []int
	// Limit bounds the answer (0: 20).
	Limit int
	// Procfs is the proc file system ("": /proc).
	Procfs string
	// Unresumable lists archived threads and threads live in another
	// process too, flagged, instead of leaving them out.
	Unresumable bool
}

// Thread is one conversation the agent could resume.
type Thread struct {
	// ID is the native session id: what the agent's resume takes.
	ID    string
	Title string
	Path  string
	// File, Size and ModTime are the file as it was read; Unchanged says
	// whether it still is.
	File    evidence.FileID
	Size    int64
	ModTime time.Time
	// Updated is the last record's timestamp, or ModTime.
	Updated time.Time
	// Archived: a Codex rollout under archived_sessions.
	Archived bool
	// ActiveElsewhere: another process is live in it.
	ActiveElsewhere bool
	// Why says in words what the listing rests on.
	Why string
}

// Unchanged says whether t's path still names the file that was read,
// with the same size and mtime: not replaced, moved (archived), appended
// to or rewritten since.
func (t Thread) Unchanged() bool {
	fi, err := os.Lstat(t.Path)
	if err != nil {
		return false
	}
	st := statOf(fi)
	return st.ID == t.File && st.Size == t.Size && fi.ModTime().Equal(t.ModTime)
}

// SameFile says whether t's path still names the file that was read
// (it may have grown: a resumed conversation appends to its own file).
func (t Thread) SameFile() bool {
	fi, err := os.Lstat(t.Path)
	return err == nil && statOf(fi).ID == t.File && fi.Size() >= t.Size
}

const (
	defaultThreadLimit = 20
	// MaxTitleRunes bounds a Title.
	MaxTitleRunes = 80
	// threadHead and threadTail bound what is read of each file.
	threadHead = 1 << 20
	threadTail = 256 << 10
)

// Threads lists q.Agent's resumable conversations of q.Cwd, read in its
// format f. The error is for a bad query, a cancelled ctx or a Root that
// cannot be read; a missing Root lists nothing.
func Threads(ctx context.Context, q ThreadQuery, f ThreadFormat) ([]Thread, error) {
	if f == nil || q.Root == "" || q.Cwd == "" {
		return nil, fmt.Errorf("watchers: threads: agent %q, root %q, cwd %q: %w", q.Agent, q.Root, q.Cwd, ErrOptions)
	}
	q.Cwd = filepath.Clean(q.Cwd)
	q.Limit = cmp.Or(max(q.Limit, 0), defaultThreadLimit)
	files, err := f.Files(q)
	if err != nil {
		return nil, fmt.Errorf("watchers: threads: %w", err)
	}
	names := f.Names(q)
	byID := map[string]Thread{}
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, ok := readThread(f, file.Path, q.Cwd, names)
		if !ok || t.ID == q.Exclude {
			continue
		}
		t.Archived = file.Archived
		if old, dup := byID[t.ID]; !dup || preferred(t, old) {
			byID[t.ID] = t
		}
	}
	threads := slices.Collect(maps.Values(byID))
	if len(threads) > 0 {
		f.MarkLive(threads, &procid.Table{Root: q.Procfs}, q, time.Now())
	}
	threads = slices.DeleteFunc(threads, func(t Thread) bool {
		return !q.Unresumable && (t.Archived || t.ActiveElsewhere)
	})
	slices.SortFunc(threads, func(a, b Thread) int {
		return cmp.Or(b.Updated.Compare(a.Updated), strings.Compare(a.Path, b.Path))
	})
	return threads[:min(len(threads), q.Limit)], nil
}

// preferred: of two files of one id (a copy left in sessions and
// archived_sessions), the one not archived, else the newer.
func preferred(a, b Thread) bool {
	if a.Archived != b.Archived {
		return !a.Archived
	}
	return a.Updated.After(b.Updated)
}

// WalkDepth calls file for every non-directory entry depth directories
// below root. A missing root is empty; an unreadable one an error; an
// unreadable directory below it is skipped.
func WalkDepth(root string, depth int, file func(string)) error {
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		switch {
		case e.IsDir() && depth > 0:
			_ = WalkDepth(p, depth-1, file)
		case !e.IsDir() && depth == 0:
			file(p)
		}
	}
	return nil
}

// readThread reads one journal's identity, title and last timestamp from
// its head and tail. ok is false for a file that gives no thread (see
// Threads), or one of another cwd.
func readThread(format ThreadFormat, path, cwd string, names map[string]string) (Thread, bool) {
	f, st, err := OpenStat(path)
	if err != nil || f == nil {
		return Thread{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || st.Size == 0 {
		return Thread{}, false
	}
	t := Thread{Path: path, File: st.ID, Size: st.Size, ModTime: fi.ModTime()}
	var acc threadAcc
	head := min(st.Size, threadHead)
	torn, err := scanLines(f, 0, head, func(line []byte) bool {
		acc.add(format, line)
		return acc.cwd == "" || filepath.Clean(acc.cwd) == cwd
	})
	if err != nil || acc.id == "" || filepath.Clean(acc.cwd) != cwd {
		return Thread{}, false
	}
	if head < st.Size {
		torn, err = scanLines(f, max(head, st.Size-threadTail), st.Size, func(line []byte) bool {
			acc.add(format, line)
			return true
		})
		if err != nil {
			return Thread{}, false
		}
	}
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if torn || !format.Owns(base, acc.id) {
		return Thread{}, false
	}
	t.ID = acc.id
	t.Title = acc.title(names[acc.id])
	if t.Title == "" {
		return Thread{}, false
	}
	t.Updated = cmp.Or(acc.updated, t.ModTime)
	return t, true
}

// scanLines calls line for each complete line in [from, to) (a line
// begun before from is skipped) until it returns false. torn says the
// window ends inside a line: at the file's end, a line not finished yet.
// It reads in chunks, so a file of another cwd costs its first lines.
func scanLines(f io.ReaderAt, from, to int64, line func([]byte) bool) (torn bool, err error) {
	start := max(from-1, 0)
	br := bufio.NewReaderSize(io.NewSectionReader(f, start, to-start), 32<<10)
	skip := from > 0 // the rest of the line the byte before from ends or is in
	var long []byte  // a line longer than the reader's buffer, so far
	for {
		piece, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = append(long, piece...)
			continue
		case errors.Is(err, io.EOF):
			return len(long)+len(piece) > 0, nil
		case err != nil:
			return false, err
		}
		l := piece
		if long != nil {
			l, long = append(long, piece...), nil
		}
		if skip {
			skip = false
			continue
		}
		if !line(l[:len(l)-1]) {
			return false, nil
		}
	}
}

// threadAcc gathers a journal's lines, in file order.
type threadAcc struct {
	id, cwd                   string
	firstPrompt, firstCommand string
	titles                    [evidence.TitleRanks]string // the last of each rank
	updated                   time.Time
}

func (a *threadAcc) add(format ThreadFormat, line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	tl := format.Line(line)
	if a.id == "" && tl.ID != "" {
		a.id, a.cwd = tl.ID, tl.Cwd
	}
	if !tl.Time.IsZero() {
		a.updated = tl.Time
	}
	if a.firstPrompt == "" && strings.TrimSpace(tl.Prompt) != "" {
		a.firstPrompt = tl.Prompt
	}
	if a.firstCommand == "" {
		a.firstCommand = tl.Command
	}
	if tl.Title != "" && tl.TitleRank >= 0 && tl.TitleRank < evidence.TitleRanks {
		a.titles[tl.TitleRank] = tl.Title
	}
}

// title is what the agent's picker shows (see Threads): its name kept
// outside the record, else its best title, else its first prompt, else
// its first command.
func (a *threadAcc) title(name string) string {
	for _, s := range append(append([]string{name}, a.titles[:]...), a.firstPrompt, a.firstCommand) {
		if t := boundTitle(s); t != "" {
			return t
		}
	}
	return ""
}

// boundTitle puts s on one line of at most MaxTitleRunes runes: invalid
// UTF-8 and control characters become spaces, runs of space one, the
// ends trimmed, and a cut marked with "…".
func boundTitle(s string) string {
	s = strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, " "), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	}), " ")
	if utf8.RuneCountInString(s) <= MaxTitleRunes {
		return s
	}
	r := []rune(s)[:MaxTitleRunes-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}

// ReadBounded reads a regular file's last limit bytes (the whole file when
// smaller), without following a symlink.
func ReadBounded(path string, limit int64) ([]byte, error) {
	f, st, err := OpenStat(path)
	if err != nil || f == nil {
		return nil, cmp.Or(err, fs.ErrNotExist)
	}
	defer f.Close()
	from := max(0, st.Size-limit)
	buf := make([]byte, st.Size-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	buf = buf[:n]
	if from > 0 {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return buf, nil
}
