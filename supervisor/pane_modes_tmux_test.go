package supervisor

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry/refusaltest"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// paneModes are the tmux states of a person's pane in which a key would
// not reach the agent alone, with the refusal each gets.
var paneModes = []struct {
	fault  refusaltest.Fault
	reason string
}{
	{refusaltest.CopyMode, api.ReasonPaneInMode},
	{refusaltest.ViewMode, api.ReasonPaneInMode},
	{refusaltest.TreeMode, api.ReasonPaneInMode},
	{refusaltest.InputOff, api.ReasonPaneInputOff},
	{refusaltest.Synchronized, api.ReasonPanesSynchronized},
}

// inputCounter counts the input commands (send-keys, paste-buffer) the
// daemon's control clients issue: zero input is a count, not a look.
type inputCounter struct{ n atomic.Int64 }

func (c *inputCounter) observe(cmds []controlmode.Cmd) {
	for _, cmd := range cmds {
		if len(cmd) > 0 && (cmd[0] == "send-keys" || cmd[0] == "paste-buffer") {
			c.n.Add(1)
		}
	}
}

// TestTmuxPaneModes: every act into a pane that is in a tmux mode, has
// its input off, or is synchronized with another pane is refused before
// input with its reason: no input command reaches tmux, nothing is
// reserved, the mode's state is as the person left it, and the agent
// beside it (synchronized) receives nothing. Once the pane is itself
// again, the same status-then-act is accepted and typed once. One strict
// replica per surface is reused across all the states: it ends clean only
// if it received exactly its recorded inputs.
func TestTmuxPaneModes(t *testing.T) {
	var inputs inputCounter
	akk, srv, d := replicaStage(t, daemonOpts{onCommand: inputs.observe})
	ctx, client := driverClient(t, srv, 5*time.Minute)
	for _, c := range []refusaltest.Case{
		{Name: "approve claude", Agent: "claude", Version: "2.1.267", Recording: "permission-approve", Call: refusaltest.ApproveTerminal},
		{Name: "approve codex", Agent: "codex", Version: "0.155.1", Recording: "permission-approve", Call: refusaltest.ApproveTerminal},
		{Name: "approve gemini", Agent: "gemini", Version: "0.61.0", Recording: "permission-approve", Call: refusaltest.ApproveTerminal},
		{Name: "approve opencode", Agent: "opencode", Version: "1.18.33", Recording: "permission-approve", Call: refusaltest.ApproveTerminal},
		{Name: "respond codex", Agent: "codex", Version: "0.155.1", Recording: "question-digit", Call: refusaltest.RespondOption, Option: 1},
		{Name: "send codex", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1, Call: refusaltest.SendTerminal,
			Text: "hello there", Inputs: 2},
		{Name: "send --user codex", Agent: "codex", Version: "0.155.1", Recording: "clear-draft", Call: refusaltest.SendUser,
			Text: "hello there", Inputs: 3},
	} {
		t.Run(c.Name, func(t *testing.T) { paneModesCase(t, ctx, srv, akk, d, client, &inputs, c) })
	}
	t.Run("cancel claude", func(t *testing.T) { paneModesCancel(t, ctx, srv, akk, d, client, &inputs) })
}

// paneModesCancel: a managed Turn's cancel (the interrupt key) into each
// pane state is refused the same way, and goes through once the pane is
// itself again.
func paneModesCancel(t *testing.T, ctx context.Context, srv *tmuxtest.Server, akk string, d *daemon, client *controlmode.Client,
	inputs *inputCounter) {
	c, sent := workingCancelReplica(t, ctx, srv, akk, d, t.TempDir(), "claude", "2.1.267", "\x1b")
	r := &replicaDriver{t: t, ctx: ctx, d: d, client: client, c: c, name: "claude/2.1.267/working"}
	for _, m := range paneModes {
		f := refusaltest.Case{Fault: m.fault}
		tmuxFault(r, f)
		state := modeState(t, srv, c.pane)
		before := inputs.n.Load()
		res, err := d.cl.Cancel(ctx, api.CancelRequest{TurnID: sent.TurnID})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, m.reason+":") || res.ReceiptID != "" || res.DoNotRetry {
			t.Errorf("%s: cancel %s (%s) receipt %q, want rejected_before_input (%s), nothing reserved", m.fault, res.Outcome, res.Reason, res.ReceiptID, m.reason)
		}
		if n := inputs.n.Load() - before; n != 0 {
			t.Errorf("%s: %d input commands issued to tmux, want 0", m.fault, n)
		}
		if now := modeState(t, srv, c.pane); now != state {
			t.Errorf("%s: the pane's mode state went from %q to %q", m.fault, state, now)
		}
		tmuxUnfault(r, f)
	}
	res, err := d.cl.Cancel(ctx, api.CancelRequest{TurnID: sent.TurnID})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("cancel after the modes: %+v %v", res, err)
	}
	srv.MustRun("send-keys", "-t", c.pane, "-H", "04") // the sentinel ends the replica
	checkReplicaEnded(t, ctx, srv, c)
}

func paneModesCase(t *testing.T, ctx context.Context, srv *tmuxtest.Server, akk string, d *daemon, client *controlmode.Client,
	inputs *inputCounter, c refusaltest.Case) {
	surface := [3]string{c.Agent, c.Version, c.Recording}
	rcs := replicaPanes(t, srv, akk, [][3]string{surface, surface})
	// The bystander shares the target's window, side by side at the same
	// size, before either draws (a replica does not redraw on a resize).
	target, bystander := rcs[0], rcs[1]
	w, h := target.rec.Header.Width, target.rec.Header.Height
	srv.MustRun("resize-window", "-t", target.pane, "-x", strconv.Itoa(2*w+1), "-y", strconv.Itoa(h))
	srv.MustRun("join-pane", "-h", "-d", "-l", strconv.Itoa(w), "-s", bystander.pane, "-t", target.pane)
	if got := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", target.pane, "#{pane_width}x#{pane_height}"))); got != strconv.Itoa(w)+"x"+strconv.Itoa(h) {
		t.Fatalf("the target is %s, want %dx%d", got, w, h)
	}
	r := newReplicaDriver(t, ctx, d, client, target)
	by := newReplicaDriver(t, ctx, nil, client, bystander)
	at := func(r *replicaDriver) {
		if c.Marker < 0 {
			r.toInput()
		} else {
			r.toMarker(c.Marker)
		}
	}
	at(by)
	at(r)
	// statusThenAct takes a fresh status of the target and acts on it as
	// c says: its result, and the input commands issued meanwhile.
	statusThenAct := func(c refusaltest.Case) (api.ActionResult, int64) {
		st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
		if err != nil {
			t.Fatal(err)
		}
		before := inputs.n.Load()
		res, err := tmuxCall(r, c, st)
		if err != nil {
			t.Fatal(err)
		}
		return res, inputs.n.Load() - before
	}
	for _, m := range paneModes {
		c := c
		c.Fault = m.fault
		tmuxFault(r, c)
		if m.fault == refusaltest.Synchronized { // the window's option: both panes copy input
			r.tmux("set-option", "-w", "-t", "PANE", "synchronize-panes", "on")
		}
		state := modeState(t, srv, target.pane)
		res, n := statusThenAct(c)
		if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, m.reason+":") {
			t.Errorf("%s: outcome %s (%s), want rejected_before_input (%s)", m.fault, res.Outcome, res.Reason, m.reason)
		}
		if n != 0 {
			t.Errorf("%s: %d input commands issued to tmux, want 0", m.fault, n)
		}
		if res.ReceiptID != "" || res.DoNotRetry {
			t.Errorf("%s: a refusal before input reserved %q / do_not_retry %v", m.fault, res.ReceiptID, res.DoNotRetry)
		}
		if now := modeState(t, srv, target.pane); now != state {
			t.Errorf("%s: the pane's mode state went from %q to %q", m.fault, state, now)
		}
		if m.fault == refusaltest.Synchronized {
			r.tmux("set-option", "-w", "-u", "-t", "PANE", "synchronize-panes")
		}
		tmuxUnfault(r, c)
	}
	// Itself again: the same status-then-act goes through, typed once.
	res, n := statusThenAct(c)
	if res.Outcome != api.OutcomeAccepted {
		t.Fatalf("after the modes: outcome %s (%s), want accepted", res.Outcome, res.Reason)
	}
	if n == 0 {
		t.Errorf("accepted with no input command")
	}
	// The gate was read by the last barrier before the checks: a mode a
	// person enters later than this before the first key is the race of
	// a person's own key.
	if tm := res.Timing; tm != nil {
		t.Logf("gate to first key: %.1f ms (checks %.1f, reservation %.1f)", tm.ChecksMS+tm.ReserveMS, tm.ChecksMS, tm.ReserveMS)
	}
	for range max(c.Inputs, 1) {
		r.skipInput()
	}
	// Both replicas end clean: the target received exactly its recorded
	// inputs (one act), the bystander only its own.
	by.finish(srv)
	r.finish(srv)
}

// modeState is what a person sees of the pane's mode: which mode, and
// where copy-mode's cursor and scroll are.
func modeState(t *testing.T, srv *tmuxtest.Server, pane string) string {
	t.Helper()
	return strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane,
		"#{pane_mode}|#{copy_cursor_x},#{copy_cursor_y},#{scroll_position}|#{pane_input_off}|#{pane_synchronized}")))
}
