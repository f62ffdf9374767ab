package supervisor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/vt"
)

const corpusDir = "../recordings/testdata"

func TestMain(m *testing.M) { akkbin.Main(m) }

// buildAkk is the akk binary: replicas run it in panes, and the process
// tests run `akk attach`.
func buildAkk(t testing.TB) string { return akkbin.Build(t) }

// daemon is an in-process supervisor on its own store and API socket.
type daemon struct {
	t      testing.TB
	sv     *Supervisor
	st     *store.Store
	cl     *api.Client
	sock   string
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

type daemonOpts struct {
	storeDir string
	// qualifyDir is where the daemon runs qualifications ("": none), and
	// qualify what it does with an unqualified binary (Config.Qualify).
	qualifyDir, qualify string
	recognize           func(agent, version string, scr *vt.Screen) terminal.Recognition
	// onCommand sees every command the daemon's control clients issue.
	onCommand func(cmds []controlmode.Cmd)
	logger    *slog.Logger
	// claudeProjects, codexSessions: the agents' roots (default: empty
	// temp dirs).
	claudeProjects, codexSessions string
	// geminiTmp: Gemini CLI's root (default: an empty temp dir).
	geminiTmp string
	// openCodeDB: OpenCode's store (default: one in an empty temp dir).
	openCodeDB string
	// callbacks, tasks: the outbox's routes and the monitors' windows.
	callbacks outbox.Config
	tasks     TaskConfig
	// now is the daemon's clock (nil: time.Now).
	now func() time.Time
	// minFree is the store's Options.MinFree (0: its default); restart
	// is Config.Restart (store_watch.go).
	minFree uint64
	restart func() error
}

func startDaemon(t testing.TB, srv *tmuxtest.Server, o daemonOpts) *daemon {
	t.Helper()
	if o.storeDir == "" {
		o.storeDir = t.TempDir()
	}
	lg := o.logger
	if lg == nil {
		lg = testLogger(t)
	}
	st, err := store.Open(o.storeDir, &store.Options{Logger: lg, MinFree: o.minFree})
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "api", api.SocketName)
	ln, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	if o.claudeProjects == "" {
		o.claudeProjects = t.TempDir()
	}
	if o.openCodeDB == "" {
		o.openCodeDB = filepath.Join(t.TempDir(), "opencode.db")
	}
	if o.geminiTmp == "" {
		o.geminiTmp = t.TempDir()
	}
	if o.codexSessions == "" {
		o.codexSessions = t.TempDir()
	}
	cfg := Config{Logger: lg, Store: st, TmuxSocket: srv.Socket, TmuxEnv: srv.Env, Listener: ln, AllowReplicas: true,
		Roots: map[string]string{"claude": o.claudeProjects, "codex": o.codexSessions, "gemini": o.geminiTmp, "opencode": o.openCodeDB}}
	cfg.recognize, cfg.onCommand = o.recognize, o.onCommand
	cfg.Callbacks, cfg.Tasks, cfg.Now, cfg.Restart = o.callbacks, o.tasks, o.now, o.restart
	cfg.QualifyDir, cfg.Qualify = o.qualifyDir, o.qualify
	sv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{t: t, sv: sv, st: st, cl: api.NewClient(sock), sock: sock, cancel: cancel, done: make(chan error, 1)}
	go func() { d.done <- sv.Run(ctx) }()
	t.Cleanup(d.stop)
	return d
}

// stop cancels the daemon and asserts a clean exit.
func (d *daemon) stop() {
	d.once.Do(func() {
		d.cancel()
		select {
		case err := <-d.done:
			if err != nil {
				d.t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			d.t.Errorf("Run did not return within 20s of cancel")
		}
		d.cl.Close()
		d.st.Close()
	})
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("AKK_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	// The daemon's debug log, kept to its last lines and printed only when
	// the test fails: a failure seen once in CI then shows what the daemon
	// did, not only how the screen ended.
	tail := &logTail{max: 250}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("daemon log, last %d lines:\n%s", tail.max, tail)
		}
	})
	return slog.New(slog.NewTextHandler(tail, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// logTail keeps the last max lines written to it.
type logTail struct {
	mu    sync.Mutex
	max   int
	lines []string
}

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for line := range strings.SplitSeq(strings.TrimRight(string(p), "\n"), "\n") {
		l.lines = append(l.lines, line)
	}
	if over := len(l.lines) - l.max; over > 0 {
		l.lines = append(l.lines[:0], l.lines[over:]...)
	}
	return len(p), nil
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// rowOf returns the list row of a pane.
func rowOf(l api.ListResponse, pane string) (api.Terminal, bool) {
	for _, r := range l.Terminals {
		if r.PaneID == pane {
			return r, true
		}
	}
	return api.Terminal{}, false
}

// newWindow opens a window running cmd and returns its pane id.
func newWindow(t testing.TB, srv *tmuxtest.Server, w, h int, cmd string) string {
	t.Helper()
	out := srv.MustRun("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main", cmd)
	pane := strings.TrimSpace(string(out))
	if got := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}"))); got != fmt.Sprintf("%dx%d", w, h) {
		// A resize re-seeds every follower of the pane: only when needed.
		srv.MustRun("resize-window", "-t", pane, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
	}
	return pane
}

// paneBytes is how many bytes the pane's screen has taken so far.
func (d *daemon) paneBytes(p controlmode.PaneID) int64 {
	m := d.sv.monitor(p)
	if m == nil {
		return 0
	}
	return m.Diagnose().Bytes
}

func paneIDOf(s string) (controlmode.PaneID, error) { return controlmode.ParsePaneID(s) }

// screenText is the daemon's model of the pane's screen, as plain text.
func (d *daemon) screenText(pane string) string {
	p, err := paneIDOf(pane)
	if err != nil {
		return ""
	}
	m := d.sv.monitor(p)
	if m == nil {
		return ""
	}
	return m.Diagnose().Text
}
