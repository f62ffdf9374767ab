// Package demo runs akk's main job with nothing to set up: a private tmux
// server with replica agents from the recorded corpus (each driven through
// its recording's inputs but the last, so that it stays at its most
// interesting screen) and the supervisor attached to it, in this process,
// on a private store and API socket.
//
// It does not present anything (akk demo's live table is the CLI's) and
// never touches the user's tmux server: everything lives in one temporary
// directory, removed by Close with the server it started.
package demo

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor"
)

// Panes are the replicas of the demo: agent, version, surface.
var Panes = [][3]string{
	{"claude", "2.1.267", "permission-approve"},
	{"codex", "0.155.1", "question-digit"},
	{"claude", "2.1.267", "several-questions"},
	{"codex", "0.155.1", "async-question"},
	{"claude", "2.1.263", "working"},
}

// Options configure a demo.
type Options struct {
	Corpus string  // the recordings directory
	Speed  float64 // replay speed factor (> 0)
	Exe    string  // the akk binary the replicas run
	Logger *slog.Logger
}

// Demo is a running demo.
type Demo struct {
	// Client talks to the demo's daemon; TmuxSocket is its tmux server
	// (tmux -S TmuxSocket attach -r -t demo); Replicas counts the panes.
	Client     *api.Client
	TmuxSocket string
	Replicas   int

	d    *demo
	stop func()
}

// Start starts the tmux server, the supervisor and the replicas' drivers
// (which end with ctx). Close it.
func Start(ctx context.Context, o Options) (*Demo, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, errors.New("akk demo needs tmux 3.3a in PATH (apt-get install tmux)")
	}
	files, err := Files(o.Corpus)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "akk-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	d := &demo{dir: dir, sock: filepath.Join(dir, "tmux.sock"), exe: o.Exe, speed: o.Speed}
	if err := d.startTmux(files); err != nil {
		d.killTmux()
		os.RemoveAll(dir)
		return nil, err
	}
	stop, cl, err := d.startSupervisor(ctx, o.Logger)
	if err != nil {
		d.killTmux()
		os.RemoveAll(dir)
		return nil, err
	}
	for i, f := range files {
		go d.drive(ctx, cl, i, f)
	}
	return &Demo{Client: cl, TmuxSocket: d.sock, Replicas: len(files), d: d, stop: stop}, nil
}

// Close stops the supervisor, kills the demo's tmux server (by its own
// socket) and removes its directory.
func (dm *Demo) Close() {
	dm.Client.Close()
	dm.stop()
	dm.d.killTmux()
	os.RemoveAll(dm.d.dir)
}

// Files finds the demo's recordings under corpus.
func Files(corpus string) ([]string, error) {
	var out []string
	for _, p := range Panes {
		f := filepath.Join(corpus, p[0], p[1], p[2]+".cast")
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("demo: recording %s not found: run akk demo from the akk checkout, or give --corpus DIR", f)
		}
		abs, _ := filepath.Abs(f)
		out = append(out, abs)
	}
	return out, nil
}

type demo struct {
	dir, sock, exe string
	speed          float64
}

func (d *demo) tmux(args ...string) ([]byte, error) {
	cmd := exec.Command("tmux", append([]string{"-S", d.sock}, args...)...)
	cmd.Env = demoEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return out, nil
}

func demoEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	return append(env, "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
}

// startTmux starts the private server: one 120x40 window per replica (the
// recordings' size), waiting on a fifo so that no output is lost before
// the supervisor follows, and a shell.
func (d *demo) startTmux(files []string) error {
	if _, err := d.tmux("-f", "/dev/null", "new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", "-n", "shell", "sh"); err != nil {
		return fmt.Errorf("demo: start tmux: %w", err)
	}
	for _, o := range [][]string{{"status", "off"}, {"remain-on-exit", "on"}, {"default-size", "120x40"}} {
		if _, err := d.tmux("set-option", "-g", o[0], o[1]); err != nil {
			return err
		}
	}
	for i, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".cast")
		cmd := fmt.Sprintf("read _ < %s; exec %s replica --speed %g %s", d.fifo(i), shellQuote(d.exe), d.speed, shellQuote(f))
		if err := mkfifo(d.fifo(i)); err != nil {
			return err
		}
		if _, err := d.tmux("new-window", "-d", "-t", "demo", "-n", name, "sh", "-c", cmd); err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) fifo(i int) string { return filepath.Join(d.dir, fmt.Sprintf("go%d", i)) }

func (d *demo) killTmux() { _, _ = d.tmux("kill-server") }

// followed waits until the daemon lists the pane of target, so that the
// replica's first output reaches its screen model through %output.
func (d *demo) followed(ctx context.Context, cl *api.Client, target string) bool {
	out, err := d.tmux("display-message", "-p", "-t", target, "#{pane_id}")
	if err != nil {
		return false
	}
	pane := strings.TrimSpace(string(out))
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if l, err := cl.List(ctx); err == nil {
			for _, r := range l.Terminals {
				if r.PaneID == pane {
					return true
				}
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// startSupervisor runs the daemon in this process on a private store and
// API socket.
func (d *demo) startSupervisor(ctx context.Context, lg *slog.Logger) (func(), *api.Client, error) {
	st, err := store.Open(filepath.Join(d.dir, "store"), &store.Options{Logger: lg})
	if err != nil {
		return nil, nil, err
	}
	sockPath := filepath.Join(d.dir, "api", api.SocketName)
	ln, err := api.Listen(sockPath)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	sv, err := supervisor.New(supervisor.Config{Logger: lg, Store: st, TmuxSocket: d.sock, TmuxEnv: demoEnv(),
		Listener: ln, AllowReplicas: true})
	if err != nil {
		ln.Close()
		st.Close()
		return nil, nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- sv.Run(sctx) }()
	stop := func() {
		cancel()
		if err := <-done; err != nil {
			lg.Warn("demo supervisor", "err", err)
		}
		st.Close()
	}
	return stop, api.NewClient(sockPath), nil
}

// drive starts replica i once the supervisor follows its pane, then sends
// its recorded inputs at their recorded times, all but the last: the
// replica stays at the screen before it (a prompt, a question, a draft).
func (d *demo) drive(ctx context.Context, cl *api.Client, i int, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	rec, err := recordings.Decode(data)
	if err != nil {
		return
	}
	target := fmt.Sprintf("demo:%d", i+1)
	if !d.followed(ctx, cl, target) {
		return
	}
	if err := os.WriteFile(d.fifo(i), []byte("go\n"), 0o600); err != nil {
		return
	}
	start := time.Now()
	ins := recordings.Inputs(rec)
	for _, in := range ins[:max(0, len(ins)-1)] {
		at := start.Add(time.Duration(in.Time / d.speed * float64(time.Second)))
		select {
		case <-time.After(time.Until(at)):
		case <-ctx.Done():
			return
		}
		args := []string{"send-keys", "-t", target, "-H"}
		for _, b := range in.Data {
			args = append(args, hex.EncodeToString([]byte{b}))
		}
		_, _ = d.tmux(args...)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func mkfifo(path string) error {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return fmt.Errorf("demo: mkfifo %s: %w", path, err)
	}
	return nil
}
