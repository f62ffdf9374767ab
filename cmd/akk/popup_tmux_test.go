package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/ptyclient"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// popupRig is a person at tmux: an isolated server whose window runs a
// replica agent, the akk daemon supervising it, the snippet of `akk
// tmux-conf` sourced, and a real tmux client attached through a pty whose
// output feeds a vt screen (what the person sees, popup included: tmux
// 3.3a's popups are drawn on the client, not in a pane).
type popupRig struct {
	t    *testing.T
	akk  string
	srv  *tmuxtest.Server
	api  *api.Client
	pane controlmode.PaneID
	ctl  *controlmode.Client
	feed *controlmode.Feed
	got  int // replica output bytes seen so far
	rec  *recordings.Recording
	ins  []recordings.RecordedInput // the recording's own inputs (no sentinel)
	fifo string
	logf string
	cl   *ptyclient.Client // the person's terminal
}

// The client is one row taller than the recordings (120x40): the status
// line takes it, and the replica plays at its recorded size.
const rigW, rigH = 120, 41

// replicaSentinel ends a rig's replica after its recording.
const replicaSentinel = "\x04"

func newPopupRig(t *testing.T, cast string) *popupRig {
	t.Helper()
	tmuxtest.RequireTmux(t)
	r := &popupRig{t: t, akk: buildAkk(t)}
	dir := t.TempDir()
	r.rec = loadCast(t, cast)
	r.ins = recordings.Inputs(r.rec)
	file := saveKeptAlive(t, r.rec, filepath.Join(dir, "replica.cast"), tmuxtest.User{})
	r.fifo = filepath.Join(dir, "go")
	tmuxtest.Mkfifo(t, r.fifo)
	r.srv = tmuxtest.Start(t, rigW, rigH-1, "sh -c 'read _ < "+r.fifo+"; exec "+r.akk+" replica "+file+"'")
	r.srv.MustRun("set-option", "-g", "status", "on")
	r.startDaemon(dir)
	r.sourceConf(dir)
	r.followPane()
	r.attachClient()
	return r
}

func (r *popupRig) startDaemon(dir string) {
	t := r.t
	sock := filepath.Join(dir, "api", api.SocketName)
	r.logf = filepath.Join(dir, "daemon.log")
	logf, err := os.Create(r.logf)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.akk, "--log-level", "debug", "attach", "-S", r.srv.Socket, "--store", filepath.Join(dir, "store"),
		"--socket", sock, "--allow-replicas")
	cmd.Env, cmd.Stderr, cmd.Stdout = r.srv.Env, logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		akkbin.Stop(cmd, os.Interrupt, 10*time.Second) // how the daemon ends is not these tests' question
		logf.Close()
	})
	r.api = api.NewClient(sock)
	t.Cleanup(r.api.Close)
	r.await("the daemon", 15*time.Second, func() bool {
		_, err := r.api.Health(context.Background())
		return err == nil
	})
}

// sourceConf sources the snippet of `akk tmux-conf` into the server.
func (r *popupRig) sourceConf(dir string) {
	out, err := exec.Command(r.akk, "tmux-conf", "--socket", r.api.Socket(), "--akk", r.akk).Output()
	if err != nil {
		r.t.Fatalf("akk tmux-conf: %v", err)
	}
	conf := filepath.Join(dir, "akk.conf")
	if err := os.WriteFile(conf, out, 0o600); err != nil {
		r.t.Fatal(err)
	}
	r.srv.MustRun("source-file", conf)
}

func (r *popupRig) followPane() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := controlmode.Start(ctx, controlmode.Config{Socket: r.srv.Socket, Session: "main", Env: r.srv.Env})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { c.Close() })
	r.ctl = c
	panes, err := c.Panes(ctx)
	if err != nil || len(panes) != 1 {
		r.t.Fatalf("panes %v %v", panes, err)
	}
	r.pane = panes[0].Pane
	if r.feed, err = c.Follow(r.pane); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { r.feed.Close() })
}

func (r *popupRig) attachClient() { r.cl = attachPerson(r.t, r.srv, "main", rigW, rigH) }

// clientText is what the person sees.
func (r *popupRig) clientText() string { return r.cl.Text() }

// clientCell finds text on the person's screen and returns its first cell.
func (r *popupRig) clientCell(text string) (vt.Cell, bool) { return r.cl.Cell(text) }

// keys types on the person's keyboard (the client's tty).
func (r *popupRig) keys(s string) { r.t.Helper(); r.cl.Keys(s) }

func (r *popupRig) await(what string, d time.Duration, ok func() bool) {
	r.t.Helper()
	if err := tmuxtest.Poll(context.Background(), d, tmuxtest.Until(what, ok)); err != nil {
		r.t.Fatalf("%v\nclient screen:\n%s", err, r.clientText())
	}
}

// awaitClient waits for text on the person's screen.
func (r *popupRig) awaitClient(text string) { r.t.Helper(); r.cl.AwaitText(text) }

// attachPerson is a person at a real tmux client of session
// (ptyclient.Attach); at the end every client is detached before the
// client is killed, so that its pty reader ends with the client.
func attachPerson(t *testing.T, srv *tmuxtest.Server, session string, w, h int) *ptyclient.Client {
	t.Helper()
	c := ptyclient.Attach(t, srv, session, w, h)
	t.Cleanup(func() { srv.Run("detach-client", "-a") })
	return c
}

// start lets the replica begin and sends its recorded inputs up to (not
// including) input number upto, each at its recorded point of the output.
func (r *popupRig) start(upto int) {
	if err := os.WriteFile(r.fifo, []byte("go\n"), 0o600); err != nil {
		r.t.Fatal(err)
	}
	r.drive(0, upto)
}

// drive sends inputs [from, upto) at their points.
func (r *popupRig) drive(from, upto int) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, in := range r.ins[from:upto] {
		r.take(ctx, in.After)
		if err := r.ctl.SendBytes(ctx, r.pane, in.Data); err != nil {
			r.t.Fatal(err)
		}
	}
}

// take waits until the replica wrote n bytes.
func (r *popupRig) take(ctx context.Context, n int) {
	for r.got < n {
		select {
		case <-r.feed.Ready():
		case <-ctx.Done():
			r.t.Fatalf("replica wrote %d bytes, want %d", r.got, n)
		}
		u := r.feed.Take()
		if u.Seed != nil {
			r.got = 0
		}
		r.got += len(u.Data)
	}
}

// attention reads the user option the daemon keeps.
func (r *popupRig) attention(ctx context.Context) string {
	rep, err := r.ctl.Command(ctx, "show-options", "-gqv", "@akk_attention")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(rep.Body))
}

// awaitAttention polls the option through the control client (one
// round trip per read) and returns when it first read want.
func (r *popupRig) awaitAttention(want string) time.Time {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if r.attention(ctx) == want {
			return time.Now()
		}
		time.Sleep(time.Millisecond)
	}
	out, _ := r.srv.Run("capture-pane", "-p", "-t", r.pane.String())
	r.t.Fatalf("@akk_attention never became %q (last %q); row %+v\n%s", want, r.attention(context.Background()), r.row(), out)
	return time.Time{}
}

// terminalID is the replica pane's terminal.
// narrowWindow narrows the agent's window to 90 columns, the prompt's
// layout with it, and waits for the daemon to read another screen state
// or another interaction than before.
func (r *popupRig) narrowWindow() {
	r.t.Helper()
	before := r.row()
	r.srv.MustRun("resize-window", "-t", "main", "-x", "90")
	r.await("the daemon to see the new layout", 15*time.Second, func() bool {
		now := r.row()
		return now.ScreenState != before.ScreenState || (now.Interaction == nil) != (before.Interaction == nil) ||
			(now.Interaction != nil && now.Interaction.InteractionID != before.Interaction.InteractionID)
	})
}

func (r *popupRig) row() api.Terminal {
	l, err := r.api.List(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	for _, t := range l.Terminals {
		if t.PaneID == r.pane.String() {
			return t
		}
	}
	r.t.Fatalf("no row for %s", r.pane)
	return api.Terminal{}
}

// hasDispatch probes the daemon: without the dispatch transaction it
// answers the mutating operations with unknown_operation.
func (r *popupRig) hasDispatch() bool {
	_, err := r.api.Cancel(context.Background(), api.CancelRequest{TurnID: "turn_probe"})
	return !api.IsCode(err, api.CodeNoOp)
}

// finish awaits the replica at its final screen (want), ends it with the
// sentinel and requires a clean exit: it received every recorded input,
// in order, and nothing else.
func (r *popupRig) finish(want contract.ScreenState) {
	r.t.Helper()
	r.await("the replica's final screen "+string(want), 30*time.Second, func() bool { return r.row().ScreenState == want })
	if err := r.ctl.SendBytes(context.Background(), r.pane, []byte(replicaSentinel)); err != nil {
		r.t.Fatal(err)
	}
	r.await("the replica to exit", 15*time.Second, func() bool { dead, _ := r.paneDead(); return dead })
	judgeReplicaExit(r.t, r.srv, r.pane.String())
}

// paneDead reports the replica's exit status once it exited.
func (r *popupRig) paneDead() (bool, string) { return paneDead(r.srv, r.pane.String()) }
