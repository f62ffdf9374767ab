package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers"
)

// TestBinderFollowsBoundFile: a bound transcript is parsed once up to its
// end, then followed by the watcher from there; lines appended later move
// the durable state (working -> idle) and no earlier line counts twice.
func TestBinderFollowsBoundFile(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	projects := t.TempDir()
	s, err := New(Config{Logger: testLogger(t), Store: st, TmuxSocket: "/none", ClaudeProjects: projects, CodexSessions: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(corpusDir, "claude/2.1.267/permission-approve.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	path := filepath.Join(projects, "-src", "session.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o755)
	head := strings.Join(lines[:5], "")
	if err := os.WriteFile(path, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.binds.run(ctx) }()
	m := &paneMonitor{s: s, id: "term_x", pokeCh: make(chan struct{}, 1)}
	b := s.binds
	durable := b.bind(ctx, m, watchers.Claude, watchers.NativeIdentity{State: watchers.Resolved, Path: path}, bindingState{State: "resolved"})
	if durable != durableWorking {
		t.Fatalf("durable after the first lines = %q", durable)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Join(lines[5:], ""))
	f.Close()
	tmuxtest.Await(t, 10*time.Second, func() string {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.bind.Durable != durableIdle {
			return "durable " + m.bind.Durable
		}
		return ""
	})
	cancel()
	<-done
}
