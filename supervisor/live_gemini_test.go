package supervisor

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestLiveGeminiDispatch: the real Gemini CLI 0.61.0, offline against
// fakemodel.Gemini, through akk alone. Its conversation is bound from its
// own chats file; a task sent is accepted by its request's hash in that
// file; a shell command approved once runs once, after a reject was
// refused with zero input (its "No" row is Esc's cancel of the whole
// request); cancel interrupts a working turn with Esc, the screen says so
// (blocked, interrupted) and the file's "Request cancelled." settles the
// Turn cancelled. Gemini writes no end of turn: a Turn, and an exact Watch
// of a person's task, settle completed at the turn's last reply once the
// screen rests idle after it (tasks.restingReply); the approved task's
// first reply (its call) must not settle it.
func TestLiveGeminiDispatch(t *testing.T) {
	const agent, version = "gemini", "0.61.0"
	la := startLive(t, agent, version, rig.Script(agent, version))
	ld := liveDispatchOn(t, la, agent, daemonOpts{geminiTmp: filepath.Join(la.home, ".gemini", "tmp")}, 6*time.Minute)
	d, ctx := ld.d, ld.ctx
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.Agent != agent || r.Version != version || r.Profile != "exact" || r.NativeIdentityState != contract.IdentityResolved {
			return "gemini, exact, its chats file bound"
		}
		return ""
	})

	// 1. A task, accepted from the chats file, completed at its reply.
	ld.awaitSettled(ld.send("hello there"))
	ld.idle()

	// 2. A shell command: reject refused (nothing typed), approved once.
	turn := ld.send("run-touch please")
	row := ld.awaitScreen(contract.ScreenAwaitingApproval)
	if ds := row.Interaction.Decisions; !slices.Equal(ds, []contract.Decision{contract.DecisionApproveOnce}) || row.Interaction.Tool != contract.ToolShell {
		t.Fatalf("the shell confirmation offers %v (tool %q), want approve_once alone", ds, row.Interaction.Tool)
	}
	if res := ld.approve(turn, contract.DecisionReject); res.Outcome != api.OutcomeRejected {
		t.Fatalf("reject: %+v", res)
	}
	if again := ld.row(); again.ScreenState != contract.ScreenAwaitingApproval {
		t.Fatalf("a refused reject changed the screen: %s", again.ScreenState)
	}
	created := filepath.Join(la.work, "fake-created.txt")
	if _, err := os.Stat(created); err == nil {
		t.Fatal("the command ran before its approval")
	}
	if task, err := d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: turn}); err != nil || task.State != tasks.TurnRunning {
		t.Fatalf("the Turn at its confirmation: %+v %v", task, err)
	}
	ld.decide(turn, contract.DecisionApproveOnce) // a refusal while the dialog still draws sent nothing: looked at again
	ld.awaitSettled(turn)
	ld.idle()
	if _, err := os.Stat(created); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}

	// A person's task, watched exactly, to done.
	ld.watchPersonTask(row.TerminalID, "hello from a person", 300*time.Millisecond)
	ld.idle()

	// 3. Cancel a working turn: Esc, Gemini's own "Request cancelled.",
	// and the Turn settled cancelled from the file.
	ld.cancelWorking()
	ld.logLatencies(version)
}

// cancelWorking sends a slow task, and once the agent works cancels it:
// accepted, the agent's screen interrupted (resumable) and the Turn
// settled cancelled.
func (ld *liveDispatch) cancelWorking() {
	ld.t.Helper()
	turn := ld.send("slow-work please")
	ld.awaitWorking()
	res, err := ld.d.cl.Cancel(ld.ctx, api.CancelRequest{TurnID: turn})
	if err != nil {
		ld.t.Fatal(err)
	}
	ld.accept(res)
	ld.resumable(recognizers.BlockedInterrupted)
	awaitTurn(ld.t, ld.ctx, ld.d, turn, tasks.TurnCancelled)
}

// awaitWorking waits for the working screen.
func (ld *liveDispatch) awaitWorking() {
	ld.t.Helper()
	awaitRow(ld.t, ld.d.cl, ld.la.pane, 60*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenWorking {
			return "working"
		}
		return ""
	})
}
