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
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Native identity answers "which native session is this pane's agent
// writing?" from the file system alone, with the evidence behind the
// answer. Codex: the native codex binary (a child of the npm Node launcher)
// holds its rollout open, so /proc/<pid>/fd names it. Claude: the
// transcripts under ~/.claude/projects/*/ are matched by the sessionId and
// cwd their records carry (never by the directory slug alone) and by
// having been appended since the process started.

// NativeIdentity is the answer and its evidence. The session fields are
// set when State is Resolved.
type NativeIdentity struct {
	State     contract.Identity
	Agent     evidence.Agent
	SessionID string
	Cwd       string
	Version   string
	Path      string
	File      evidence.FileID
	// Reason says in words why the state holds.
	Reason string
	// Candidates are the files considered that fit (for Resolved, the
	// one; for Ambiguous, all of them).
	Candidates []Candidate
	// Checked counts the files or descriptors examined.
	Checked int
}

// Candidate is one file that may hold the native session.
type Candidate struct {
	Path      string
	File      evidence.FileID
	Size      int64
	ModTime   time.Time
	SessionID string
	Cwd       string
	Version   string
	// Codex: the process and descriptor holding the rollout open.
	PID, FD int
	Deleted bool
	// Claude: the offset of the record whose sessionId and cwd matched.
	Offset int64
}

// CodexQuery names the processes to inspect.
type CodexQuery struct {
	// PIDs are the pane's agent processes (the Node launcher, the native
	// binary, or both); their descendants are inspected too.
	PIDs []int
	// SessionsRoot is $CODEX_HOME/sessions.
	SessionsRoot string
	// Quiet are rollouts the process left (a native thread transition,
	// or a binding reconcile_binding detached): Codex keeps every rollout
	// it wrote open until it exits, so an open one is a candidate only
	// once it grows past the size given.
	Quiet map[string]int64
}

// ResolveCodex finds the rollouts the processes hold open. The error is
// only for a cancelled ctx or a query without PIDs; everything else is a
// state.
func ResolveCodex(ctx context.Context, q CodexQuery) (NativeIdentity, error) {
	id := NativeIdentity{Agent: evidence.Codex}
	if len(q.PIDs) == 0 {
		return id, fmt.Errorf("watchers: resolve codex: no pids: %w", ErrProc)
	}
	root, err := filepath.EvalSymlinks(q.SessionsRoot)
	if err != nil {
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("sessions root: %v", err)
		return id, nil
	}
	pids := procid.Descendants(q.PIDs)
	alive, left := 0, 0
	seen := map[evidence.FileID]bool{}
	for _, pid := range pids {
		if err := ctx.Err(); err != nil {
			return id, err
		}
		cands, n, err := openRollouts(pid, root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		alive++
		id.Checked += n
		if err != nil {
			id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("pid %d: %v", pid, err)
			return id, nil
		}
		for _, c := range cands {
			if n, quiet := q.Quiet[c.Path]; quiet && !c.Deleted && c.Size <= n {
				left++
				continue
			}
			if !seen[c.File] {
				seen[c.File] = true
				id.Candidates = append(id.Candidates, c)
			}
		}
	}
	id = decideCodex(id, alive)
	if left > 0 {
		id.Reason += fmt.Sprintf(" (%d left conversations' rollouts open, unchanged)", left)
	}
	return id, nil
}

func decideCodex(id NativeIdentity, alive int) NativeIdentity {
	switch {
	case alive == 0:
		id.State, id.Reason = contract.IdentityUnavailable, "no process left"
	case len(id.Candidates) == 0:
		id.State, id.Reason = contract.IdentityVerifiedAbsent, fmt.Sprintf("%d descriptors of %d processes, no rollout open", id.Checked, alive)
	case len(id.Candidates) > 1:
		id.State, id.Reason = contract.IdentityAmbiguous, fmt.Sprintf("%d rollouts open", len(id.Candidates))
	case id.Candidates[0].Deleted:
		id.State, id.Reason = contract.IdentityUnavailable, "the open rollout was deleted"
	case id.Candidates[0].SessionID == "":
		id.State, id.Reason = contract.IdentityUnavailable, "the open rollout has no readable session_meta"
	default:
		c := id.Candidates[0]
		id.State, id.Reason = contract.IdentityResolved, fmt.Sprintf("pid %d holds the rollout open on fd %d", c.PID, c.FD)
		id.SessionID, id.Cwd, id.Version, id.Path, id.File = c.SessionID, c.Cwd, c.Version, c.Path, c.File
	}
	return id
}

// openRollouts lists the rollout files under root that pid has open.
func openRollouts(pid int, root string) ([]Candidate, int, error) {
	fds, total, err := procid.OpenFDs(pid)
	if err != nil {
		return nil, 0, err
	}
	var out []Candidate
	for _, fd := range fds {
		if c, ok := rolloutCandidate(pid, fd, root); ok {
			out = append(out, c)
		}
	}
	return out, total, nil
}

// rolloutCandidate is the rollout fd holds open, if it is one under
// root. A descriptor that can no longer be opened was closed meanwhile,
// or its process exited (an exec child of Codex that inherited the
// rollout, ending as the binder looks): it holds nothing. Counted, its
// unknown file made a second rollout, and the binding went ambiguous for
// one pass (seen live: a Watch invalidated with binding_changed right
// after an approved exec).
func rolloutCandidate(pid int, fd procid.FD, root string) (Candidate, bool) {
	name := filepath.Base(fd.Target)
	if !strings.HasPrefix(fd.Target, root+string(filepath.Separator)) || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
		return Candidate{}, false
	}
	c := Candidate{Path: fd.Target, PID: pid, FD: fd.N, Deleted: fd.Deleted}
	if err := codexMeta(fd.Path, &c); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
			return Candidate{}, false
		}
		c.SessionID = ""
	}
	return c, true
}

// codexMeta reads the session_meta header through the process's own
// descriptor link (which reaches the open file even if it was replaced).
func codexMeta(fdPath string, c *Candidate) error {
	f, err := os.Open(fdPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := fstat(f)
	if err != nil {
		return err
	}
	c.File, c.Size = st.ID, st.Size
	if fi, err := f.Stat(); err == nil {
		c.ModTime = fi.ModTime()
	}
	line, err := firstLine(f, DefaultMaxLine)
	if err != nil {
		return err
	}
	for _, ev := range NewCodexParser().Parse(evidence.Where{Agent: evidence.Codex, Path: c.Path, File: c.File}, line, nil) {
		if si, ok := ev.(evidence.SessionIdentity); ok {
			c.SessionID, c.Cwd, c.Version = si.SessionID, si.Cwd, si.Version
			return nil
		}
	}
	return fmt.Errorf("%s: first line is not session_meta: %w", c.Path, evidence.ErrMalformed)
}

// firstLine reads the first line (at most limit bytes). A line longer than
// the reader's buffer comes in pieces, each copied before the next read
// overwrites it (Codex's session_meta is ~20 KB: base instructions).
func firstLine(r io.Reader, limit int) ([]byte, error) {
	br := bufio.NewReader(io.LimitReader(r, int64(limit)+1))
	var line []byte
	for {
		piece, err := br.ReadSlice('\n')
		line = append(line, piece...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("first line: %w", err)
		}
		return bytes.TrimSuffix(line, []byte("\n")), nil
	}
}

// ClaudeQuery describes the pane's Claude process.
type ClaudeQuery struct {
	// ProjectsRoot is ~/.claude/projects.
	ProjectsRoot string
	// Cwd is the process's working directory (as /proc/<pid>/cwd gives it).
	Cwd string
	// SessionID, when known from elsewhere, must match too.
	SessionID string
	// Exclude are sessions that are not candidates (the conversation a
	// new-thread transition left).
	Exclude []string
	// Quiet are transcripts that are not candidates by their appends
	// since Since while they are no longer than the size given (the
	// bookkeeping Claude writes into a conversation it leaves).
	Quiet map[string]int64
	// PIDs are the pane's agent processes: a session record of one of
	// them (SessionRecord) names its session exactly.
	PIDs []int
	// Since is when the process started: only transcripts appended since
	// belong to it (zero: any).
	Since time.Time
	// TailBytes bounds how much of each file's end is read for its last
	// record (0: 64 KiB); HeadBytes bounds the fallback scan from the
	// start (0: 1 MiB).
	TailBytes, HeadBytes int64
}

// ResolveClaude scans every project directory for transcripts whose
// records carry the query's cwd (and sessionId when given) and that were
// appended since the process started.
func ResolveClaude(ctx context.Context, q ClaudeQuery) (NativeIdentity, error) {
	if rec, pid, ok := registeredSession(q); ok && (q.SessionID == "" || q.SessionID == rec.SessionID) {
		return resolveRegistered(ctx, q, rec, pid)
	}
	id := NativeIdentity{Agent: evidence.Claude}
	dirs, err := os.ReadDir(q.ProjectsRoot)
	if errors.Is(err, fs.ErrNotExist) {
		id.State, id.Reason = contract.IdentityVerifiedAbsent, "no projects directory: no transcript was ever written"
		return id, nil
	}
	if err != nil {
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("projects root: %v", err)
		return id, nil
	}
	cwd := filepath.Clean(q.Cwd)
	var unreadable []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(q.ProjectsRoot, d.Name()))
		if err != nil {
			unreadable = append(unreadable, d.Name())
			continue
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return id, err
			}
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".jsonl") {
				continue
			}
			path := filepath.Join(q.ProjectsRoot, d.Name(), f.Name())
			c, ok, err := claudeCandidate(path, q)
			id.Checked++
			if err != nil {
				unreadable = append(unreadable, path)
				continue
			}
			if q.Quiet != nil && ok {
				if n, quiet := q.Quiet[path]; quiet && c.Size <= n {
					continue
				}
			}
			if ok && filepath.Clean(c.Cwd) == cwd && (q.SessionID == "" || c.SessionID == q.SessionID) && !slices.Contains(q.Exclude, c.SessionID) {
				id.Candidates = append(id.Candidates, c)
			}
		}
	}
	slices.SortFunc(id.Candidates, func(a, b Candidate) int { return b.ModTime.Compare(a.ModTime) })
	return decideClaude(id, unreadable), nil
}

// registeredSession is the session record (~/.claude/sessions/<pid>.json,
// beside the projects root) of one of q's processes that is alive with the
// start time it recorded: Claude Code 2.1.267 and 2.1.332 keep it, and
// rewrite its sessionId at /clear and /resume (measured: watchers/threads.go).
func registeredSession(q ClaudeQuery) (claudeSessionRecord, int, bool) {
	if len(q.PIDs) == 0 || q.ProjectsRoot == "" {
		return claudeSessionRecord{}, 0, false
	}
	dir := filepath.Join(filepath.Dir(q.ProjectsRoot), "sessions")
	for _, pid := range procid.Descendants(q.PIDs) {
		rec, ok := readSessionRecord(filepath.Join(dir, strconv.Itoa(pid)+".json"))
		if !ok || rec.PID != pid || rec.SessionID == "" || filepath.Clean(rec.Cwd) != filepath.Clean(q.Cwd) {
			continue
		}
		st, err := procid.ReadStat(pid)
		if err != nil || rec.ProcStart != strconv.FormatUint(st.StartTime, 10) {
			continue // left by an earlier process with this pid
		}
		return rec, pid, true
	}
	return claudeSessionRecord{}, 0, false
}

// resolveRegistered finds the transcript of the session the process's
// record names: resolved when exactly one carries its id and cwd,
// verified absent before its first record is written.
func resolveRegistered(ctx context.Context, q ClaudeQuery, rec claudeSessionRecord, pid int) (NativeIdentity, error) {
	id := NativeIdentity{Agent: evidence.Claude}
	if !safeName(rec.SessionID) {
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("pid %d's session record names no usable session id", pid)
		return id, nil
	}
	dirs, err := os.ReadDir(q.ProjectsRoot)
	if errors.Is(err, fs.ErrNotExist) {
		id.State, id.Reason = contract.IdentityVerifiedAbsent, fmt.Sprintf("pid %d's session record names session %s; no projects directory yet", pid, rec.SessionID)
		return id, nil
	}
	if err != nil {
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("projects root: %v", err)
		return id, nil
	}
	// The transcript is <sessionId>.jsonl in its project's directory: only
	// those names are read, not every transcript of every project.
	kq := ClaudeQuery{Cwd: q.Cwd, SessionID: rec.SessionID, TailBytes: q.TailBytes, HeadBytes: q.HeadBytes}
	cwd := filepath.Clean(q.Cwd)
	var unreadable []string
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return id, err
		}
		if !d.IsDir() {
			continue
		}
		path := filepath.Join(q.ProjectsRoot, d.Name(), rec.SessionID+".jsonl")
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		c, ok, err := claudeCandidate(path, kq)
		id.Checked++
		if err != nil {
			unreadable = append(unreadable, path)
			continue
		}
		if ok && filepath.Clean(c.Cwd) == cwd && c.SessionID == rec.SessionID {
			id.Candidates = append(id.Candidates, c)
		}
	}
	id = decideClaude(id, unreadable)
	switch id.State {
	case contract.IdentityResolved:
		id.Reason = fmt.Sprintf("pid %d's session record names it, and its transcript carries its id and cwd", pid)
	case contract.IdentityVerifiedAbsent:
		id.Reason = fmt.Sprintf("pid %d's session record names session %s, which has no transcript yet", pid, rec.SessionID)
	}
	return id, nil
}

// safeName: a session id that names a file and nothing else.
func safeName(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, "/\\\x00")
}

func decideClaude(id NativeIdentity, unreadable []string) NativeIdentity {
	switch {
	case len(id.Candidates) == 1 && len(unreadable) == 0:
		c := id.Candidates[0]
		id.State, id.Reason = contract.IdentityResolved, fmt.Sprintf("one transcript with this cwd appended since the process started (record at %d)", c.Offset)
		id.SessionID, id.Cwd, id.Version, id.Path, id.File = c.SessionID, c.Cwd, c.Version, c.Path, c.File
	case len(id.Candidates) > 0:
		id.State, id.Reason = contract.IdentityAmbiguous, fmt.Sprintf("%d transcripts fit, %d unreadable", len(id.Candidates), len(unreadable))
	case len(unreadable) > 0:
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("%d unreadable, e.g. %s", len(unreadable), unreadable[0])
	default:
		id.State, id.Reason = contract.IdentityVerifiedAbsent, fmt.Sprintf("%d transcripts read, none with this cwd appended since the process started", id.Checked)
	}
	return id
}

// claudeCandidate reads the identity of one transcript from its last
// record that carries sessionId (or, failing that, its first). ok is
// false for a file not appended since q.Since or without such a record.
func claudeCandidate(path string, q ClaudeQuery) (Candidate, bool, error) {
	f, st, err := openStat(path)
	if err != nil || f == nil {
		return Candidate{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Candidate{}, false, err
	}
	c := Candidate{Path: path, File: st.ID, Size: st.Size, ModTime: fi.ModTime()}
	if !q.Since.IsZero() && fi.ModTime().Before(q.Since) {
		return c, false, nil
	}
	tail := cmp.Or(q.TailBytes, 64<<10)
	from := max(0, st.Size-tail)
	if found, err := lastClaudeIdentity(f, from, st.Size, &c); err != nil || found {
		return c, found, err
	}
	if from == 0 {
		return c, false, nil
	}
	found, err := lastClaudeIdentity(f, 0, min(st.Size, cmp.Or(q.HeadBytes, 1<<20)), &c)
	return c, found, err
}

// lastClaudeIdentity reads [from, to) and keeps the last SessionIdentity
// of its complete lines (the first line is skipped when from is not 0: it
// may be torn).
func lastClaudeIdentity(f *os.File, from, to int64, c *Candidate) (bool, error) {
	buf := make([]byte, to-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	buf = buf[:n]
	off := from
	if from > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return false, nil
		}
		buf, off = buf[i+1:], from+int64(i)+1
	}
	p := NewClaudeParser()
	var evs []evidence.Event
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		evs = p.Parse(evidence.Where{Agent: evidence.Claude, Path: c.Path, File: c.File, Offset: off}, buf[:i], evs)
		buf, off = buf[i+1:], off+int64(i)+1
	}
	// Records whose parents lie before the window are held: let them go.
	found := false
	for _, ev := range p.Flush(evs) {
		if si, ok := ev.(evidence.SessionIdentity); ok && si.Cwd != "" && si.Offset >= c.Offset {
			c.SessionID, c.Cwd, c.Version, c.Offset = si.SessionID, si.Cwd, si.Version, si.Offset
			found = true
		}
	}
	return found, nil
}
