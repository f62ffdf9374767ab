package supervisor

import (
	"fmt"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// runLiveTerminalActivity watches a real agent that has no native task to
// anchor yet (a fresh session: no transcript / rollout), so the Watch is
// terminal_activity, best effort. It must not settle on the idle screen it
// started from; a person then types a task; the Watch settles exactly once,
// only after the activity and then a stably idle screen, with one done per
// route labelled best_effort.
func runLiveTerminalActivity(t *testing.T, agent, version string) {
	la := startLive(t, agent, version, rig.Script(agent, version))
	sinks, cb := newCallbackSinks(t)
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{callbacks: cb}), 4*time.Minute)
	d, ctx := ld.d, ld.ctx
	row := ld.row()
	w, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	if w.WatchMode != api.WatchTerminalActivity || w.Confidence != api.ConfidenceBestEffort {
		t.Fatalf("watch of an agent with no native task yet: %+v", w)
	}
	// Idle from the start is no settlement: wait past the stable window.
	time.Sleep(7 * time.Second)
	if wt, err := d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: w.WatchID}); err != nil || wt.State != tasks.WatchActive {
		t.Fatalf("the Watch settled without activity: %+v %v", wt, err)
	}
	typed := time.Now()
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", "hello")
	time.Sleep(300 * time.Millisecond) // a paste-burst window: Enter apart from the text
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	task := awaitDelivered(t, ctx, d.cl, api.TaskRequest{WatchID: w.WatchID}, func(task api.Task) string {
		if task.State != tasks.WatchSettled {
			return fmt.Sprintf("%s %s", task.State, task.Reason)
		}
		return ""
	})
	if task.Reason != api.CallbackStablyIdle || task.Confidence != api.ConfidenceBestEffort {
		t.Errorf("settled %+v", task)
	}
	t.Logf("%s: settled %s after the person's Enter (stable idle window %s)", agent, time.Since(typed).Round(time.Millisecond), tasks.DefaultStableIdle)
	time.Sleep(3 * time.Second) // a late duplicate would land here
	got := subjectCounts(sinks.delivered(t), w.WatchID)
	want := map[string]int{"hook done/" + api.CallbackStablyIdle: 1, "cmd done/" + api.CallbackStablyIdle: 1}
	if len(got) != len(want) || got["hook done/"+api.CallbackStablyIdle] != 1 || got["cmd done/"+api.CallbackStablyIdle] != 1 {
		t.Errorf("delivered %v, want %v", got, want)
	}
}

func TestLiveClaudeTerminalActivity(t *testing.T) { runLiveTerminalActivity(t, "claude", "2.1.267") }
func TestLiveCodexTerminalActivity(t *testing.T)  { runLiveTerminalActivity(t, "codex", "0.155.1") }
