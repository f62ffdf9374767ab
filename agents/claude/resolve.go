package claude

import (
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
	"time"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// query describes the pane's Claude process.
type query struct {
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

// resolve scans every project directory for transcripts whose
// records carry the query's cwd (and sessionId when given) and that were
// appended since the process started.
func resolve(ctx context.Context, q query) (watchers.NativeIdentity, error) {
	if rec, pid, ok := registeredSession(q); ok && (q.SessionID == "" || q.SessionID == rec.SessionID) {
		return resolveRegistered(ctx, q, rec, pid)
	}
	dirs, id, ok := watchers.ReadRoot(watchers.NativeIdentity{Agent: transcript.Agent}, q.ProjectsRoot,
		"projects root", "no projects directory: no transcript was ever written")
	if !ok {
		return id, nil
	}
	cwd := filepath.Clean(q.Cwd)
	check := func(path string) (watchers.Candidate, bool, error) {
		c, ok, err := candidate(path, q)
		if err != nil || !ok {
			return c, false, err
		}
		if n, quiet := q.Quiet[path]; quiet && c.Size <= n {
			return c, false, nil
		}
		return c, filepath.Clean(c.Cwd) == cwd && (q.SessionID == "" || c.SessionID == q.SessionID) && !slices.Contains(q.Exclude, c.SessionID), nil
	}
	s := watchers.RecordSearch{ID: id}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(q.ProjectsRoot, d.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			s.Unreadable = append(s.Unreadable, d.Name())
			continue
		}
		if err := s.Check(ctx, dir, files, transcript.IsRecord, check); err != nil {
			return s.ID, err
		}
	}
	watchers.NewestFirst(s.ID.Candidates)
	return decide(s.ID, s.Unreadable), nil
}

// registeredSession is the session record (~/.claude/sessions/<pid>.json,
// beside the projects root) of one of q's processes that is alive with the
// start time it recorded: Claude Code 2.1.267 and 2.1.332 keep it, and
// rewrite its sessionId at /clear and /resume (measured: threads.go).
func registeredSession(q query) (sessionRecord, int, bool) {
	if len(q.PIDs) == 0 || q.ProjectsRoot == "" {
		return sessionRecord{}, 0, false
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
	return sessionRecord{}, 0, false
}

// resolveRegistered finds the transcript of the session the process's
// record names: resolved when exactly one carries its id and cwd,
// verified absent before its first record is written.
func resolveRegistered(ctx context.Context, q query, rec sessionRecord, pid int) (watchers.NativeIdentity, error) {
	id := watchers.NativeIdentity{Agent: transcript.Agent}
	if !safeName(rec.SessionID) {
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("pid %d's session record names no usable session id", pid)
		return id, nil
	}
	dirs, id, ok := watchers.ReadRoot(id, q.ProjectsRoot,
		"projects root", fmt.Sprintf("pid %d's session record names session %s; no projects directory yet", pid, rec.SessionID))
	if !ok {
		return id, nil
	}
	// The transcript is <sessionId>.jsonl in its project's directory: only
	// those names are read, not every transcript of every project.
	kq := query{Cwd: q.Cwd, SessionID: rec.SessionID, TailBytes: q.TailBytes, HeadBytes: q.HeadBytes}
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
		c, ok, err := candidate(path, kq)
		id.Checked++
		if err != nil {
			unreadable = append(unreadable, path)
			continue
		}
		if ok && filepath.Clean(c.Cwd) == cwd && c.SessionID == rec.SessionID {
			id.Candidates = append(id.Candidates, c)
		}
	}
	id = decide(id, unreadable)
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

func decide(id watchers.NativeIdentity, unreadable []string) watchers.NativeIdentity {
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

// candidate reads the identity of one transcript from its last
// record that carries sessionId (or, failing that, its first). ok is
// false for a file not appended since q.Since or without such a record.
func candidate(path string, q query) (watchers.Candidate, bool, error) {
	f, st, err := watchers.OpenStat(path)
	if err != nil || f == nil {
		return watchers.Candidate{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return watchers.Candidate{}, false, err
	}
	c := watchers.Candidate{Path: path, File: st.ID, Size: st.Size, ModTime: fi.ModTime()}
	if !q.Since.IsZero() && fi.ModTime().Before(q.Since) {
		return c, false, nil
	}
	tail := cmp.Or(q.TailBytes, 64<<10)
	from := max(0, st.Size-tail)
	if found, err := lastIdentity(f, from, st.Size, &c); err != nil || found {
		return c, found, err
	}
	if from == 0 {
		return c, false, nil
	}
	found, err := lastIdentity(f, 0, min(st.Size, cmp.Or(q.HeadBytes, 1<<20)), &c)
	return c, found, err
}

// lastIdentity reads [from, to) and keeps the last SessionIdentity
// of its complete lines (the first line is skipped when from is not 0: it
// may be torn).
func lastIdentity(f *os.File, from, to int64, c *watchers.Candidate) (bool, error) {
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
	p := transcript.NewParser()
	var evs []evidence.Event
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		evs = p.Parse(evidence.Where{Agent: transcript.Agent, Path: c.Path, File: c.File, Offset: off}, buf[:i], evs)
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

// sessionRecord is a ~/.claude/sessions/<pid>.json record.
type sessionRecord struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	ProcStart string `json:"procStart"`
	PIDDomain string `json:"pidDomain"`
}

// readSessionRecord reads a session record (bounded: 64 KiB).
func readSessionRecord(path string) (sessionRecord, bool) {
	var rec sessionRecord
	data, err := watchers.ReadBounded(path, 64<<10)
	return rec, err == nil && evidence.Decode(data, &rec) == nil
}
