package watchers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Native identity answers "which native session is this pane's agent
// writing?" from the file system alone, with the evidence behind the
// answer. Each agent's folder resolves it its own way (agents/*/resolve.go):
// Codex's native binary holds its rollout open, so /proc/<pid>/fd names
// it; Claude Code's transcripts are matched by the sessionId and cwd their
// records carry and by having been appended since the process started.

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

// DecideSessions turns the candidates of a search by cwd and start time
// (the agents whose process holds no record open) into a state: one
// candidate is resolved, several ambiguous, none with files that could not
// be read unavailable, none verified absent. what names the sessions in
// the reason ("main session").
func DecideSessions(id NativeIdentity, cwd, what string, unreadable []string) NativeIdentity {
	switch {
	case len(id.Candidates) == 1:
		c := id.Candidates[0]
		id.State, id.SessionID, id.Cwd, id.Path, id.File = contract.IdentityResolved, c.SessionID, c.Cwd, c.Path, c.File
		id.Reason = "the one " + what + " of " + cwd + " started or appended since the process started"
	case len(id.Candidates) > 1:
		id.State, id.Reason = contract.IdentityAmbiguous, fmt.Sprintf("%d sessions of %s started or appended since the process started", len(id.Candidates), cwd)
	case len(unreadable) > 0:
		id.State, id.Reason = contract.IdentityUnavailable, "unreadable: "+strings.Join(unreadable, ", ")
	default:
		id.State, id.Reason = contract.IdentityVerifiedAbsent, fmt.Sprintf("no %s of %s since the process started (%d files read)", what, cwd, id.Checked)
	}
	return id
}

// ReadRoot lists an agent's records root (a directory) for a resolution.
// A root that does not exist yet is verified absent, absent saying why
// (nothing was ever written); one that cannot be read is unavailable, what
// naming it in the reason. ok is false in both cases, the state then set
// in the id returned.
func ReadRoot(id NativeIdentity, root, what, absent string) (entries []os.DirEntry, _ NativeIdentity, ok bool) {
	entries, err := os.ReadDir(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		id.State, id.Reason = contract.IdentityVerifiedAbsent, absent
	case err != nil:
		id.State, id.Reason = contract.IdentityUnavailable, fmt.Sprintf("%s: %v", what, err)
	}
	return entries, id, err == nil
}

// RecordSearch is a resolution's search of an agent's record files by
// cwd and start time: the identity it builds (files checked, candidates)
// and the files it could not read.
type RecordSearch struct {
	ID         NativeIdentity
	Unreadable []string
}

// Check checks each record file among a directory's entries (isRecord
// names one) with check, counting each; the candidates check accepts are
// kept, the files it cannot read listed unreadable. Only a cancelled ctx
// stops it, with its error.
func (s *RecordSearch) Check(ctx context.Context, dir string, entries []os.DirEntry, isRecord func(name string) bool,
	check func(path string) (Candidate, bool, error)) error {
	for _, f := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.IsDir() || !isRecord(f.Name()) {
			continue
		}
		path := filepath.Join(dir, f.Name())
		c, ok, err := check(path)
		s.ID.Checked++
		switch {
		case err != nil:
			s.Unreadable = append(s.Unreadable, path)
		case ok:
			s.ID.Candidates = append(s.ID.Candidates, c)
		}
	}
	return nil
}

// NewestFirst orders candidates by their files' modification time, the
// newest first.
func NewestFirst(cs []Candidate) {
	slices.SortFunc(cs, func(a, b Candidate) int { return b.ModTime.Compare(a.ModTime) })
}

// startSlack allows for the coarse clock of a process's start (ticks of
// 10 ms) against a record header's milliseconds.
const startSlack = time.Second

// HeaderLine opens a record file and reads its first line (at most 4 KiB,
// a header's room), with the file's info. line is nil while the file's
// first line is not whole yet: no session to bind.
func HeaderLine(path string) (fi fs.FileInfo, line []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, nil, err
	}
	line, err = bufio.NewReaderSize(f, 4096).ReadSlice('\n')
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
		return fi, nil, nil
	}
	return fi, line, nil
}

// WrittenSince says whether a record file belongs to a process started at
// since: its header's start time (RFC 3339) or its last write is not
// before it. A zero since admits any.
func WrittenSince(since time.Time, start string, mod time.Time) bool {
	if since.IsZero() {
		return true
	}
	since = since.Add(-startSlack)
	started, err := time.Parse(time.RFC3339Nano, start)
	return err == nil && !started.Before(since) || !mod.Before(since)
}
