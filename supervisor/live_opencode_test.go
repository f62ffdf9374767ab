package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestLiveOpenCodeDispatch: the real OpenCode 1.18.33, offline against
// fakemodel.Chat, through akk alone. Its session is found in its SQLite
// store once the first prompt wrote it; a task sent is accepted by its
// request's hash in the session's log and completes at its reply's
// finish; a shell command rejected (Reject selected, then Enter) did not
// run and its Turn ends cancelled; one approved once ran once and its
// Turn completes; cancel is Esc twice (the second once the screen shows
// the first armed it), read blocked/interrupted, and the Turn settles
// cancelled from the store; a person's task, watched exactly, to done.
func TestLiveOpenCodeDispatch(t *testing.T) {
	const agent, version = "opencode", "1.18.33"
	la := startLive(t, agent, version, rig.Script(agent, version))
	ld := liveDispatchOn(t, la, agent, daemonOpts{openCodeDB: filepath.Join(la.home, ".local", "share", "opencode", "opencode.db")}, 6*time.Minute)
	d, ctx := ld.d, ld.ctx
	row := awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.Agent != agent || r.Version != version || r.Profile != "exact" {
			return "opencode, exact"
		}
		return ""
	})

	// 1. A first task: the session appears in the store with it.
	ld.awaitSettled(ld.send("hello there"))
	ld.idle()
	if r := ld.row(); r.NativeIdentityState != contract.IdentityResolved {
		t.Fatalf("after the first prompt the session is %s", r.NativeIdentityState)
	}

	// 2. A shell command rejected: it does not run.
	created := filepath.Join(la.work, "fake-created.txt")
	turn := ld.send("run-touch please")
	row = ld.awaitScreen(contract.ScreenAwaitingApproval)
	if ds := row.Interaction.Decisions; !slices.Equal(ds, []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject}) {
		t.Fatalf("the permission offers %v, want approve_once and reject", ds)
	}
	ld.decide(turn, contract.DecisionReject) // a refusal while the dialog still draws sent nothing: looked at again
	ld.idle()
	if _, err := os.Stat(created); err == nil {
		t.Fatal("a rejected command ran")
	}
	awaitTurn(t, ctx, d, turn, tasks.TurnCancelled)

	// 3. Approved once: it runs once, and the Turn completes.
	turn = ld.send("run-touch again")
	ld.awaitScreen(contract.ScreenAwaitingApproval)
	if _, err := os.Stat(created); err == nil {
		t.Fatal("the command ran before its approval")
	}
	ld.decide(turn, contract.DecisionApproveOnce)
	ld.awaitSettled(turn)
	ld.idle()
	if _, err := os.Stat(created); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}

	// 4. Cancel a working turn.
	ld.cancelWorking()

	// 5. A person's task, watched exactly, to done.
	ld.watchPersonTask(row.TerminalID, "hello from a person", 0)
	ld.logLatencies(version)
}

// awaitTurn waits for a Turn's state.
func awaitTurn(t *testing.T, ctx context.Context, d *daemon, turn, state string) {
	t.Helper()
	tmuxtest.Await(t, 30*time.Second, func() string {
		task, err := d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: turn})
		if err != nil {
			return err.Error()
		}
		if task.State != state {
			return "turn " + task.State + "/" + task.Reason + ", want " + state
		}
		return ""
	})
}

// watchPersonTask takes an exact Watch of the terminal, types a person's
// task into the pane (Enter after gap: an agent's paste window) and waits
// for the Watch to settle done.
func (ld *liveDispatch) watchPersonTask(terminalID, task string, gap time.Duration) {
	t := ld.t
	t.Helper()
	w, err := ld.d.cl.Watch(ld.ctx, api.WatchRequest{TerminalID: terminalID})
	if err != nil {
		t.Fatal(err)
	}
	if w.WatchMode != api.WatchExactTask || w.Confidence != api.ConfidenceExact {
		t.Fatalf("watch of a bound %s: %+v", ld.agent, w)
	}
	ld.la.srv.MustRun("send-keys", "-t", ld.la.pane, "-l", task)
	if gap > 0 {
		time.Sleep(gap) // the agent's paste window, as a person types
	}
	ld.la.srv.MustRun("send-keys", "-t", ld.la.pane, "Enter")
	tmuxtest.Await(t, 60*time.Second, func() string {
		st, err := ld.d.cl.TaskStatus(ld.ctx, api.TaskRequest{WatchID: w.WatchID})
		switch {
		case err != nil:
			return err.Error()
		case st.State != tasks.WatchSettled:
			return "watch " + st.State + "/" + st.Reason
		case st.Reason != tasks.ReasonCompleted:
			t.Fatalf("the watch settled %+v", st)
		}
		return ""
	})
}
