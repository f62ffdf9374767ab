package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// threadFormat is Claude Code's conversations as watchers.Threads reads
// them: its transcripts (projects/<slug>/*.jsonl), titled as its picker
// titles them, live in another process when a live claude registers
// them (~/.claude/sessions/<pid>.json).
type threadFormat struct{}

// recent: a transcript appended this recently counts as live in an
// unregistered claude process of the same cwd (an older version keeps no
// session record).
const recent = 5 * time.Second

// Files: projects/<slug>/*.jsonl (Claude Code archives none).
func (threadFormat) Files(q watchers.ThreadQuery) ([]watchers.ThreadFile, error) {
	var out []watchers.ThreadFile
	err := watchers.WalkDepth(q.Root, transcript.Format.Depth, func(path string) {
		if transcript.IsRecord(filepath.Base(path)) {
			out = append(out, watchers.ThreadFile{Path: path})
		}
	})
	return out, err
}

func (threadFormat) Line(line []byte) evidence.ThreadLine { return transcript.ThreadLine(line) }

// Owns: <session>.jsonl.
func (threadFormat) Owns(base, id string) bool { return base == id }

// Names: none outside the transcripts (its titles are records in them).
func (threadFormat) Names(watchers.ThreadQuery) map[string]string { return nil }

// MarkLive flags the transcripts whose session a live claude
// process other than the pane's has registered, and, while a claude of
// the same cwd runs unregistered, those appended in the last
// recent.
func (threadFormat) MarkLive(threads []watchers.Thread, v *procid.Table, q watchers.ThreadQuery, now time.Time) {
	mine := v.SelfSet(q.Self)
	live := map[string]string{} // session -> why
	registered := map[int]bool{}
	dir := filepath.Join(filepath.Dir(q.Root), "sessions")
	ents, _ := os.ReadDir(dir)
	ns := v.PIDNamespace()
	for _, e := range ents {
		pid, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".json"))
		if err != nil || !strings.HasSuffix(e.Name(), ".json") || mine[pid] {
			continue
		}
		rec, ok := readSessionRecord(filepath.Join(dir, e.Name()))
		if !ok || rec.PID != pid || rec.SessionID == "" {
			continue
		}
		if ns != "" && rec.PIDDomain != "" && !strings.HasSuffix(rec.PIDDomain, ":"+ns) {
			live[rec.SessionID] = fmt.Sprintf("registered by pid %d of another pid namespace (%s): not checkable", pid, rec.PIDDomain)
			continue
		}
		st, alive := v.Stats()[pid]
		if !alive || rec.ProcStart != "" && rec.ProcStart != strconv.FormatUint(st.StartTime, 10) {
			continue // left by a process that is gone
		}
		registered[pid] = true
		live[rec.SessionID] = fmt.Sprintf("live in pid %d (%s)", pid, filepath.Join(dir, e.Name()))
	}
	unregistered := 0
	for _, pid := range v.PIDs() {
		if !mine[pid] && !registered[pid] && isClaudeExe(v.Link(pid, "exe")) && filepath.Clean(v.Link(pid, "cwd")) == q.Cwd {
			unregistered = pid
			break
		}
	}
	for i := range threads {
		t := &threads[i]
		why, ok := live[t.ID]
		switch {
		case ok:
			t.ActiveElsewhere, t.Why = true, why
		case unregistered != 0 && now.Sub(t.ModTime) < recent:
			t.ActiveElsewhere = true
			t.Why = fmt.Sprintf("appended %s ago while pid %d, a claude of this cwd without a session record, runs",
				now.Sub(t.ModTime).Round(time.Millisecond), unregistered)
		default:
			t.Why = "same cwd; no live claude registers it"
			if unregistered != 0 {
				t.Why += fmt.Sprintf(", and it is older than %s (pid %d runs unregistered)", recent, unregistered)
			}
		}
	}
}

// isClaudeExe recognises Claude Code's native binary as procid does: the
// npm package's claude or claude.exe, or ~/.local/share/claude/versions/<v>.
func isClaudeExe(exe string) bool {
	base := filepath.Base(exe)
	return base == "claude" || base == "claude.exe" ||
		filepath.Base(filepath.Dir(exe)) == "versions" && filepath.Base(filepath.Dir(filepath.Dir(exe))) == "claude"
}
