package supervisor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// resizeRan is the file the live resize's shell command appends a line
// to: after the approval it holds exactly one line (the command ran once).
const resizeRan = "resize-ran.txt"

// TestLiveResize: the real Claude Code and Codex, each in a 120x40 pane,
// are sent (through akk) a task whose shell command needs a permission;
// while the dialog is up a person splits the window vertically, which
// shrinks the agent's pane. The agent redraws at the new size and the
// daemon's row shows the dialog again, awaiting approval with an exact
// profile and not re-seeding, its model equal to tmux's capture cell for
// cell; status then approve once is accepted, the command runs exactly
// once and the Turn settles with the agent idle (at the new size, the
// model still equal to tmux).
func TestLiveResize(t *testing.T) {
	for _, tc := range []struct {
		agent, version string
		tool           *fakemodel.ToolCall
	}{
		{"claude", "2.1.267", &fakemodel.ToolCall{Name: "Bash",
			Input: map[string]any{"command": "echo ran >> " + resizeRan, "description": "Append a line to a file"}}},
		{"codex", "0.155.1", &fakemodel.ToolCall{Name: "exec_command",
			Input: map[string]any{"cmd": "echo ran >> " + resizeRan, "sandbox_permissions": "require_escalated",
				"justification": "Fake model wants to append a line to a file in the workspace."}}},
	} {
		t.Run(tc.agent+"/"+tc.version, func(t *testing.T) { liveResize(t, tc.agent, tc.version, tc.tool) })
	}
}

func liveResize(t *testing.T, agent, version string, tool *fakemodel.ToolCall) {
	start := time.Now()
	phase := start
	lap := func(what string) {
		t.Logf("%s %s: %s in %.1f s", agent, version, what, time.Since(phase).Seconds())
		phase = time.Now()
	}
	la := startLive(t, agent, version, fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-resize", Reply: fakemodel.Reply{Tool: tool}}}})
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{}), 4*time.Minute)
	d, ctx := ld.d, ld.ctx
	lap("idle at 120x40")

	turn := ld.send("run-resize")
	row := ld.awaitScreen(contract.ScreenAwaitingApproval)
	if row.Interaction.Tool != contract.ToolShell || !slices.Contains(row.Interaction.Decisions, contract.DecisionApproveOnce) {
		t.Fatalf("want the shell dialog with approve_once, got %+v", row.Interaction)
	}
	before := row.Interaction.InteractionID
	lap("the dialog at 120x40")

	// A person splits the window: the agent's pane keeps the top half.
	pid, _ := paneIDOf(la.pane)
	bytesAtSplit := d.paneBytes(pid)
	la.srv.MustRun("split-window", "-v", "-t", la.pane, "-d", "sleep 100000")
	size := strings.TrimSpace(string(la.srv.MustRun("display-message", "-p", "-t", la.pane, "#{pane_width}x#{pane_height}")))
	var w, h int
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w != 120 || h >= 40 {
		t.Fatalf("pane %s after the split (%v), want 120 x fewer than 40", size, err)
	}
	// The agent redraws its dialog at the new size (output after the
	// split: tmux's own crop of the old frame is not enough): tmux shows
	// the command again, the model equals tmux, and the row is the
	// dialog, actionable, exact, not re-seeding.
	var last api.Terminal
	var redraw int64
	tmuxtest.Await(t, 60*time.Second, func() string {
		if redraw = d.paneBytes(pid) - bytesAtSplit; redraw <= 0 {
			return "no output from the agent since the split"
		}
		if diff := modelDiff(ctx, d, la.srv, la.pane, resizeRan); diff != "" {
			return "model vs tmux: " + diff
		}
		last = ld.row()
		switch r := last; {
		case r.Profile != "exact":
			return fmt.Sprintf("profile %q", r.Profile)
		case slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "screen re-seeding") }):
			return fmt.Sprintf("warnings %v", r.Warnings)
		case r.ScreenState != contract.ScreenAwaitingApproval || r.ActivityState != contract.ActivityAwaitingApproval:
			return fmt.Sprintf("screen %s, activity %s", r.ScreenState, r.ActivityState)
		case r.Interaction == nil || r.Interaction.State != contract.StatePending || r.Interaction.Tool != contract.ToolShell ||
			!slices.Contains(r.Interaction.Decisions, contract.DecisionApproveOnce):
			return fmt.Sprintf("interaction %+v", r.Interaction)
		case r.AvailableActions["approve"].Arguments["turn_id"] != turn:
			return fmt.Sprintf("approve not advertised by turn: %+v", r.AvailableActions)
		}
		return ""
	})
	lap(fmt.Sprintf("the dialog again at %s after %d bytes of redraw (interaction %s, before the split %s)", size, redraw, last.Interaction.InteractionID, before))

	// Status, then approve once.
	ld.decide(turn, contract.DecisionApproveOnce)
	lap("approve once accepted")
	ld.idle()
	ld.awaitSettled(turn)
	lap("idle and the turn settled")
	if b, err := os.ReadFile(filepath.Join(la.work, resizeRan)); err != nil || string(b) != "ran\n" {
		t.Errorf("%s: %q (%v), want the command run once", resizeRan, b, err)
	}
	tmuxtest.Await(t, 15*time.Second, func() string { return modelDiff(ctx, d, la.srv, la.pane, "") })
	if got := strings.TrimSpace(string(la.srv.MustRun("display-message", "-p", "-t", la.pane, "#{pane_width}x#{pane_height}"))); got != size {
		t.Errorf("pane %s at the end, want %s", got, size)
	}
	t.Logf("%s %s: resized mid-prompt and approved in %.1f s", agent, version, time.Since(start).Seconds())
}
