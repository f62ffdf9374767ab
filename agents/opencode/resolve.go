package opencode

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/watchers"
)

// OpenCode keeps every session of every directory in one store,
// ~/.local/share/opencode/opencode.db. A session row names the directory
// OpenCode ran in, its version, and its parent when a subagent (the task
// tool) made it. The TUI writes its session at the first prompt, not when
// it starts: before that a fresh process has none. A process's session
// is the main session of its cwd created since the process started, or
// updated since (one it resumed with --continue or --session); that a
// session lives in the same store says nothing more.

// query names what an OpenCode process's session is found by.
type query struct {
	// DB is the store's path (~/.local/share/opencode/opencode.db).
	DB string
	// Cwd is the process's directory.
	Cwd string
	// Since is when the process started.
	Since time.Time
	// Exclude are sessions that are not candidates (one the process
	// left).
	Exclude []string
	// Quiet are sessions that are not candidates while not updated after
	// the time given.
	Quiet map[string]time.Time
}

// openCodeSlack allows for the coarse clock of a process's start against
// the store's milliseconds.
const openCodeSlack = time.Second

// resolve finds the session of the process the query names. The
// error is only for a cancelled ctx; everything else is a state.
func resolve(ctx context.Context, q query) (watchers.NativeIdentity, error) {
	id := watchers.NativeIdentity{Agent: sessiondb.Agent}
	db, err := sessiondb.Open(q.DB)
	if errors.Is(err, fs.ErrNotExist) {
		id.State, id.Reason = contract.IdentityVerifiedAbsent, "no store: OpenCode never wrote a session"
		return id, nil
	}
	if err != nil {
		id.State, id.Reason = contract.IdentityUnavailable, err.Error()
		return id, nil
	}
	defer db.Close()
	sessions, err := db.Sessions(ctx)
	if err := ctx.Err(); err != nil {
		return id, err
	}
	if err != nil {
		id.State, id.Reason = contract.IdentityUnavailable, err.Error()
		return id, nil
	}
	cwd := filepath.Clean(q.Cwd)
	for _, s := range sessions {
		id.Checked++
		if c, ok := openCodeCandidate(s, cwd, db, q); ok {
			id.Candidates = append(id.Candidates, c)
		}
	}
	watchers.NewestFirst(id.Candidates)
	switch {
	case len(id.Candidates) == 1:
		c := id.Candidates[0]
		id.State, id.SessionID, id.Cwd, id.Version, id.Path, id.File = contract.IdentityResolved, c.SessionID, c.Cwd, c.Version, c.Path, c.File
		id.Reason = "the one main session of " + cwd + " created or updated since the process started"
	case len(id.Candidates) > 1:
		id.State, id.Reason = contract.IdentityAmbiguous, fmt.Sprintf("%d sessions of %s created or updated since the process started", len(id.Candidates), cwd)
	default:
		id.State, id.Reason = contract.IdentityVerifiedAbsent, fmt.Sprintf("no main session of %s since the process started (%d sessions read)", cwd, id.Checked)
	}
	return id, nil
}

// openCodeCandidate says whether s is a candidate: a main session of cwd,
// created or updated since the process started, neither excluded nor
// quiet.
func openCodeCandidate(s sessiondb.Session, cwd string, db *sessiondb.DB, q query) (watchers.Candidate, bool) {
	if s.ParentID != "" || filepath.Clean(s.Directory) != cwd || slices.Contains(q.Exclude, s.ID) {
		return watchers.Candidate{}, false
	}
	if t, quiet := q.Quiet[s.ID]; quiet && !s.Updated.After(t) {
		return watchers.Candidate{}, false
	}
	c := watchers.Candidate{Path: db.Path(), File: db.File(), ModTime: s.Updated, SessionID: s.ID, Cwd: s.Directory, Version: s.Version}
	if q.Since.IsZero() {
		return c, true
	}
	since := q.Since.Add(-openCodeSlack)
	return c, !s.Created.Before(since) || !s.Updated.Before(since)
}
