package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// fifoPane starts a pane that prints whatever is written to a fifo (cat
// in a loop: each writer's bytes, then the next writer's), so a test
// draws exactly the bytes it chose; args place the pane (new-window or
// split-window and their options). It returns the pane and the fifo.
func fifoPane(t *testing.T, srv *tmuxtest.Server, dir, name string, args ...string) (pane, fifo string) {
	t.Helper()
	fifo = filepath.Join(dir, name)
	tmuxtest.Mkfifo(t, fifo)
	args = append(args, "-P", "-F", "#{pane_id}", fmt.Sprintf(`sh -c 'while :; do cat "%s"; done'`, fifo))
	return strings.TrimSpace(string(srv.MustRun(args...))), fifo
}

// draw writes b to a fifoPane's fifo.
func draw(t *testing.T, fifo string, b string) {
	t.Helper()
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b); err != nil {
		t.Fatal(err)
	}
}

// output64K is 64 KiB of numbered lines with colours, attributes and wide
// characters, ending in a line that says end; on the alternate screen it
// also redraws its top rows from time to time, as a TUI does.
func output64K(end string, alt bool) string {
	var b strings.Builder
	for i := 0; b.Len() < 64<<10; i++ {
		fmt.Fprintf(&b, "\x1b[3%dm%05d\x1b[0m \x1b[1mline\x1b[0m %s 世界 \x1b[48;5;%dm%s\x1b[0m\r\n",
			i%8, i, strings.Repeat("ab", i%20), i%256, strings.Repeat("-", i%13))
		if alt && i%40 == 39 {
			fmt.Fprintf(&b, "\x1b7\x1b[1;1H\x1b[7m frame %d \x1b[0m\x1b[K\x1b[2;5H\x1b[44mstatus\x1b[0m\x1b[K\x1b8", i)
		}
	}
	return b.String() + end + "\r\n"
}

// modelDiff compares the daemon's model of pane with tmux's capture
// (capture-pane -p -e -N and the size, taken by one command line) cell by
// cell: cells after a row's last printed cell need only be blank
// (capture-pane does not print cells erased with a colour), and a row
// whose printed cells overflow the width (a wide character left across
// the edge when the pane narrowed: tmux keeps it in its grid, and shows
// the cells that fit) is compared as laid out. It also wants the model
// not re-seeding and, when want is set, tmux to show want. "" means
// equal.
func modelDiff(ctx context.Context, d *daemon, srv *tmuxtest.Server, pane, want string) string {
	out, err := srv.Run("capture-pane", "-p", "-e", "-N", "-t", pane, ";",
		"display-message", "-p", "-t", pane, "#{pane_width} #{pane_height}")
	if err != nil {
		return err.Error()
	}
	body := strings.TrimSuffix(string(out), "\n")
	cut := strings.LastIndexByte(body, '\n')
	capture := body[:cut+1]
	var w, h int
	if _, err := fmt.Sscan(body[cut+1:], &w, &h); err != nil {
		return fmt.Sprintf("size %q: %v", body[cut+1:], err)
	}
	if want != "" && !strings.Contains(capture, want) {
		return fmt.Sprintf("tmux does not show %q yet", want)
	}
	l, err := d.cl.List(ctx)
	if err != nil {
		return err.Error()
	}
	row, ok := rowOf(l, pane)
	if !ok {
		return "no row for " + pane
	}
	for _, w := range row.Warnings {
		if strings.HasPrefix(w, "screen re-seeding") {
			return "the model is " + w
		}
	}
	p, _ := paneIDOf(pane)
	m := d.sv.monitor(p)
	if m == nil {
		return "no monitor for " + pane
	}
	diag := m.Diagnose()
	if diag.Width != w || diag.Height != h {
		return fmt.Sprintf("model %dx%d, tmux %dx%d", diag.Width, diag.Height, w, h)
	}
	tm, err := vt.ParseCapture([]byte(capture), w, h)
	if err != nil {
		return "tmux's capture: " + err.Error()
	}
	md, err := vt.ParseCapture([]byte(diag.ANSI), w, h)
	if err != nil {
		return "the model's rendering: " + err.Error()
	}
	return cellsDiff(md, tm)
}

func cellsDiff(md, tm *vt.Capture) string {
	for y := range tm.Rows {
		for x, c := range tm.Rows[y] {
			mc := md.Rows[y][x]
			if x >= tm.Used[y] {
				if mc.Text != " " && mc.Text != "" {
					return fmt.Sprintf("cell %d,%d: model %q, tmux blank", x, y, mc.Text)
				}
				continue
			}
			if mc.Text != c.Text || mc.Width != c.Width || mc.Style.WithoutLink() != c.Style.WithoutLink() {
				return fmt.Sprintf("cell %d,%d: model %q/w%d/%v, tmux %q/w%d/%v", x, y,
					mc.Text, mc.Width, mc.Style.WithoutLink(), c.Text, c.Width, c.Style.WithoutLink())
			}
		}
	}
	return ""
}

// sizeClient is a control client of the session that takes part in the
// window's size, as an attached terminal of cols x rows would.
func sizeClient(t *testing.T, ctx context.Context, srv *tmuxtest.Server, cols, rows int) *controlmode.Client {
	t.Helper()
	c, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	resizeClient(t, ctx, c, cols, rows)
	return c
}

func resizeClient(t *testing.T, ctx context.Context, c *controlmode.Client, cols, rows int) {
	t.Helper()
	if _, err := c.Command(ctx, "refresh-client", "-C", fmt.Sprintf("%dx%d", cols, rows)); err != nil {
		t.Fatal(err)
	}
}

// TestTmuxResize changes the size of a pane on the normal screen (with
// scrollback) and of one on the alternate screen every way a person's
// tmux does: clients of other sizes attaching and resizing (as control
// clients with a size: they count like terminals), window-size latest,
// smallest, largest and manual, resize-window, splits both ways,
// resize-pane, zoom and unzoom, panes closing; and the program leaving
// the alternate screen after its pane changed size. After each change
// the daemon's model equals tmux's capture cell for cell and is not
// re-seeding, and again after 64 KiB more output at the new size.
func TestTmuxResize(t *testing.T) {
	tmuxtest.RequireTmux(t)
	srv := tmuxtest.Start(t, 100, 30, "sh")
	dir := t.TempDir()
	// Both panes side by side in the session's current window: tmux sizes
	// the current window of its clients (the others when selected).
	normal, nfifo := fifoPane(t, srv, dir, "normal", "new-window", "-t", "main")
	alt, afifo := fifoPane(t, srv, dir, "alt", "split-window", "-d", "-h", "-t", normal)
	d := startDaemon(t, srv, daemonOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	round := 0
	check := func(step string) {
		t.Helper()
		for _, p := range []string{normal, alt} {
			tmuxtest.Await(t, 15*time.Second, func() string {
				if diff := modelDiff(ctx, d, srv, p, ""); diff != "" {
					return fmt.Sprintf("%s: pane %s: %s", step, p, diff)
				}
				return ""
			})
		}
		round++
		endN, endA := fmt.Sprintf("END-N-%d", round), fmt.Sprintf("END-A-%d", round)
		draw(t, nfifo, output64K(endN, false))
		draw(t, afifo, output64K(endA, true))
		for p, end := range map[string]string{normal: endN, alt: endA} {
			tmuxtest.Await(t, 20*time.Second, func() string {
				if diff := modelDiff(ctx, d, srv, p, end); diff != "" {
					return fmt.Sprintf("%s, after 64 KiB: pane %s: %s", step, p, diff)
				}
				return ""
			})
		}
		sizes := strings.Fields(string(srv.MustRun("list-panes", "-t", normal, "-F", "#{pane_id}:#{pane_width}x#{pane_height}")))
		t.Logf("%s: the models equal tmux (panes %v)", step, sizes)
	}
	// The normal pane gets a history; the other enters the alternate
	// screen over a normal screen of its own.
	draw(t, nfifo, output64K("START-N", false))
	draw(t, afifo, "shell line 1\r\nshell line 2\r\n$ agent\r\n\x1b[?1049h\x1b[H\x1b[2J\x1b[1mAGENT UI\x1b[0m\r\n")
	check("start")

	x := sizeClient(t, ctx, srv, 90, 25)
	check("a client of 90x25 attaches")
	resizeClient(t, ctx, x, 110, 35)
	check("its terminal resizes to 110x35")
	sizeClient(t, ctx, srv, 70, 20)
	check("a second client of 70x20 attaches (window-size latest)")
	srv.MustRun("set-option", "-g", "window-size", "smallest")
	check("window-size smallest")
	srv.MustRun("set-option", "-g", "window-size", "largest")
	check("window-size largest")
	splitN := strings.TrimSpace(string(srv.MustRun("split-window", "-d", "-v", "-P", "-F", "#{pane_id}", "-t", normal, "sleep 100000")))
	splitA := strings.TrimSpace(string(srv.MustRun("split-window", "-d", "-v", "-P", "-F", "#{pane_id}", "-t", alt, "sleep 100000")))
	check("split-window -v")
	srv.MustRun("resize-pane", "-t", normal, "-y", "8")
	srv.MustRun("resize-pane", "-t", alt, "-y", "12")
	check("resize-pane -y")
	srv.MustRun("kill-pane", "-t", splitA)
	splitA = strings.TrimSpace(string(srv.MustRun("split-window", "-d", "-h", "-P", "-F", "#{pane_id}", "-t", alt, "sleep 100000")))
	check("split-window -h")
	srv.MustRun("resize-pane", "-t", alt, "-x", "30")
	check("resize-pane -x")
	srv.MustRun("resize-pane", "-Z", "-t", normal)
	check("zoom the normal pane")
	srv.MustRun("resize-pane", "-Z", "-t", normal)
	check("unzoom")
	srv.MustRun("resize-pane", "-Z", "-t", alt)
	check("zoom the alternate pane")
	srv.MustRun("resize-pane", "-Z", "-t", alt)
	check("unzoom")
	// The program leaves the alternate screen at a size other than the
	// one it entered it at: tmux reflows the normal screen it restores.
	draw(t, afifo, "\x1b[?1049l$ back on the normal screen\r\n")
	check("the alternate screen left after the resizes")
	draw(t, afifo, "\x1b[?1049h\x1b[H\x1b[2J\x1b[1mAGENT UI AGAIN\x1b[0m\r\n")
	srv.MustRun("kill-pane", "-t", splitN)
	srv.MustRun("kill-pane", "-t", splitA)
	check("the split panes close")
	srv.MustRun("set-option", "-g", "window-size", "manual")
	srv.MustRun("resize-window", "-t", normal, "-x", "80", "-y", "24")
	check("window-size manual, resize-window")
	srv.MustRun("resize-window", "-t", normal, "-x", "150", "-y", "45")
	draw(t, afifo, "\x1b[?1049l$ exit at 150x45\r\n")
	check("resize-window again, then the alternate screen left")
	if got := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", alt, "#{alternate_on}"))); got != "0" {
		t.Fatalf("alternate_on %s after leaving", got)
	}
}

// resizeGo is the input a permission-resize replica waits for at the
// recorded resize: the test sends it once the pane has its new size.
const resizeGo = "resize-go"

// TestTmuxResizeReplica plays Claude Code's and Codex's permission-resize
// recordings: each agent shows a permission dialog, its pane changes size
// (a vertical split for Claude Code, a client of the recorded size for
// Codex: the recording's new size is 100x30) and the agent redraws at the
// new size. Replicas do not play resizes: the copy of the recording waits
// at the resize for an input the test sends once the pane has its new
// size. Before the redraw the model equals tmux and the profile stays
// exact (a clipped dialog may read manual_required, never a looser
// profile or a stale screen); after it, the dialog is actionable again
// and an approve is accepted.
func TestTmuxResizeReplica(t *testing.T) {
	for _, tc := range []struct{ agent, version, how string }{
		{"claude", "2.1.267", "split"},
		{"codex", "0.155.1", "client"},
		{"opencode", "1.18.33", "split"},
		// No gemini/0.61.0 row: its redrawn dialog keeps the old one's
		// rewrapped top above it (stale_prompt_above, manual_required;
		// agents/gemini/geminirig markResized), so no approve.
	} {
		t.Run(tc.agent, func(t *testing.T) { replicaResize(t, tc.agent, tc.version, tc.how) })
	}
}

func replicaResize(t *testing.T, agent, version, how string) {
	akk := tmuxAkk(t)
	rec := loadCorpus(t, agent, version, "permission-resize")
	w, h := rec.Header.Width, rec.Header.Height
	var nw, nh int
	for i, e := range rec.Events {
		if e.Code != recordings.Resize {
			continue
		}
		var err error
		if nw, nh, err = recordings.ParseSize(string(e.Data)); err != nil {
			t.Fatal(err)
		}
		wait := recordings.Event{Time: e.Time, Code: recordings.Input, Data: []byte(resizeGo)}
		rec.Events = append(rec.Events[:i], append([]recordings.Event{wait}, rec.Events[i:]...)...)
		break
	}
	if nw == 0 || nw > w || nh > h {
		t.Fatalf("no shrinking resize in the recording (%dx%d -> %dx%d)", w, h, nw, nh)
	}
	// What tmux shows at each marker: the recording replayed.
	var markers []string
	var states []contract.ScreenState
	if _, err := recordings.Replay(rec, vt.Options{}, func(st recordings.Step) error {
		if st.Marker != nil {
			markers = append(markers, st.Screen.PlainText(st.Screen.Bounds()))
			states = append(states, st.Marker.State)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(markers) < 3 || states[0] != contract.ScreenAwaitingApproval || states[1] != contract.ScreenAwaitingApproval {
		t.Fatalf("markers %v: want a dialog before and after the resize", states)
	}
	appendEvents(rec, sentinel) // the replica stays after its recording
	dir := t.TempDir()
	file := saveRecording(t, dir, agent+".cast", rec)
	fifo := filepath.Join(dir, "go")
	tmuxtest.Mkfifo(t, fifo)

	srv := tmuxtest.Start(t, w, h, "sh")
	srv.MustRun("set-option", "-g", "default-size", fmt.Sprintf("%dx%d", w, h))
	pane := newWindow(t, srv, w, h, fmt.Sprintf(`sh -c 'read _ < "%s"; exec "%s" replica "%s"'`, fifo, akk, file))
	d := startDaemon(t, srv, daemonOpts{})
	ctx, client := driverClient(t, srv, 2*time.Minute)
	rf, err := followReplica(client, pane)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	if err := rf.release(ctx, fifo); err != nil {
		t.Fatal(err)
	}
	p, _ := paneIDOf(pane)
	// The recorded inputs up to the resize, each once the output before
	// it is in the pane (as driveReplica does).
	out := 0
	for _, e := range rec.Events {
		if e.Code == recordings.Output || e.Code == recordings.OutputRaw {
			out += len(e.Data)
		}
		if e.Code != recordings.Input {
			continue
		}
		if string(e.Data) == resizeGo {
			break
		}
		if err := rf.take(ctx, out); err != nil {
			t.Fatal(err)
		}
		if err := client.SendBytes(ctx, p, e.Data); err != nil {
			t.Fatal(err)
		}
	}
	row := func() api.Terminal {
		l, _ := d.cl.List(ctx)
		r, _ := rowOf(l, pane)
		return r
	}
	atMarker := func(i int) func() string {
		return func() string {
			screen, err := srv.Run("capture-pane", "-p", "-t", pane)
			if err != nil {
				return err.Error()
			}
			if got := strings.TrimRight(string(screen), "\n"); got != strings.TrimRight(markers[i], "\n") {
				return fmt.Sprintf("marker %d: tmux shows\n%s\nwant\n%s", i, got, markers[i])
			}
			if diff := modelDiff(ctx, d, srv, pane, ""); diff != "" {
				return fmt.Sprintf("marker %d: %s", i, diff)
			}
			if r := row(); r.ScreenState != states[i] {
				return fmt.Sprintf("marker %d: screen_state %q, want %q", i, r.ScreenState, states[i])
			}
			return ""
		}
	}
	tmuxtest.Await(t, 20*time.Second, atMarker(0))

	switch how {
	case "split": // the pane keeps the top left nw x nh
		srv.MustRun("split-window", "-d", "-h", "-l", fmt.Sprint(w-nw-1), "-t", pane, "sleep 100000")
		srv.MustRun("split-window", "-d", "-v", "-l", fmt.Sprint(h-nh-1), "-t", pane, "sleep 100000")
	case "client": // a person's terminal of the new size attaches
		sizeClient(t, ctx, srv, nw, nh)
	}
	if got := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}"))); got != fmt.Sprintf("%dx%d", nw, nh) {
		t.Fatalf("pane %s after the %s, want %dx%d", got, how, nw, nh)
	}
	// Before the agent redraws: tmux's own resize of the old frame.
	tmuxtest.Await(t, 10*time.Second, func() string { return modelDiff(ctx, d, srv, pane, "") })
	r := row()
	t.Logf("%s %s before the redraw: screen_state %s, profile %s, interaction %v", agent, how, r.ScreenState, r.Profile, r.Interaction)
	if r.Profile != "exact" {
		t.Errorf("profile %q before the redraw, want exact (never a looser one)", r.Profile)
	}
	if r.ScreenState == contract.ScreenAwaitingApproval && (r.Interaction == nil || r.Interaction.State != contract.StatePending && r.Interaction.State != contract.StateManualRequired) {
		t.Errorf("interaction %+v on the resized dialog", r.Interaction)
	}
	if err := client.SendBytes(ctx, p, []byte(resizeGo)); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Await(t, 20*time.Second, atMarker(1))
	if r := row(); r.Interaction == nil || r.Interaction.State != contract.StatePending {
		t.Fatalf("after the redraw: interaction %+v, want pending", r.Interaction)
	}
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.TerminalID}); err != nil {
		t.Fatal(err)
	}
	res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: r.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve after the resize: %+v", res)
	}
	tmuxtest.Await(t, 20*time.Second, atMarker(2))
}
