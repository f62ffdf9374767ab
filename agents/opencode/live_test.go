package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/agent-knock-knock/akk/agents/opencode/opencoderig" // its rig part: rig.Lookup finds the agent

	"github.com/fsnotify/fsnotify"

	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TestLiveOpenCodeStore: the real OpenCode 1.18.33 (`opencode run`)
// against fakemodel.Chat, followed while it writes its store: the session
// resolved by cwd and start time, then Events read each time fsnotify
// reports its -wal written (a tick besides, as the follower would have
// for the time before the directory exists), from the last seq read. The prompt is
// accepted by its hash, the bash call runs, the turn completes with text,
// all read before OpenCode exits; reading never blocks it.
func TestLiveOpenCodeStore(t *testing.T) {
	in, err := rig.Lookup("opencode", "1.18.33")
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("opencode@1.18.33 not installed (go run ./recordings/cmd/rig -install opencode@1.18.33): %v", err))
	srv, err := fakemodel.Chat(fakemodel.Script{
		Keywords: []fakemodel.Keyword{{Word: "run-ls", Reply: fakemodel.Reply{Text: "Running it.",
			Tool: &fakemodel.ToolCall{Name: "bash", Input: map[string]any{"command": "echo probe-ran"}}}}},
		AfterTool: func(string, bool) fakemodel.Reply {
			return fakemodel.Reply{Text: "one two three four five six seven eight", ChunkDelay: 200 * time.Millisecond}
		},
	}, fakemodel.NewLog(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	home := t.TempDir()
	work, data := filepath.Join(home, "work"), filepath.Join(home, ".local", "share", "opencode")
	for _, d := range []string{work, data, filepath.Join(home, ".config", "opencode")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _ := json.Marshal(map[string]any{"autoupdate": false, "share": "disabled", "model": "fake/fake-model",
		"permission": map[string]any{"bash": "allow"},
		"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": srv.URL() + "/v1", "apiKey": "sk-fake"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "Fake"}}}}})
	if err := os.WriteFile(filepath.Join(home, ".config", "opencode", "opencode.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer fsw.Close()
	if err := fsw.Add(data); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const prompt = "please-run-ls"
	cmd := exec.CommandContext(ctx, in.Bin, "run", prompt)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "npm_config_registry=http://127.0.0.1:9/"}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	since := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	f := &ocLiveFollow{t: t, path: filepath.Join(data, "opencode.db"), cwd: work, since: since, last: -1}
	defer f.close()
	tick := time.NewTicker(time.Second) // the store's directory may not exist as fsnotify starts
	defer tick.Stop()
	var exitErr error
	running := true
	for running {
		select {
		case ev := <-fsw.Events:
			// A write of the -wal is a commit (or its part). Not a
			// chmod: SQLite running as root gives each file it opens
			// its database's owner, so every reader's open is one, and
			// reading on it would feed itself (measured: 2,649 chmods
			// against 160 writes in one run).
			if !strings.HasSuffix(ev.Name, "-wal") || !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create) {
				continue
			}
			f.wal++
		case <-tick.C:
		case exitErr = <-exited:
			running = false
		case <-ctx.Done():
			t.Fatalf("opencode run did not end: %s", out.String())
		}
		f.read(running)
	}
	if exitErr != nil {
		t.Fatalf("opencode run: %v\n%s", exitErr, out.String())
	}
	t.Logf("opencode run took %v; %d -wal writes seen, %d reads, events while it ran: %d", time.Since(since).Round(time.Millisecond), f.wal, f.reads, f.whileRunning)
	want := []string{"session", "started", "prompt", "pending bash", "result bash ok", "completed stop text"}
	if !slices.Equal(f.kinds, want) {
		t.Fatalf("events %v, want %v", f.kinds, want)
	}
	if f.hash != evidence.PromptHash(prompt) || f.whileRunning < len(want) {
		t.Fatalf("prompt hash %x (want %x); %d events read while OpenCode ran", f.hash[:4], evidence.PromptHash(prompt), f.whileRunning)
	}
	files, _ := os.ReadDir(data)
	for _, e := range files {
		if !e.IsDir() && !slices.Contains([]string{"opencode.db", "opencode.db-wal", "opencode.db-shm"}, e.Name()) {
			t.Errorf("a file in the store's directory: %s", e.Name())
		}
	}
}

// ocLiveFollow follows a live store the way the follower would: resolve
// the session, then read its events from the last seq.
type ocLiveFollow struct {
	t            *testing.T
	path, cwd    string
	since        time.Time
	db           *sessiondb.DB
	session      string
	last         int64
	wal, reads   int
	kinds        []string
	hash         [32]byte
	whileRunning int
}

func (f *ocLiveFollow) read(running bool) {
	ctx := context.Background()
	if f.session == "" {
		id, err := resolve(ctx, query{DB: f.path, Cwd: f.cwd, Since: f.since})
		if err != nil || id.State != contract.IdentityResolved {
			return
		}
		f.session = id.SessionID
	}
	if f.db == nil {
		db, err := sessiondb.Open(f.path)
		if err != nil {
			f.t.Fatal(err)
		}
		f.db = db
	}
	last, err := f.db.Events(ctx, f.session, f.last, func(ev evidence.Event) {
		f.kinds = append(f.kinds, ocKind(ev))
		if p, ok := ev.(evidence.PromptAccepted); ok {
			f.hash = p.SHA256
		}
		if running {
			f.whileRunning++
		}
	})
	if err != nil {
		f.t.Fatal(err)
	}
	f.last = last
	f.reads++
}

func (f *ocLiveFollow) close() {
	if f.db != nil {
		f.db.Close()
	}
}

// ocKind is an event's kind, with what the live test checks of it.
func ocKind(ev evidence.Event) string {
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		return "session"
	case evidence.TurnStarted:
		return "started"
	case evidence.PromptAccepted:
		return "prompt"
	case evidence.ToolPending:
		return "pending " + e.Name
	case evidence.ToolResult:
		if e.IsError {
			return "result " + e.Name + " error"
		}
		return "result " + e.Name + " ok"
	case evidence.TurnCompleted:
		if e.EndedWithText {
			return "completed " + e.StopReason + " text"
		}
		return "completed " + e.StopReason
	}
	return fmt.Sprintf("%T", ev)
}
