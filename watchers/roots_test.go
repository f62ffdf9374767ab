package watchers

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/fsnotify/fsnotify"
)

// TestWatchRoots: a root that does not exist yet is waited for through
// its parent; once it appears, a file written down at its depth reports
// its agent, and a file of another root reports that root's agent.
func TestWatchRoots(t *testing.T) {
	home := t.TempDir()
	claude := filepath.Join(home, ".claude", "projects")
	codex := filepath.Join(home, ".codex", "sessions")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[evidence.Agent]int{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchRoots(ctx, []RootSpec{{Path: claude, Agent: transcript.Agent, Depth: 1}, {Path: codex, Agent: rollout.Agent, Depth: 3}},
			slog.New(slog.DiscardHandler), func(a evidence.Agent) { mu.Lock(); seen[a]++; mu.Unlock() })
	}()
	defer func() { cancel(); <-done }()
	count := func(a evidence.Agent) int { mu.Lock(); defer mu.Unlock(); return seen[a] }
	// Write, and write again until reported: the watch starts in its own
	// goroutine, and a write before it is not reported (nor needs to be:
	// the daemon resolves at start).
	writeUntil := func(path string, a evidence.Agent) {
		tmuxtest.Await(t, 10*time.Second, func() string {
			if count(a) > 0 {
				return ""
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err.Error()
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				return err.Error()
			}
			f.WriteString("{}\n")
			f.Close()
			return "no change reported for " + string(a)
		})
	}
	writeUntil(filepath.Join(claude, "-work", "s1.jsonl"), transcript.Agent)
	if n := count(rollout.Agent); n != 0 {
		t.Errorf("a Claude transcript reported codex %d times", n)
	}
	writeUntil(filepath.Join(codex, "2026", "12", "01", "rollout-x.jsonl"), rollout.Agent)
}

// TestWatchRootsTrailing: a new directory is reported again a gap after
// it was watched, and a change inside a gap at the gap's end, never
// dropped. (Claude makes a project directory and its transcript at once,
// with the first prompt: the transcript can be made before the directory
// is watched and then sends no event, and the first report finds the
// directory empty. The daemon then kept the agent verified_absent: the
// live tier saw it once, TestLiveClaudeSupervised at 3cadd15.)
func TestWatchRootsTrailing(t *testing.T) {
	claude := filepath.Join(t.TempDir(), "projects")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []time.Time
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchRoots(ctx, []RootSpec{{Path: claude, Agent: transcript.Agent, Depth: 1}}, slog.New(slog.DiscardHandler),
			func(evidence.Agent) { mu.Lock(); calls = append(calls, time.Now()); mu.Unlock() })
	}()
	defer func() { cancel(); <-done }()
	last := func() (time.Time, int) {
		mu.Lock()
		defer mu.Unlock()
		if len(calls) == 0 {
			return time.Time{}, 0
		}
		return calls[len(calls)-1], len(calls)
	}
	// The watch starts in its own goroutine: touch until it reports.
	probe := filepath.Join(claude, "probe")
	tmuxtest.Await(t, 10*time.Second, func() string {
		if _, n := last(); n > 0 {
			return ""
		}
		os.WriteFile(probe, []byte("x"), 0o644)
		return "no report yet"
	})
	// The directory and its transcript at once, as Claude writes them:
	// the transcript may be made before the directory is watched (it then
	// sends no event), so a report must come a gap after the directory.
	dir := filepath.Join(claude, "-work")
	made := time.Now()
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Await(t, 5*time.Second, func() string {
		if at, _ := last(); at.Sub(made) < rootGap {
			return fmt.Sprintf("the last report came %v after the directory was made, want one at least %v after", at.Sub(made), rootGap)
		}
		return ""
	})
}

// TestRootsIgnoreChmod: a change of mode or owner under a root is no
// change of a session. SQLite (OpenCode's store) changes the owner of the
// files each reader opens; reported, the resolution it starts reads the
// store and so reports itself again.
func TestRootsIgnoreChmod(t *testing.T) {
	root := t.TempDir()
	rw, err := newRootWatch([]RootSpec{{Path: root, Agent: sessiondb.Agent}})
	if err != nil {
		t.Fatal(err)
	}
	defer rw.w.Close()
	wal := filepath.Join(root, "opencode.db-wal")
	for _, tc := range []struct {
		op   fsnotify.Op
		want bool
	}{
		{fsnotify.Chmod, false},
		{fsnotify.Write, true},
		{fsnotify.Write | fsnotify.Chmod, true},
		{fsnotify.Create, true},
		{fsnotify.Remove, true},
	} {
		if _, _, ok := rw.onEvent(fsnotify.Event{Name: wal, Op: tc.op}); ok != tc.want {
			t.Errorf("%v: reported %v, want %v", tc.op, ok, tc.want)
		}
	}
}
