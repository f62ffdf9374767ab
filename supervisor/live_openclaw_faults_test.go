package supervisor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/hosts"
	"github.com/agent-knock-knock/akk/store"
)

// faults are the openclaw route's faults on the test's Gateway, with
// Turns the test sends through the daemon's API as controllers of their
// own (their routes: openclawRoutes) whose wake-ups go to the faults
// session: a wrong hooks token is refused (401) and the notification is
// a permanent failure at its first attempt, shown so by task_status (akk
// task) with its reason; the
// Gateway stopped when a wake-up is due: every attempt fails before it
// is sent (retryable), and once the Gateway is back the wake-up is
// delivered once: one message in the session.
func (h *openclawHost) faults(t *testing.T, la *liveAgent) {
	lap := time.Now()
	bad := h.faultTurn(t, la, "mcp:badtoken#live", "fault-note-token")
	n := h.awaitNotification(t, bad, "final", func(n store.Notification) bool { return n.Final() })
	if n.State != store.NtfPermanent || len(n.Attempts) != 1 || !strings.Contains(n.Attempts[0].Detail, "http 401") {
		t.Errorf("the wake-up with a wrong token: %s after %d attempts (%+v), want permanent at the first, http 401",
			n.State, len(n.Attempts), n.Attempts)
	}
	task, err := h.d.cl.TaskStatus(h.ctx, api.TaskRequest{TurnID: bad})
	if err != nil || len(task.Notifications) != 1 || task.Notifications[0].State != "permanent_failure" ||
		!strings.Contains(task.Notifications[0].Detail, "http 401") {
		t.Errorf("task_status of %s: %+v (%v), want its one notification permanent_failure, http 401", bad, task.Notifications, err)
	}
	t.Logf("wrong token: %s, %q, in task_status as %+v, %v", n.State, n.Attempts[0].Detail, task.Notifications, time.Since(lap).Round(time.Millisecond))

	lap = time.Now()
	if err := h.o.Stop(); err != nil {
		t.Fatal(err)
	}
	down := h.faultTurn(t, la, "mcp:faults#live", "fault-note-down")
	h.awaitNotification(t, down, "two attempts refused", func(n store.Notification) bool {
		return n.State == store.NtfRetryable && len(n.Attempts) >= 2
	})
	if err := h.o.Start(h.ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	n = h.awaitNotification(t, down, "accepted", func(n store.Notification) bool { return n.Final() })
	var details []string
	for _, a := range n.Attempts {
		details = append(details, fmt.Sprintf("%s at +%v (%v): %s", a.Outcome, a.Start.Sub(back).Round(time.Millisecond),
			a.End.Sub(a.Start).Round(time.Millisecond), a.Detail))
	}
	if n.State != store.NtfAccepted || len(n.Attempts) < 3 {
		t.Errorf("the wake-up due while the Gateway was down: %s after %v, want retried, then accepted", n.State, details)
	}
	hist := h.awaitHistory(t, openclawFaults, func(hist []hosts.ChatMessage) string {
		if k := len(hist); countMessages(hist, n.ID) == 0 || hist[k-1].Role != "assistant" {
			return "the wake-up and the host's answer to it"
		}
		return ""
	})
	if got := countMessages(hist, n.ID); got != 1 {
		t.Errorf("the faults session has the wake-up %s %d times, want once", n.ID, got)
	}
	t.Logf("Gateway down: %d attempts (times from the Gateway's ready again, after a restart of %v): %v; %v in all",
		len(n.Attempts), h.o.Ready.Round(time.Millisecond), details, time.Since(lap).Round(time.Millisecond))
}

// faultTurn sends request to the idle Codex pane as controller (an owner
// of its own: its routes) and returns the Turn; Codex's model answers it
// in text, so it completes and its done wake-up is due.
func (h *openclawHost) faultTurn(t *testing.T, la *liveAgent, controller, request string) string {
	t.Helper()
	awaitCodexIdle(t, h.d, la)
	c := api.NewClient(h.d.sock)
	defer c.Close()
	c.SetController(controller)
	l, err := c.List(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := rowOf(l, la.pane)
	res, err := c.Send(h.ctx, api.SendRequest{TerminalID: row.TerminalID, Request: request})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("send %q as %s: %+v %v", request, controller, res, err)
	}
	return res.TurnID
}

// awaitNotification waits until the Turn's one notification meets ok.
func (h *openclawHost) awaitNotification(t *testing.T, turn, what string, ok func(store.Notification) bool) store.Notification {
	t.Helper()
	var n store.Notification
	tmuxtest.Await(t, 90*time.Second, func() string {
		ns, err := h.d.st.Notifications(func(n *store.Notification) bool { return n.Subject == turn })
		if err != nil || len(ns) != 1 {
			return fmt.Sprintf("the notifications of %s: %d (%v)", turn, len(ns), err)
		}
		if n = ns[0]; !ok(n) {
			return fmt.Sprintf("the wake-up of %s is %s after %d attempts, want %s", turn, n.State, len(n.Attempts), what)
		}
		return ""
	})
	return n
}

// countMessages counts the user messages of a history that carry s.
func countMessages(hist []hosts.ChatMessage, s string) int {
	n := 0
	for _, m := range hist {
		if m.Role == "user" && strings.Contains(m.Text(), s) {
			n++
		}
	}
	return n
}
