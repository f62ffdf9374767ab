package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// callbackSinks are the two routes of the end-to-end tests: a webhook on
// 127.0.0.1 and a command that keeps each stdin it is given. Both log
// every delivery, so a duplicate is seen, not deduplicated away.
type callbackSinks struct {
	rcv    *hooktest.Receiver
	cmdOut string
}

func newCallbackSinks(t *testing.T) (*callbackSinks, outbox.Config) {
	cs := &callbackSinks{rcv: hooktest.Start(t, "", nil), cmdOut: t.TempDir()}
	// $$ makes every run its own file: a second delivery of one
	// notification is a second file. Written aside and renamed, so that
	// the test never reads one half written.
	os.Mkdir(filepath.Join(cs.cmdOut, "tmp"), 0o755)
	os.Mkdir(filepath.Join(cs.cmdOut, "done"), 0o755)
	script := hooktest.Script(t, fmt.Sprintf(`cat > %[1]s/tmp/$$ && mv %[1]s/tmp/$$ %[1]s/done/"$AKK_NOTIFICATION_ID.$$"`, cs.cmdOut))
	return cs, outbox.Config{Routes: []outbox.RouteConfig{
		{Name: "hook", Kind: outbox.RouteWebhook, URL: cs.rcv.URL},
		{Name: "cmd", Kind: outbox.RouteCommand, Command: []string{script}},
	}, BackoffBase: 50 * time.Millisecond}
}

// delivered counts the envelopes each route received, keyed
// "<route> <subject> <type>/<event>[ <interaction_id>]".
func (cs *callbackSinks) delivered(t *testing.T) map[string]int {
	t.Helper()
	seen := map[string]int{}
	add := func(route string, body []byte) {
		var env api.CallbackEnvelope
		if err := json.Unmarshal(body, &env); err != nil {
			t.Errorf("%s delivered %s: %v", route, body, err)
			return
		}
		k := route + " " + env.TurnID + env.WatchID + " " + env.Type + "/" + env.Event
		if env.Interaction != nil {
			k += " " + env.Interaction.InteractionID
		}
		seen[k]++
	}
	for _, r := range cs.rcv.Requests() {
		add("hook", r.Body)
	}
	files, _ := filepath.Glob(filepath.Join(cs.cmdOut, "done", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Error(err)
			continue
		}
		add("cmd", b)
	}
	return seen
}

// subjectCounts returns the delivery counts of one subject (a turn_id or watch_id),
// without the subject in the key.
func subjectCounts(seen map[string]int, subject string) map[string]int {
	out := map[string]int{}
	for k, n := range seen {
		f := strings.SplitN(k, " ", 3)
		if len(f) == 3 && f[1] == subject {
			out[f[0]+" "+f[2]] += n
		}
	}
	return out
}

// awaitDelivered waits until every notification of a task is accepted and
// returns the task.
func awaitDelivered(t *testing.T, ctx context.Context, cl *api.Client, req api.TaskRequest, final func(api.Task) string) api.Task {
	t.Helper()
	var task api.Task
	tmuxtest.Await(t, 90*time.Second, func() string {
		var err error
		if task, err = cl.TaskStatus(ctx, req); err != nil {
			return err.Error()
		}
		if why := final(task); why != "" {
			return why
		}
		for _, n := range task.Notifications {
			if n.State != store.NtfAccepted {
				return fmt.Sprintf("notification %s %s: %s", n.Type, n.Event, n.State)
			}
		}
		return ""
	})
	return task
}

// runLiveMonitors drives a real pinned agent with callbacks on a webhook
// and a command route:
//
//  1. a managed send of a plain text task completes from the agent's own
//     transcript/rollout, and exactly one done reaches each route;
//  2. a managed send whose model asks for a tool: the approval prompt
//     wakes the controller with one interaction_required per route, akk
//     approves by turn_id, and the Turn ends with one done per route;
//  3. the controller watches the terminal (exact_task: the native session
//     is bound now), then a person types a task into the pane; its
//     approval prompt is interaction_manual_required once per route (a
//     Watch never approves), the person approves in the TUI, and the Watch
//     settles once, completed, with one done per route.
//
// Counts are taken after a grace period past the last acceptance, so a
// late duplicate would be seen.
func runLiveMonitors(t *testing.T, agent, version string) {
	la := startLive(t, agent, version, rig.Script(agent, version))
	sinks, cb := newCallbackSinks(t)
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{callbacks: cb}), 8*time.Minute)
	d, ctx := ld.d, ld.ctx

	settled := func(want string) func(api.Task) string {
		return func(task api.Task) string {
			if task.State != want {
				return fmt.Sprintf("%s %s", task.State, task.Reason)
			}
			return ""
		}
	}

	// 1. A plain task, sent by akk.
	plain := ld.send("hello")
	task := awaitDelivered(t, ctx, d.cl, api.TaskRequest{TurnID: plain}, settled(tasks.TurnCompleted))
	if task.Confidence != api.ConfidenceExact {
		t.Errorf("plain turn settled %+v", task)
	}
	t.Logf("1. plain task: completed")
	ld.idle()

	// 2. A task that needs an approval, sent by akk and approved by turn.
	tool := map[string]string{"claude": "run-touch", "codex": "run-ls"}[agent]
	approved := ld.send(tool)
	row := ld.awaitScreen(contract.ScreenAwaitingApproval)
	prompt := row.Interaction.InteractionID
	t.Logf("2. approval prompt %s", prompt)
	// The wake-up reaches both routes before anyone acts on the prompt.
	tmuxtest.Await(t, 30*time.Second, func() string {
		got := subjectCounts(sinks.delivered(t), approved)
		for _, r := range []string{"hook", "cmd"} {
			if got[r+" blocked/"+api.CallbackInteractionRequired+" "+prompt] == 0 {
				return fmt.Sprintf("%s: no interaction_required yet: %v", r, got)
			}
		}
		return ""
	})
	t.Logf("2. approve at %s", time.Now().Format("15:04:05.000"))
	ld.accept(ld.approve(approved, contract.DecisionApproveOnce))
	awaitDelivered(t, ctx, d.cl, api.TaskRequest{TurnID: approved}, settled(tasks.TurnCompleted))
	ld.idle()
	t.Logf("2. approved task: completed")

	// 3. A person's task, watched.
	w, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	if w.WatchMode != api.WatchExactTask || w.Confidence != api.ConfidenceExact {
		t.Fatalf("watch of a bound agent: %+v", w)
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", tool)
	time.Sleep(300 * time.Millisecond) // a paste-burst window: Enter apart from the text
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	row = ld.awaitScreen(contract.ScreenAwaitingApproval)
	human := row.Interaction.InteractionID
	tmuxtest.Await(t, 30*time.Second, func() string {
		got := subjectCounts(sinks.delivered(t), w.WatchID)
		for _, r := range []string{"hook", "cmd"} {
			if got[r+" blocked/"+api.CallbackInteractionManual+" "+human] == 0 {
				return fmt.Sprintf("%s: no interaction_manual_required yet: %v", r, got)
			}
		}
		return ""
	})
	if wt, err := d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: w.WatchID}); err != nil || wt.State != tasks.WatchActive {
		t.Errorf("the Watch at the prompt: %+v %v", wt, err)
	}
	// A person reads before pressing: Claude Code takes a digit that
	// arrives within ms of its dialog's first frame as a highlight move
	// (the dispatch path waits for a quiet screen for the same reason).
	time.Sleep(time.Second)
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", map[string]string{"claude": "1", "codex": "y"}[agent])
	task = awaitDelivered(t, ctx, d.cl, api.TaskRequest{WatchID: w.WatchID}, settled(tasks.WatchSettled))
	if task.Reason != tasks.ReasonCompleted || task.Confidence != api.ConfidenceExact {
		t.Errorf("watch settled %+v", task)
	}
	ld.idle()

	// A grace period: a duplicate or a late second settlement would land
	// in it (the monitors keep observing the idle screen meanwhile).
	time.Sleep(3 * time.Second)
	seen := sinks.delivered(t)
	for _, c := range []struct {
		subject string
		want    map[string]int
	}{
		{plain, map[string]int{"hook done/completed": 1, "cmd done/completed": 1}},
		{approved, map[string]int{"hook done/completed": 1, "cmd done/completed": 1,
			"hook blocked/" + api.CallbackInteractionRequired + " " + prompt: 1, "cmd blocked/" + api.CallbackInteractionRequired + " " + prompt: 1}},
		{w.WatchID, map[string]int{"hook done/completed": 1, "cmd done/completed": 1,
			"hook blocked/" + api.CallbackInteractionManual + " " + human: 1, "cmd blocked/" + api.CallbackInteractionManual + " " + human: 1}},
	} {
		got := subjectCounts(seen, c.subject)
		// Only the listed deliveries, each exactly once: no interaction
		// notification for any other prompt fingerprint, no second done.
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		})
		if len(got) != len(c.want) {
			for _, r := range sinks.rcv.Requests() {
				if strings.Contains(string(r.Body), c.subject) {
					t.Logf("%s at %s: %s", c.subject, r.At.Format("15:04:05.000"), r.Body)
				}
			}
			t.Errorf("%s: delivered %v, want %v", c.subject, keys, c.want)
		}
		for k, n := range c.want {
			if got[k] != n {
				t.Errorf("%s: %q delivered %d times, want %d (all: %v)", c.subject, k, got[k], n, got)
			}
		}
	}
	// Each webhook request carried its envelope's idempotency key.
	for _, r := range sinks.rcv.Requests() {
		var env api.CallbackEnvelope
		if err := json.Unmarshal(r.Body, &env); err != nil || env.IdempotencyKey != r.Key || r.Key == "" {
			t.Errorf("webhook request key %q, body %s", r.Key, r.Body)
		}
	}
}

func TestLiveClaudeMonitors(t *testing.T) { runLiveMonitors(t, "claude", "2.1.267") }
func TestLiveCodexMonitors(t *testing.T)  { runLiveMonitors(t, "codex", "0.155.1") }
