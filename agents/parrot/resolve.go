package parrot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/agent-knock-knock/akk/agents/parrot/sessions"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Parrot writes each session to <root>/<session>.jsonl when it starts,
// its header first: session, cwd, version and time. A process's session
// is the one of its cwd that started since the process did, or that it
// has appended to since; the file's name is never trusted.

// query names what a Parrot process's session is found by.
type query struct {
	Root  string // the sessions directory
	Cwd   string
	Since time.Time
	// Quiet are files that are not candidates while no longer than the
	// size given.
	Quiet map[string]int64
}

// header is a session file's first line.
type header struct {
	Type    string `json:"type"`
	Session string `json:"session"`
	Cwd     string `json:"cwd"`
	Time    string `json:"time"`
}

// resolve finds the session file of the process the query names. The
// error is only for a cancelled ctx; everything else is a state.
func resolve(ctx context.Context, q query) (watchers.NativeIdentity, error) {
	id := watchers.NativeIdentity{Agent: sessions.Agent}
	if q.Root == "" {
		id.State, id.Reason = contract.IdentityUnavailable, "no sessions directory named"
		return id, nil
	}
	files, id, ok := watchers.ReadRoot(id, q.Root, "sessions directory", "no sessions directory: no session was ever written")
	if !ok {
		return id, nil
	}
	check := func(path string) (watchers.Candidate, bool, error) { return candidate(path, q) }
	s := watchers.RecordSearch{ID: id}
	if err := s.Check(ctx, q.Root, files, sessions.IsRecord, check); err != nil {
		return s.ID, err
	}
	watchers.NewestFirst(s.ID.Candidates)
	return watchers.DecideSessions(s.ID, q.Cwd, "session", s.Unreadable), nil
}

// candidate reads path's header: a candidate when it is a session of the
// cwd that started or grew since the process started, and is not quiet.
func candidate(path string, q query) (watchers.Candidate, bool, error) {
	fi, line, err := watchers.HeaderLine(path)
	if err != nil || line == nil {
		return watchers.Candidate{}, false, err
	}
	var h header
	if json.Unmarshal(line, &h) != nil || h.Type != "session" || h.Session == "" || filepath.Clean(h.Cwd) != filepath.Clean(q.Cwd) {
		return watchers.Candidate{}, false, nil
	}
	c := watchers.Candidate{Path: path, File: evidence.FileIDOf(fi), Size: fi.Size(), ModTime: fi.ModTime(), SessionID: h.Session, Cwd: h.Cwd}
	if n, quiet := q.Quiet[path]; quiet && fi.Size() <= n {
		return c, false, nil
	}
	return c, watchers.WrittenSince(q.Since, h.Time, fi.ModTime()), nil
}
