package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// threadFormat is Codex's conversations as watchers.Threads reads them:
// its rollouts (sessions/YYYY/MM/DD, and archived_sessions beside it,
// flat), titled by the thread's last name in session_index.jsonl, else its
// first prompt.
type threadFormat struct{}

// threadNamesMax bounds what is read of the session index.
const threadNamesMax = 1 << 20

// Files: sessions/YYYY/MM/DD/rollout-*.jsonl and
// archived_sessions/rollout-*.jsonl (`codex archive` moves a rollout
// there unchanged; `codex unarchive` moves it back).
func (threadFormat) Files(q watchers.ThreadQuery) ([]watchers.ThreadFile, error) {
	var out []watchers.ThreadFile
	add := func(root string, depth int, archived bool) error {
		return watchers.WalkDepth(root, depth, func(path string) {
			if rollout.IsRecord(filepath.Base(path)) {
				out = append(out, watchers.ThreadFile{Path: path, Archived: archived})
			}
		})
	}
	if err := add(q.Root, rollout.Format.Depth, false); err != nil {
		return nil, err
	}
	if q.ArchivedRoot != "" {
		if err := add(q.ArchivedRoot, 0, true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (threadFormat) Line(line []byte) evidence.ThreadLine { return rollout.ThreadLine(line) }

// Owns: rollout-<time>-<id>.jsonl.
func (threadFormat) Owns(base, id string) bool { return base == id || strings.HasSuffix(base, "-"+id) }

// Names: session_index.jsonl beside sessions (/rename; 0.171.0 also names
// every thread after its first prompt).
func (threadFormat) Names(q watchers.ThreadQuery) map[string]string {
	return threadNames(filepath.Join(filepath.Dir(q.Root), "session_index.jsonl"))
}

// threadNames reads $CODEX_HOME/session_index.jsonl,
// {"id","thread_name","updated_at"} per line, appended at each naming:
// the last name of an id holds. A missing or unreadable index names
// nothing.
func threadNames(path string) map[string]string {
	data, err := watchers.ReadBounded(path, threadNamesMax)
	if err != nil {
		return nil
	}
	names := map[string]string{}
	for line := range bytes.Lines(data) {
		var e struct {
			ID   string `json:"id"`
			Name string `json:"thread_name"`
		}
		if bytes.HasSuffix(line, []byte("\n")) && evidence.Decode(line, &e) == nil && e.ID != "" && e.Name != "" {
			names[e.ID] = e.Name
		}
	}
	return names
}

// fdHolder is a process holding a file open.
type fdHolder struct {
	pid, fd int
	comm    string
}

// MarkLive: a rollout another process than the pane's holds open (read
// from /proc/<pid>/fd, as Resolve does) is live in it. Codex keeps every
// rollout it wrote open until it exits: the thread a Codex left with /new
// still counts as live in it.
func (threadFormat) MarkLive(threads []watchers.Thread, v *procid.Table, q watchers.ThreadQuery, _ time.Time) {
	self := q.Self
	want := map[evidence.FileID]bool{}
	for _, t := range threads {
		want[t.File] = true
	}
	mine := v.SelfSet(self)
	held := map[evidence.FileID]fdHolder{}
	read, unreadable := 0, 0
	for _, pid := range v.PIDs() {
		if mine[pid] {
			continue
		}
		files, err := v.Files(pid, rollout.IsRecord)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				unreadable++
			}
			continue
		}
		read++
		for _, f := range files {
			id := evidence.FileIDOf(f.Info)
			if _, seen := held[id]; want[id] && !seen {
				held[id] = fdHolder{pid: pid, fd: f.FD, comm: v.Stats()[pid].Comm}
			}
		}
	}
	for i := range threads {
		t := &threads[i]
		switch h, ok := held[t.File]; {
		case ok:
			t.ActiveElsewhere = true
			t.Why = fmt.Sprintf("open in pid %d (%s) on fd %d, not the pane's", h.pid, h.comm, h.fd)
		case t.Archived:
			t.Why = "archived: under archived_sessions"
		default:
			t.Why = fmt.Sprintf("same cwd; no other process holds it open (%d processes read", read)
			if unreadable > 0 {
				t.Why += fmt.Sprintf(", %d unreadable", unreadable)
			}
			t.Why += ")"
		}
	}
}
