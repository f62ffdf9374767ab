package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// TestTmuxWatchTerminalActivity watches replica agents (both agents) from
// their first idle screen through a permission prompt to idle again, with
// a webhook on 127.0.0.1 and a command route: the Watch is terminal_activity
// (a replica has no native session), it does not settle on the idle it
// started from, it wakes the controller once for the prompt (manual: a
// Watch never approves), and it settles once, best effort, after activity
// then stable idle; exactly one done notification reaches each route.
func TestTmuxWatchTerminalActivity(t *testing.T) {
	akk, srv := replicaServer(t)
	surfaces := [][3]string{{"claude", "2.1.267", "permission-approve"}, {"codex", "0.154.0", "permission-approve"}}
	cases := replicaPanes(t, srv, akk, surfaces)
	rcv := hooktest.Start(t, "", nil)
	cmdOut := t.TempDir()
	script := hooktest.Script(t, fmt.Sprintf(`cat > %s/"$AKK_NOTIFICATION_ID.$$"`, cmdOut))
	const stable = time.Second
	d := startDaemon(t, srv, daemonOpts{
		callbacks: outbox.Config{Routes: []outbox.RouteConfig{
			{Name: "hook", Kind: outbox.RouteWebhook, URL: rcv.URL},
			{Name: "cmd", Kind: outbox.RouteCommand, Command: []string{script}},
		}, BackoffBase: 50 * time.Millisecond},
		tasks: TaskConfig{StableIdle: stable},
	})
	ctx, client := driverClient(t, srv, 90*time.Second)
	watches := make([]string, len(cases))
	lastMarker := make([]time.Time, len(cases))
	for i, c := range cases {
		c.keepAlive = true
		c.onRelease = func() {
			// The replica runs and waits for its first input: watch it now.
			var row api.Terminal
			tmuxtest.Await(t, 15*time.Second, func() string {
				l, err := d.cl.List(ctx)
				if err != nil {
					return err.Error()
				}
				row, _ = rowOf(l, c.pane)
				if row.Agent != c.agent || row.ScreenState == contract.ScreenUnknown || row.ScreenState == "" {
					return fmt.Sprintf("%s row %+v", c.surface, row)
				}
				return ""
			})
			task, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
			if err != nil {
				t.Errorf("watch: %v", err)
				return
			}
			if task.WatchMode != api.WatchTerminalActivity || task.Confidence != api.ConfidenceBestEffort || task.State != tasks.WatchActive {
				t.Errorf("%s: watch %+v", c.agent, task)
			}
			again, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
			if err != nil || again.WatchID != task.WatchID {
				t.Errorf("a second watch of the same terminal: %v %+v", err, again)
			}
			watches[i] = task.WatchID
		}
	}
	for i, c := range cases {
		driveReplica(t, ctx, client, c, func(m recordings.Marker, seen time.Time) {
			// The replica holds this screen until its next input: wait
			// until the daemon has recognized it.
			tmuxtest.Await(t, 10*time.Second, func() string {
				l, err := d.cl.List(ctx)
				if err != nil {
					return err.Error()
				}
				if r, _ := rowOf(l, c.pane); r.ScreenState != m.State {
					return fmt.Sprintf("%s: %s, marker %s", c.agent, r.ScreenState, m.State)
				}
				return ""
			})
			lastMarker[i] = time.Now()
			if task, err := d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: watches[i]}); err != nil || task.State != tasks.WatchActive {
				t.Errorf("%s at marker %s: watch %+v %v (settled before the end)", c.agent, m.State, task, err)
			}
		})
	}
	if t.Failed() {
		return
	}
	for i, c := range cases {
		var task api.Task
		tmuxtest.Await(t, 20*time.Second, func() string {
			var err error
			task, err = d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: watches[i]})
			if err != nil {
				return err.Error()
			}
			if task.State != tasks.WatchSettled {
				return fmt.Sprintf("%s: watch %s %s", c.agent, task.State, task.Reason)
			}
			for _, n := range task.Notifications {
				if n.State != store.NtfAccepted {
					return fmt.Sprintf("%s: notification %s %s", c.agent, n.Event, n.State)
				}
			}
			return ""
		})
		if task.Reason != api.CallbackStablyIdle || task.Confidence != api.ConfidenceBestEffort {
			t.Errorf("%s: settled %+v", c.agent, task)
		}
		rec, _ := d.st.Watch(watches[i])
		if quiet := rec.SettledAt.Sub(rec.LastActivity); quiet < stable || !rec.SawActivity {
			t.Errorf("%s: settled %v after the last activity (saw activity: %v), want >= %v", c.agent, quiet, rec.SawActivity, stable)
		}
		if rec.SettledAt.Before(lastMarker[i].Add(-stable)) {
			t.Errorf("%s: settled at %v, before the last screen", c.agent, rec.SettledAt)
		}
		byEvent := map[string]int{}
		for _, n := range task.Notifications {
			byEvent[n.Type+"/"+n.Event]++
		}
		// One interaction notification per route for the one prompt, one
		// done per route.
		if byEvent["done/settled"] != 2 || len(task.Notifications) != 4 {
			t.Errorf("%s: notifications %+v", c.agent, task.Notifications)
		}
	}
	// The receiver and the command saw each logical notification once.
	seen := map[string]int{}
	for _, r := range rcv.Requests() {
		var env api.CallbackEnvelope
		if err := json.Unmarshal(r.Body, &env); err != nil || env.IdempotencyKey != r.Key {
			t.Errorf("webhook body %s: %v", r.Body, err)
		}
		seen[env.WatchID+" "+env.Event]++
	}
	files, _ := filepath.Glob(filepath.Join(cmdOut, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var env api.CallbackEnvelope
		if err := json.Unmarshal(b, &env); err != nil {
			t.Errorf("command stdin %s: %v", b, err)
		}
		seen["cmd "+env.WatchID+" "+env.Event]++
	}
	for _, w := range watches {
		for _, k := range []string{w + " " + api.CallbackStablyIdle, w + " " + api.CallbackInteractionManual,
			"cmd " + w + " " + api.CallbackStablyIdle, "cmd " + w + " " + api.CallbackInteractionManual} {
			if seen[k] != 1 {
				t.Errorf("%q delivered %d times, want 1 (all: %v)", k, seen[k], seen)
			}
		}
	}
}
