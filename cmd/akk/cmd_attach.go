package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/logcap"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor"
)

// DaemonFlags pick the daemon's API socket; every client command has them.
type DaemonFlags struct {
	Socket string   `help:"The daemon's API socket (default: $XDG_RUNTIME_DIR/akk/akk.sock)." env:"AKK_SOCKET" placeholder:"PATH"`
	Host   []string `help:"Reach the daemon on another machine through your ssh (ssh://[user@]host[:port][/path/to/akk.sock]); repeat it for one view over several." placeholder:"URL"`
	// Timeout bounds each call: a daemon that never answers (a stuck
	// tmux, a wedged disk) must not hang a person's shell or a script.
	Timeout time.Duration `help:"How long to wait for each answer of the daemon (an act that may have landed and got no answer ends uncertain, exit 5; 0: no limit)." default:"2m" env:"AKK_TIMEOUT"`
}

func (d DaemonFlags) socket() string {
	if d.Socket != "" {
		return d.Socket
	}
	return api.DefaultSocket()
}

// client returns an API client of the daemon.
func (d DaemonFlags) client() *api.Client { return api.NewClient(d.socket()) }

// TmuxFlags pick the tmux server, as tmux's own -L and -S do.
type TmuxFlags struct {
	L string `short:"L" help:"tmux socket name (as tmux -L)." placeholder:"NAME"`
	S string `short:"S" help:"tmux socket path (as tmux -S)." placeholder:"PATH"`
}

// tmuxSocket is the server's socket path: -S, else -L (or "default") in
// ${TMUX_TMPDIR:-/tmp}/tmux-<uid>/. $TMUX is ignored on purpose: a daemon
// started inside tmux supervises the server it names only when asked.
func (t TmuxFlags) tmuxSocket() string {
	if t.S != "" {
		abs, err := filepath.Abs(t.S)
		if err == nil {
			return abs
		}
		return t.S
	}
	name := t.L
	if name == "" {
		name = "default"
	}
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), name)
}

// defaultStoreDir is $XDG_STATE_HOME/akk, else ~/.local/state/akk.
func defaultStoreDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "akk")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), fmt.Sprintf("akk-state-%d", os.Getuid()))
	}
	return filepath.Join(home, ".local", "state", "akk")
}

// AttachCmd is `akk attach`: the supervisor daemon, in the foreground.
type AttachCmd struct {
	TmuxFlags
	DaemonFlags
	Store         string        `help:"The store directory (default: $XDG_STATE_HOME/akk)." placeholder:"DIR"`
	AllowReplicas bool          `help:"Treat 'akk replica' panes as the agents of their recordings (tests, demos)."`
	Detach        bool          `help:"Start the daemon in the background and return once it answers."`
	LogFile       string        `help:"With --detach: the daemon's log (default: <store>/attach.log)." placeholder:"FILE"`
	Wait          time.Duration `help:"With --detach: how long to wait for the daemon to answer." default:"15s"`
	Config        string        `help:"Callback routes and monitor windows (default: $XDG_CONFIG_HOME/akk/config.toml, if present)." placeholder:"FILE" type:"path"`
}

// Run supervises until SIGINT/SIGTERM.
func (c *AttachCmd) Run(ctx context.Context, g *Globals, lg *slog.Logger, stdout io.Writer, kctx *kong.Context) error {
	if c.Store == "" {
		c.Store = defaultStoreDir()
	}
	if c.Detach {
		return c.detach(ctx, g, stdout)
	}
	if g.JSON {
		var level slog.Level
		_ = level.UnmarshalText([]byte(g.LogLevel))
		lg = slog.New(slog.NewJSONHandler(kctx.Stderr, &slog.HandlerOptions{Level: min(level, slog.LevelInfo)}))
	} else if g.LogLevel == "warn" { // the default: a foreground daemon says what it does
		lg = slog.New(slog.NewTextHandler(kctx.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	// A degraded daemon meets the same failure at every write it tries:
	// one warning or error of a kind per 10 s, with the count.
	lg = slog.New(logcap.New(lg.Handler(), nil))
	set, err := loadAttachConfig(c.Config)
	if err != nil {
		return err
	}
	ask, err := c.askConfig(set.Ask, lg)
	if err != nil {
		return err
	}
	st, err := store.Open(c.Store, &store.Options{Logger: lg})
	if err != nil {
		return storeError(err, c.Store)
	}
	defer st.Close()
	ln, err := api.Listen(c.socket())
	if errors.Is(err, api.ErrInUse) {
		return fmt.Errorf("another akk attach answers on %s: stop it, or give this one --socket", c.socket())
	}
	if err != nil {
		return err
	}
	// The bearer token of `akk mcp --http`, beside the socket in its
	// 0700 directory: what the socket's 0600 is to a TCP port.
	if _, err := api.EnsureToken(api.TokenPath(c.socket())); err != nil {
		ln.Close()
		return err
	}
	sv, err := supervisor.New(supervisor.Config{Logger: lg, Store: st, TmuxSocket: c.tmuxSocket(),
		Listener: ln, AllowReplicas: c.AllowReplicas, Callbacks: set.Callbacks, Tasks: set.Tasks, Ask: ask,
		Restart: reexec, QualifyDir: filepath.Join(c.Store, "qualify"), Qualify: set.Qualify})
	if err != nil {
		ln.Close()
		return err
	}
	lg.Info("akk attach", "pid", os.Getpid(), "tmux", c.tmuxSocket(), "store", c.Store, "socket", c.socket())
	if l := st.Lost(); l != nil {
		fmt.Fprintf(kctx.Stderr, "akk attach: warning: %s (store %s; akk doctor --store says more)\n", l, c.Store)
	}
	defer stopWithin(ctx, lg, shutdownLimit)()
	if err := sv.Run(ctx); err != nil {
		if errors.Is(err, supervisor.ErrNoServer) {
			return fmt.Errorf("%w (for another server: akk attach -L NAME or -S PATH)", err)
		}
		return err
	}
	return nil
}

// reexec is the daemon's way back from a store that failed and can be
// written again (supervisor.Config.Restart): pebble cannot be reopened in
// this process, and the daemon's state is on disk, so it becomes a new
// `akk attach` with the same arguments and environment. Every descriptor
// is close-on-exec: the store's locks and the API socket go with the old
// image, and the new one takes them afresh.
func reexec() error {
	return syscall.Exec(procid.SelfExe(), os.Args, os.Environ())
}

// shutdownLimit bounds a stop: a daemon whose store failed may have a call
// stuck in pebble, and SIGTERM must end it in every state.
const shutdownLimit = 4 * time.Second

// stopWithin exits the process when ctx has ended and the daemon has not
// returned (the returned func) within limit.
func stopWithin(ctx context.Context, lg *slog.Logger, limit time.Duration) (returned func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(limit)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			lg.Error("akk attach did not stop within the limit after a signal: exiting", "limit", limit)
			os.Exit(exitFailure)
		}
	}()
	return func() { close(done) }
}

// storeError says what to do about a store that cannot be opened.
func storeError(err error, dir string) error {
	switch {
	case errors.Is(err, store.ErrLocked):
		return fmt.Errorf("%w: another akk attach already supervises with this store; stop it, or run a second one with --store DIR --socket PATH", err)
	case errors.Is(err, store.ErrFormat):
		return fmt.Errorf("%w (store %s)", err, dir)
	}
	return err
}

// detach starts `akk attach` (these flags, without --detach) in its own
// session, its output in a log file, and waits until it answers. A daemon
// that answers on the socket already is the one asked for when it
// supervises the same tmux server: that is success, and nothing starts.
func (c *AttachCmd) detach(ctx context.Context, g *Globals, stdout io.Writer) error {
	cl := c.client()
	defer cl.Close()
	h, err := cl.Health(ctx)
	switch {
	case errors.Is(err, api.ErrSocketNotOwned) || errors.Is(err, api.ErrServerNotOwned):
		return err // a daemon started there would refuse it too
	case api.IsCode(err, api.CodeTmuxUnavailable):
		return fmt.Errorf("akk attach already answers on %s, and its tmux server does not: %w", c.socket(), err)
	case err == nil:
		if h.TmuxSocket != c.tmuxSocket() {
			return fmt.Errorf("akk attach (pid %d) already answers on %s, supervising %s, not %s: stop it, or give this one --socket", h.PID, c.socket(), h.TmuxSocket, c.tmuxSocket())
		}
		if g.JSON {
			return json.NewEncoder(stdout).Encode(h)
		}
		fmt.Fprintf(stdout, "akk attach already running (pid %d), socket %s\n", h.PID, c.socket())
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("attach --detach: %w", err)
	}
	if err := os.MkdirAll(c.Store, 0o700); err != nil {
		return fmt.Errorf("attach --detach: %w", err)
	}
	logPath := c.LogFile
	if logPath == "" {
		logPath = filepath.Join(c.Store, "attach.log")
	}
	_ = os.Chmod(c.Store, 0o700) // an existing state dir, tightened
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("attach --detach: log: %w", err)
	}
	_ = logf.Chmod(0o600) // a log an older akk left 0644
	defer logf.Close()
	args := []string{"attach", "--store", c.Store, "--socket", c.socket(), "-S", c.tmuxSocket(), "--log-level", g.LogLevel}
	if c.AllowReplicas {
		args = append(args, "--allow-replicas")
	}
	if c.Config != "" {
		args = append(args, "--config", c.Config)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("attach --detach: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(c.Wait)
	for time.Now().Before(deadline) {
		h, err := cl.Health(ctx)
		if err == nil && h.PID == cmd.Process.Pid {
			if g.JSON {
				return json.NewEncoder(stdout).Encode(h)
			}
			fmt.Fprintf(stdout, "akk attach running (pid %d), log %s, socket %s\n", h.PID, logPath, c.socket())
			return nil
		}
		select {
		case err := <-exited:
			tail, _ := os.ReadFile(logPath)
			return fmt.Errorf("akk attach exited (%v); its log %s ends:\n%s", err, logPath, lastLines(string(tail), 5))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("akk attach (pid %d) did not answer within %v: see %s", cmd.Process.Pid, c.Wait, logPath)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
