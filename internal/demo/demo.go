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
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor"
)

// Scene is one replica of the demo: a recording, played up to where akk
// takes over.
type Scene struct {
	Agent, Version, Surface string
	// Takeover is the marker the driver plays the recording to (0-based);
	// akk's own actions then send the rest. TakeoverStart: before the
	// first input (an idle agent); TakeoverNone: an agent the demo only
	// watches, played up to its last input (which the person types at
	// the end: Finish).
	Takeover int
}

// Takeover points besides a marker index.
const (
	TakeoverStart = -1
	TakeoverNone  = -2
)

// Scenes are the demo's replicas, in window order (window i+1): the
// recorded surfaces scenes.txt names.
var Scenes = mustScenes(scenesText)

//go:embed scenes.txt
var scenesText string

// mustScenes reads the scene table; a malformed one is a build's mistake,
// found by any test that loads the package.
func mustScenes(text string) []Scene {
	var out []Scene
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			panic(fmt.Sprintf("demo: scenes.txt:%d: want agent, version, surface, takeover", n+1))
		}
		sc := Scene{Agent: f[0], Version: f[1], Surface: f[2]}
		switch f[3] {
		case "start":
			sc.Takeover = TakeoverStart
		case "none":
			sc.Takeover = TakeoverNone
		default:
			i, err := strconv.Atoi(f[3])
			if err != nil || i < 0 {
				panic(fmt.Sprintf("demo: scenes.txt:%d: takeover %q", n+1, f[3]))
			}
			sc.Takeover = i
		}
		out = append(out, sc)
	}
	return out
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
	d := &demo{dir: dir, sock: filepath.Join(dir, "tmux.sock"), exe: o.Exe, speed: o.Speed,
		recs: make([]*recordings.Recording, len(files)), pos: make([]int, len(files))}
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
		go d.drive(ctx, cl, i, f, Scenes[i].Takeover)
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
	for _, p := range Scenes {
		f := filepath.Join(corpus, p.Agent, p.Version, p.Surface+".cast")
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

	mu   sync.Mutex
	recs []*recordings.Recording // each scene's recording, once its driver read it
	pos  []int                   // the next event of each scene's recording the driver has not played
}

func (d *demo) tmux(args ...string) ([]byte, error) {
	cmd := controlmode.Command(context.Background(), d.sock, args...)
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
		// The shell writes the replica's exit status where Ended reads it
		// (tmux 3.3a's pane_dead_status is sometimes never set).
		cmd := fmt.Sprintf("read _ < %s; %s replica --speed %g %s; echo $? > %s", d.fifo(i), shellQuote(d.exe), d.speed,
			shellQuote(f), shellQuote(d.status(i)))
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

func (d *demo) status(i int) string { return filepath.Join(d.dir, fmt.Sprintf("status%d", i)) }

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
// its recorded inputs at their recorded times up to its takeover point
// (a person's typing before the screen akk acts on).
func (d *demo) drive(ctx context.Context, cl *api.Client, i int, file string, takeover int) {
	rec, err := recordings.ReadFile(file)
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
	d.mu.Lock()
	d.recs[i] = rec
	d.mu.Unlock()
	last := -1 // the last input's event
	for k, e := range rec.Events {
		if e.Code == recordings.Input {
			last = k
		}
	}
	start := time.Now()
	markers := 0
	for k, e := range rec.Events {
		d.mu.Lock()
		d.pos[i] = k
		d.mu.Unlock()
		switch {
		case e.Code == recordings.MarkerEv:
			if markers == takeover {
				d.mu.Lock()
				d.pos[i] = k + 1
				d.mu.Unlock()
				return
			}
			markers++
			continue
		case e.Code != recordings.Input:
			continue
		case takeover == TakeoverStart, takeover == TakeoverNone && k == last:
			return
		}
		at := start.Add(time.Duration(e.Time / d.speed * float64(time.Second)))
		select {
		case <-time.After(time.Until(at)):
		case <-ctx.Done():
			return
		}
		args := []string{"send-keys", "-t", target, "-H"}
		for _, b := range e.Data {
			args = append(args, hex.EncodeToString([]byte{b}))
		}
		_, _ = d.tmux(args...)
	}
}

// PersonTypes sends scene i's next recorded input into its pane, as the
// person at the keyboard would (the demo's driver, not akk), once the
// driver stopped at the takeover point.
func (dm *Demo) PersonTypes(i int) error {
	d := dm.d
	d.mu.Lock()
	defer d.mu.Unlock()
	rec := d.recs[i]
	if rec == nil {
		return errors.New("demo: the scene has not started")
	}
	for k := d.pos[i]; k < len(rec.Events); k++ {
		if e := rec.Events[k]; e.Code == recordings.Input {
			d.pos[i] = k + 1
			args := []string{"send-keys", "-t", fmt.Sprintf("demo:%d", i+1), "-H"}
			for _, b := range e.Data {
				args = append(args, hex.EncodeToString([]byte{b}))
			}
			_, err := d.tmux(args...)
			return err
		}
	}
	return errors.New("demo: no recorded input left")
}

// Finish types the last input of each watched scene, as its person
// would, so that it too plays to its end.
func (dm *Demo) Finish() error {
	for i, sc := range Scenes {
		if sc.Takeover == TakeoverNone {
			if err := dm.PersonTypes(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// PaneIDs are the tmux pane ids of the scenes' windows, in order.
func (dm *Demo) PaneIDs() ([]string, error) {
	out := make([]string, len(Scenes))
	for i := range Scenes {
		b, err := dm.d.tmux("display-message", "-p", "-t", fmt.Sprintf("demo:%d", i+1), "#{pane_id}")
		if err != nil {
			return nil, err
		}
		out[i] = strings.TrimSpace(string(b))
	}
	return out, nil
}

// Ended says, per scene, whether its replica ended clean (it received
// exactly its recorded inputs and played to its end: exit status 0), how
// it ended otherwise, and "" while it still runs.
func (dm *Demo) Ended() ([]string, error) {
	out := make([]string, len(Scenes))
	for i := range Scenes {
		b, err := os.ReadFile(dm.d.status(i))
		switch code := strings.TrimSpace(string(b)); {
		case errors.Is(err, os.ErrNotExist) || err == nil && code == "":
		case err != nil:
			return nil, err
		case code == "0":
			out[i] = "clean"
		default:
			out[i] = "exit status " + code
		}
	}
	return out, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func mkfifo(path string) error {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return fmt.Errorf("demo: mkfifo %s: %w", path, err)
	}
	return nil
}
