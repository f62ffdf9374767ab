package binding

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

const corpusDir = "../../recordings/testdata"

// testPane records what the binder hands it.
type testPane struct {
	mu   sync.Mutex
	bind terminal.Binding
}

func (p *testPane) SetBinding(b terminal.Binding) { p.mu.Lock(); p.bind = b; p.mu.Unlock() }
func (p *testPane) Gone() bool                    { return false }

// testHost counts the evidence handed on, and keeps its kinds.
type testHost struct {
	mu       sync.Mutex
	evidence int
	kinds    []string
	bound    int // FileBound calls
}

func (h *testHost) FileBound(string, string) {
	h.mu.Lock()
	h.bound++
	h.mu.Unlock()
}

func (h *testHost) Commit(store.Change) error             { return nil }
func (h *testHost) StoredBinding(string) terminal.Binding { return terminal.Binding{} }
func (h *testHost) Evidence(_ string, _ uint64, ev evidence.Event) {
	h.mu.Lock()
	h.evidence++
	h.kinds = append(h.kinds, fmt.Sprintf("%T", ev))
	h.mu.Unlock()
}

// TestBinderFollowsBoundFile: a bound transcript is parsed once up to its
// end, then followed by the watcher from there; lines appended later move
// the durable state (working -> idle) and no earlier line counts twice.
func TestBinderFollowsBoundFile(t *testing.T) {
	projects := t.TempDir()
	host := &testHost{}
	b := New(Config{Roots: map[string]string{"claude": projects, "codex": t.TempDir()}, Now: time.Now, Logger: slog.New(slog.DiscardHandler)}, host)
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
	durable, _ := b.bind(ctx, m, "term_x", transcript.Agent, watchers.NativeIdentity{State: contract.IdentityResolved, Path: path}, terminal.Binding{State: "resolved"})
	if durable.State != contract.DurableWorking {
		t.Fatalf("durable after the first lines = %q", durable.State)
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
		if m.bind.Durable != contract.DurableIdle {
			return "durable " + string(m.bind.Durable)
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

// TestRebindKeepsUnhandedEvidence: the idle screen asks for the native
// session again just as the watcher has read the turn's end but not yet
// handed it on. The same file found again stays bound as it was, so the
// turn's end still reaches the tasks (before, the file was parsed afresh
// past it, the event was dropped as already counted, and the Turn stayed
// running for good).
func TestRebindKeepsUnhandedEvidence(t *testing.T) {
	sessions := t.TempDir()
	host := &testHost{}
	b := New(Config{Roots: map[string]string{"claude": t.TempDir(), "codex": sessions}, Now: time.Now, Logger: slog.New(slog.DiscardHandler)}, host)
	data, err := os.ReadFile(filepath.Join(corpusDir, "codex/0.155.1/permission-approve.rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	path := filepath.Join(sessions, "2026", "12", "02", "rollout-x.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer b.closeWatchers()
	// No Run: the watcher's events wait in b.events until handed on below.
	m := &testPane{}
	ni := watchers.NativeIdentity{State: contract.IdentityResolved, Path: path, SessionID: "s"}
	req := bindRequest{id: "term_x", ident: procid.Identity{Agent: "codex"}}
	b.adopt(ctx, m, req, ni, nil, nil)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Join(lines[len(lines)/2:], ""))
	f.Close()
	var read []evidence.Event
	tmuxtest.Await(t, 10*time.Second, func() string {
		for {
			select {
			case ev := <-b.events:
				read = append(read, ev)
				if _, ok := ev.(evidence.TurnCompleted); ok {
					return ""
				}
				continue
			default:
			}
			return "the watcher has not read the turn's end"
		}
	})
	b.adopt(ctx, m, req, ni, nil, nil) // the idle screen's resolution: the same file
	for _, ev := range read {
		b.evidence(ev)
	}
	host.mu.Lock()
	kinds := host.kinds
	host.mu.Unlock()
	if !slices.Contains(kinds, "evidence.TurnCompleted") {
		t.Errorf("evidence handed on %v: no TurnCompleted", kinds)
	}
	if m.bind.Durable != contract.DurableIdle {
		t.Errorf("durable %q, want idle", m.bind.Durable)
	}
}

func TestParseDurableOnRecordedFiles(t *testing.T) {
	for _, tc := range []struct {
		agent evidence.Agent
		file  string
		want  contract.Durable
	}{
		{transcript.Agent, "claude/2.1.267/permission-approve.transcript.jsonl", contract.DurableIdle},
		{rollout.Agent, "codex/0.155.1/permission-approve.rollout.jsonl", contract.DurableIdle},
		{rollout.Agent, "codex/0.155.1/working.rollout.jsonl", contract.DurableWorking},
	} {
		path := filepath.Join(corpusDir, tc.file)
		d, id, end := ParseDurable(tc.agent, path)
		got := d.State
		fi, _ := os.Stat(path)
		if got != tc.want || end != fi.Size() || id.Ino == 0 {
			t.Errorf("%s: durable %q end %d of %d, id %v; want %q", tc.file, got, end, fi.Size(), id, tc.want)
		}
	}
}

// TestFileBoundOnFreshBind: the tasks hear of every fresh bind of a file
// (they then read what it holds: the watcher hands on only what comes
// after), not of the same file found again. A binding that names no
// session for a moment, then the file again, is a fresh bind: what the
// agent wrote meanwhile reached no stream.
func TestFileBoundOnFreshBind(t *testing.T) {
	sessions := t.TempDir()
	host := &testHost{}
	b := New(Config{Roots: map[string]string{"claude": t.TempDir(), "codex": sessions}, Now: time.Now, Logger: slog.New(slog.DiscardHandler)}, host)
	path := filepath.Join(sessions, "2026", "12", "02", "rollout-x.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(`{"type":"session_meta","payload":{"id":"s","cwd":"/w"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer b.closeWatchers()
	m := &testPane{}
	req := bindRequest{id: "term_x", ident: procid.Identity{Agent: "codex"}}
	resolved := watchers.NativeIdentity{State: contract.IdentityResolved, Path: path, SessionID: "s"}
	bound := func() int { host.mu.Lock(); defer host.mu.Unlock(); return host.bound }
	for i, step := range []struct {
		ni   watchers.NativeIdentity
		want int
	}{
		{resolved, 1},
		{resolved, 1}, // the same file found again
		{watchers.NativeIdentity{State: contract.IdentityUnavailable}, 1},
		{resolved, 2},
	} {
		b.adopt(ctx, m, req, step.ni, nil, nil)
		if got := bound(); got != step.want {
			t.Fatalf("step %d (%s): %d fresh binds told, want %d", i, step.ni.State, got, step.want)
		}
	}
}
