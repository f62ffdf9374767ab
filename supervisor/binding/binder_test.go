package binding

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

const corpusDir = "../../recordings/testdata"

// testPane records what the binder hands it.
type testPane struct {
	mu   sync.Mutex
	bind terminal.Binding
}

func (p *testPane) SetBinding(b terminal.Binding) { p.mu.Lock(); p.bind = b; p.mu.Unlock() }
func (p *testPane) Gone() bool                    { return false }

// testHost counts the evidence handed on.
type testHost struct {
	mu       sync.Mutex
	evidence int
}

func (h *testHost) Commit(store.Change) error               { return nil }
func (h *testHost) StoredBinding(string) terminal.Binding   { return terminal.Binding{} }
func (h *testHost) Evidence(string, uint64, watchers.Event) { h.mu.Lock(); h.evidence++; h.mu.Unlock() }

// TestBinderFollowsBoundFile: a bound transcript is parsed once up to its
// end, then followed by the watcher from there; lines appended later move
// the durable state (working -> idle) and no earlier line counts twice.
func TestBinderFollowsBoundFile(t *testing.T) {
	projects := t.TempDir()
	host := &testHost{}
	b := New(Config{ClaudeProjects: projects, CodexSessions: t.TempDir(), Now: time.Now, Logger: slog.New(slog.DiscardHandler)}, host)
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
	go func() { done <- b.Run(ctx) }()
	m := &testPane{}
	durable := b.bind(ctx, m, "term_x", watchers.Claude, watchers.NativeIdentity{State: watchers.Resolved, Path: path}, terminal.Binding{State: "resolved"})
	if durable != terminal.DurableWorking {
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
		if m.bind.Durable != terminal.DurableIdle {
			return "durable " + m.bind.Durable
		}
		return ""
	})
	host.mu.Lock()
	n := host.evidence
	host.mu.Unlock()
	if n == 0 {
		t.Error("no evidence of the appended lines reached the tasks")
	}
	cancel()
	<-done
}

func TestParseDurableOnRecordedFiles(t *testing.T) {
	for _, tc := range []struct {
		agent watchers.Agent
		file  string
		want  string
	}{
		{watchers.Claude, "claude/2.1.267/permission-approve.transcript.jsonl", terminal.DurableIdle},
		{watchers.Codex, "codex/0.155.1/permission-approve.rollout.jsonl", terminal.DurableIdle},
		{watchers.Codex, "codex/0.155.1/working.rollout.jsonl", terminal.DurableWorking},
	} {
		path := filepath.Join(corpusDir, tc.file)
		got, id, end := ParseDurable(tc.agent, path)
		fi, _ := os.Stat(path)
		if got != tc.want || end != fi.Size() || id.Ino == 0 {
			t.Errorf("%s: durable %q end %d of %d, id %v; want %q", tc.file, got, end, fi.Size(), id, tc.want)
		}
	}
}
