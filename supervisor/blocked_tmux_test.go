package supervisor

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// TestTmuxBlocked: a strict replica of Codex 0.155.1 stopped at its usage
// limit ("try again at 8:01 AM", recorded by the rig) on the test's clock.
// First seen at 7:00 AM, it is listed blocked with its reason and the
// printed reset placed at today's 8:01 AM, and offered a Watch and a
// normal send (its composer is the proven empty one). With the clock two
// seconds before the reset, the Watch's owner is woken once
// (blocked/agent_blocked) and, when the reset comes, once more
// (progress/limit_reset) while akk sends the pane nothing. Then the
// controller resumes with a normal send, whose bytes are exactly the
// recorded "hello again" and Enter, and the replica ends clean.
func TestTmuxBlocked(t *testing.T) {
	akk, srv := replicaServer(t)
	rcv := hooktest.Start(t, "", nil)
	// Tomorrow: the daemon's clock runs hours ahead of the real one,
	// whatever the time of day. Waits measured on the real clock against
	// a time from the daemon's once made the send wait an hour, only when
	// CI ran before 7 AM (terminal.Pane's lastChange).
	day := time.Now().AddDate(0, 0, 1)
	at := func(h, m, s int) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day(), h, m, s, 0, time.Local)
	}
	var offset atomic.Int64
	setClock := func(to time.Time) { offset.Store(int64(time.Until(to))) }
	setClock(at(7, 0, 0))
	d := startDaemon(t, srv, daemonOpts{now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) },
		callbacks: outbox.Config{Routes: []outbox.RouteConfig{{Name: "hook", Kind: outbox.RouteWebhook, URL: rcv.URL}},
			BackoffBase: 50 * time.Millisecond}})
	ctx, client := driverClient(t, srv, 90*time.Second)
	rc := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "api-usage-limit"}})[0]
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toMarker(0)
	row := r.row()
	b := row.Blocked
	if row.ScreenState != contract.ScreenBlocked || b == nil || b.Reason != "usage_limit" || b.ResetsAtShown != "8:01 AM" ||
		!b.ResetsAt.Equal(at(8, 1, 0)) {
		t.Fatalf("the blocked row: %s %+v, want usage_limit resetting at %v", row.ScreenState, b, at(8, 1, 0))
	}
	if got := slices.Sorted(maps.Keys(row.AvailableActions)); !slices.Equal(got, []string{"send", "watch"}) {
		t.Errorf("a blocked agent advertises %v, want send and watch", got)
	}

	setClock(at(8, 0, 58))
	task, err := d.cl.Watch(ctx, api.WatchRequest{TerminalID: row.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	wakeups := func() (blocked, reset []string, err error) {
		got, err := d.cl.TaskStatus(ctx, api.TaskRequest{WatchID: task.WatchID})
		for _, n := range got.Notifications {
			switch {
			case strings.HasPrefix(n.Event, "blocked:usage_limit"):
				blocked = append(blocked, n.State)
			case strings.HasPrefix(n.Event, "limit_reset:"):
				reset = append(reset, n.State)
			}
		}
		return blocked, reset, err
	}
	tmuxtest.Await(t, 20*time.Second, func() string {
		blocked, reset, err := wakeups()
		switch {
		case err != nil:
			return err.Error()
		case len(blocked) != 1 || blocked[0] != "accepted" || len(reset) != 1 || reset[0] != "accepted":
			return fmt.Sprintf("agent_blocked %v, limit_reset %v", blocked, reset)
		}
		return ""
	})

	// The controller resumes: a fresh status, then a normal send.
	if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID}); err != nil {
		t.Fatal(err)
	}
	r.take()
	res, err := d.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: "hello again"})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("the send after the reset: %+v %v", res, err)
	}
	r.skipInput()
	r.skipInput()
	if blocked, reset, err := wakeups(); err != nil || len(blocked) != 1 || len(reset) != 1 {
		t.Errorf("after the send: agent_blocked %v, limit_reset %v (%v), want one each", blocked, reset, err)
	}
	r.finish(srv)
}
