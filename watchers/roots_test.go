package watchers

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
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
	seen := map[Agent]int{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchRoots(ctx, []RootSpec{{Path: claude, Agent: Claude, Depth: 1}, {Path: codex, Agent: Codex, Depth: 3}},
			slog.New(slog.DiscardHandler), func(a Agent) { mu.Lock(); seen[a]++; mu.Unlock() })
	}()
	defer func() { cancel(); <-done }()
	count := func(a Agent) int { mu.Lock(); defer mu.Unlock(); return seen[a] }
	// Write, and write again until reported: the watch starts in its own
	// goroutine, and a write before it is not reported (nor needs to be:
	// the daemon resolves at start).
	writeUntil := func(path string, a Agent) {
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
	writeUntil(filepath.Join(claude, "-work", "s1.jsonl"), Claude)
	if n := count(Codex); n != 0 {
		t.Errorf("a Claude transcript reported codex %d times", n)
	}
	writeUntil(filepath.Join(codex, "2026", "12", "01", "rollout-x.jsonl"), Codex)
}
