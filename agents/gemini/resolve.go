package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agent-knock-knock/akk/agents/gemini/chats"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Gemini CLI keeps each conversation in
// ~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl and does not
// hold it open. Its first line is the session's header: sessionId,
// projectHash (the SHA-256 of the project directory, hex: measured, and
// so named in its source), startTime and kind ("main"; "subagent" for
// its sub-agents). The file is written when the session starts, its
// context before any prompt (recordings/testdata/gemini: idle has one).
// A process's conversation is the main session of its cwd that started
// since the process did, or that it has appended to since (a resumed
// one); the <project> directory's name is never trusted.

// query names what a Gemini CLI process's conversation is found by.
type query struct {
	// TmpRoot is ~/.gemini/tmp.
	TmpRoot string
	// Cwd is the process's project directory.
	Cwd string
	// Since is when the process started.
	Since time.Time
	// Exclude are sessions that are not candidates (one the process
	// left).
	Exclude []string
	// Quiet are files that are not candidates while no longer than the
	// size given.
	Quiet map[string]int64
}

// geminiHeader is a chats file's first line.
type geminiHeader struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	Kind        string `json:"kind"`
}

// ProjectHash is Gemini CLI's name of a project directory in its chats
// headers.
func ProjectHash(dir string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	return hex.EncodeToString(sum[:])
}

// resolve finds the chats file of the process the query names. The
// error is only for a cancelled ctx; everything else is a state.
func resolve(ctx context.Context, q query) (watchers.NativeIdentity, error) {
	projects, id, ok := watchers.ReadRoot(watchers.NativeIdentity{Agent: chats.Agent}, q.TmpRoot,
		"tmp root", "no tmp directory: no conversation was ever written")
	if !ok {
		return id, nil
	}
	hash := ProjectHash(q.Cwd)
	check := func(path string) (watchers.Candidate, bool, error) { return geminiCandidate(path, hash, q) }
	s := watchers.RecordSearch{ID: id}
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(q.TmpRoot, p.Name(), "chats")
		files, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			s.Unreadable = append(s.Unreadable, dir)
			continue
		}
		if err := s.Check(ctx, dir, files, chats.IsRecord, check); err != nil {
			return s.ID, err
		}
	}
	watchers.NewestFirst(s.ID.Candidates)
	return watchers.DecideSessions(s.ID, q.Cwd, "main session", s.Unreadable), nil
}

// geminiCandidate reads path's header: a candidate when it is a main
// session of the project hash that started or grew since the process
// started, and is neither excluded nor quiet.
func geminiCandidate(path, hash string, q query) (watchers.Candidate, bool, error) {
	fi, line, err := watchers.HeaderLine(path)
	if err != nil || line == nil {
		return watchers.Candidate{}, false, err
	}
	var h geminiHeader
	if json.Unmarshal(line, &h) != nil || h.SessionID == "" || h.ProjectHash != hash || h.Kind != "main" {
		return watchers.Candidate{}, false, nil
	}
	c := watchers.Candidate{Path: path, File: evidence.FileIDOf(fi), Size: fi.Size(), ModTime: fi.ModTime(), SessionID: h.SessionID, Cwd: q.Cwd}
	if slices.Contains(q.Exclude, h.SessionID) {
		return c, false, nil
	}
	if n, quiet := q.Quiet[path]; quiet && fi.Size() <= n {
		return c, false, nil
	}
	return c, watchers.WrittenSince(q.Since, h.StartTime, fi.ModTime()), nil
}
