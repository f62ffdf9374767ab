package main

import (
	"context"
	"encoding/hex"
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
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor"
)

// DemoCmd is `akk demo`: the main job with nothing to set up. It starts a
// private tmux server with replica agents from the recorded corpus (each
// driven through its recording's inputs but the last, so it stays at its
// most interesting screen), attaches the supervisor to it, and shows a live
// table of their states.
type DemoCmd struct {
	Corpus   string        `help:"The recordings directory." default:"recordings/testdata" placeholder:"DIR"`
	Duration time.Duration `help:"Stop after this long (0: until interrupted; 30s when stdout is not a terminal)."`
	Speed    float64       `help:"Replay speed factor of the recordings." default:"1"`
}

// demoPanes are the replicas of the demo: agent, version, surface.
var demoPanes = [][3]string{
	{"claude", "2.1.267", "permission-approve"},
	{"codex", "0.155.1", "question-digit"},
	{"claude", "2.1.267", "several-questions"},
	{"codex", "0.155.1", "async-question"},
	{"claude", "2.1.263", "working"},
}

// Run runs the demo until interrupted or --duration.
func (c *DemoCmd) Run(ctx context.Context, g *Globals, lg *slog.Logger, stdout io.Writer, kctx *kong.Context) error {
	if _, err := exec.LookPath("tmux"); err != nil {
		return errors.New("akk demo needs tmux 3.3a in PATH (apt-get install tmux)")
	}
	if c.Speed <= 0 {
		return fmt.Errorf("%w: --speed %v: want a factor > 0", errUsage, c.Speed)
	}
	files, err := c.demoFiles()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	tty := isTTY(stdout)
	if c.Duration == 0 && !tty {
		c.Duration = 30 * time.Second
	}
	if c.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Duration)
		defer cancel()
	}
	dir, err := os.MkdirTemp("", "akk-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	d := &demo{dir: dir, sock: filepath.Join(dir, "tmux.sock"), exe: exe, speed: c.Speed}
	if err := d.startTmux(files); err != nil {
		return err
	}
	defer d.killTmux()
	stop, cl, err := d.startSupervisor(ctx, lg)
	if err != nil {
		return err
	}
	defer stop()
	defer cl.Close()
	for i, f := range files {
		go d.drive(ctx, i, f)
	}
	header := fmt.Sprintf("akk demo: %d replica agents and a shell on a private tmux server.\n"+
		"Watch them: tmux -S %s attach -r -t demo   (windows: C-b n; detach: C-b d)\n", len(files), d.sock)
	if !g.JSON {
		fmt.Fprint(stdout, header)
	}
	err = showLive(ctx, cl, stdout, g.JSON, tty, header)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// demoFiles finds the demo's recordings.
func (c *DemoCmd) demoFiles() ([]string, error) {
	var out []string
	for _, p := range demoPanes {
		f := filepath.Join(c.Corpus, p[0], p[1], p[2]+".cast")
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
func (d *demo) drive(ctx context.Context, i int, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	rec, err := recordings.Decode(data)
	if err != nil {
		return
	}
	select {
	case <-time.After(500 * time.Millisecond): // the supervisor attaches first
	case <-ctx.Done():
		return
	}
	if err := os.WriteFile(d.fifo(i), []byte("go\n"), 0o600); err != nil {
		return
	}
	start := time.Now()
	ins := recordings.Inputs(rec)
	target := fmt.Sprintf("demo:%d", i+1)
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

// showLive prints the list whenever it changes: redrawn in place on a
// terminal, appended otherwise, NDJSON list objects with --json.
func showLive(ctx context.Context, cl *api.Client, w io.Writer, asJSON, tty bool, header string) error {
	var last string
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		l, err := cl.List(ctx)
		if err == nil {
			var b strings.Builder
			if asJSON {
				j, _ := json.Marshal(l)
				b.Write(j)
				b.WriteByte('\n')
			} else {
				_ = printTable(&b, l.Terminals)
			}
			if s := b.String(); s != last {
				last = s
				switch {
				case tty && !asJSON:
					fmt.Fprint(w, "\x1b[H\x1b[2J", header, "\n", s)
				case asJSON:
					fmt.Fprint(w, s)
				default:
					fmt.Fprintf(w, "\n%s\n%s", time.Now().Format(time.TimeOnly), s)
				}
			}
		} else if ctx.Err() == nil {
			fmt.Fprintln(w, "akk demo:", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func mkfifo(path string) error {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return fmt.Errorf("demo: mkfifo %s: %w", path, err)
	}
	return nil
}
