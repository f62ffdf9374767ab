package supervisor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestTmuxManagedSendCallbacks: akk sends a task to replica agents (both
// agents), the replayed model asks for a permission, akk approves by
// turn_id, and the replica plays to its end. The controller is woken
// with exactly one interaction_required per route for the one prompt.
//
// A replica has no transcript or rollout, so no durable evidence can
// prove the Turn complete: the monitor must not claim it. No done is
// delivered; the Turn is still running at the recording's last screen,
// and when the replica process exits it ends once as failed
// (terminal_exited), one error per route. The completed-with-one-done half
// runs on the real agents (TestLive*Monitors).
func TestTmuxManagedSendCallbacks(t *testing.T) {
	sinks, cb := newCallbackSinks(t)
	akk, srv, d := replicaStage(t, daemonOpts{callbacks: cb})
	ctx, client := driverClient(t, srv, 2*time.Minute)
	surfaces := [][3]string{{"claude", "2.1.267", "permission-approve"}, {"codex", "0.154.0", "permission-approve"}}
	cases := replicaPanes(t, srv, akk, surfaces)
	st := &dispatchStats{byOp: map[string]int{}}
	dispatchEach(t, ctx, d, client, srv, cases, st)
	if t.Failed() {
		return
	}
	if st.byOp["send"] != len(cases) || st.byOp["approve"] != len(cases) {
		t.Fatalf("akk dispatched %v, want a send and an approve per replica", st.byOp)
	}
	// The Turns akk created, from the event history.
	var turns []string
	d.cl.Events(ctx, 0, false, func(e api.Event) error {
		if e.Type == api.EventTurnCreated {
			turns = append(turns, e.Attrs["turn_id"])
		}
		return nil
	})
	if len(turns) != len(cases) {
		t.Fatalf("turns %v", turns)
	}
	for _, turn := range turns {
		awaitDelivered(t, ctx, d.cl, api.TaskRequest{TurnID: turn}, func(task api.Task) string {
			rec, err := d.st.Turn(turn)
			if task.State != tasks.TurnFailed || err != nil || rec.Reason != tasks.ReasonExited {
				return fmt.Sprintf("turn %s, stored %s %s %v", task.State, rec.State, rec.Reason, err)
			}
			return ""
		})
	}
	time.Sleep(time.Second) // a late duplicate would land here
	seen := sinks.delivered(t)
	for _, turn := range turns {
		got := subjectCounts(seen, turn)
		prompts := map[string]bool{}
		for k, n := range got {
			route, rest, _ := strings.Cut(k, " ")
			switch {
			case strings.HasPrefix(rest, "done/"):
				t.Errorf("%s: %s delivered %q: a replica has no durable evidence of completion", turn, route, rest)
			case strings.HasPrefix(rest, "blocked/"+api.CallbackInteractionRequired+" "):
				prompts[strings.TrimPrefix(rest, "blocked/"+api.CallbackInteractionRequired+" ")] = true
				if n != 1 {
					t.Errorf("%s: %s delivered %q %d times, want 1", turn, route, rest, n)
				}
			case rest == "error/"+api.CallbackFailed:
				if n != 1 {
					t.Errorf("%s: %s delivered the end %d times, want 1", turn, route, n)
				}
			default:
				t.Errorf("%s: %s delivered %q (%d times)", turn, route, rest, n)
			}
		}
		// One permission prompt in the recording: one interaction id,
		// on each route.
		if len(prompts) != 1 || got["hook error/"+api.CallbackFailed] != 1 || got["cmd error/"+api.CallbackFailed] != 1 {
			t.Errorf("%s: delivered %v", turn, got)
		}
		for p := range prompts {
			for _, r := range []string{"hook", "cmd"} {
				if got[r+" blocked/"+api.CallbackInteractionRequired+" "+p] != 1 {
					t.Errorf("%s: %s did not get the prompt %s: %v", turn, r, p, got)
				}
			}
		}
		task, _ := d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: turn})
		for _, n := range task.Notifications {
			if n.State != store.NtfAccepted || n.Attempts != 1 {
				t.Errorf("%s: notification %s %s after %d attempts", turn, n.Event, n.State, n.Attempts)
			}
		}
	}
}
