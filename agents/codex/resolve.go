package codex

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// query names the processes to inspect.
type query struct {
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

// resolve finds the rollouts the processes hold open. The error is
// only for a cancelled ctx or a query without PIDs; everything else is a
// state.
func resolve(ctx context.Context, q query) (watchers.NativeIdentity, error) {
	id := watchers.NativeIdentity{Agent: rollout.Agent}
	if len(q.PIDs) == 0 {
		return id, fmt.Errorf("codex: resolve: no pids: %w", watchers.ErrProc)
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
	id = decide(id, alive)
	if left > 0 {
		id.Reason += fmt.Sprintf(" (%d left conversations' rollouts open, unchanged)", left)
	}
	return id, nil
}

func decide(id watchers.NativeIdentity, alive int) watchers.NativeIdentity {
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
func openRollouts(pid int, root string) ([]watchers.Candidate, int, error) {
	fds, total, err := procid.OpenFDs(pid)
	if err != nil {
		return nil, 0, err
	}
	var out []watchers.Candidate
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
func rolloutCandidate(pid int, fd procid.FD, root string) (watchers.Candidate, bool) {
	name := filepath.Base(fd.Target)
	if !strings.HasPrefix(fd.Target, root+string(filepath.Separator)) || !rollout.IsRecord(name) {
		return watchers.Candidate{}, false
	}
	c := watchers.Candidate{Path: fd.Target, PID: pid, FD: fd.N, Deleted: fd.Deleted}
	if err := codexMeta(fd.Path, &c); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
			return watchers.Candidate{}, false
		}
		c.SessionID = ""
	}
	return c, true
}

// codexMeta reads the session_meta header through the process's own
// descriptor link (which reaches the open file even if it was replaced).
func codexMeta(fdPath string, c *watchers.Candidate) error {
	f, err := os.Open(fdPath)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	c.File, c.Size, c.ModTime = evidence.FileIDOf(fi), fi.Size(), fi.ModTime()
	line, err := firstLine(f, watchers.DefaultMaxLine)
	if err != nil {
		return err
	}
	for _, ev := range rollout.NewParser().Parse(evidence.Where{Agent: rollout.Agent, Path: c.Path, File: c.File}, line, nil) {
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
