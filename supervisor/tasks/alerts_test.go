package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestTurnBlocked: a managed Turn whose agent stops on a usage limit
// wakes its controller once per distinct block (agent_blocked, with the
// screen's facts), however often the screen is seen again; at the
// printed reset time it wakes it once more (limit_reset), and a block
// the agent left before its reset sends no limit_reset.
func TestTurnBlocked(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 24 * time.Hour, HardTimeout: 48 * time.Hour})
	start := r.clock.Now()
	spec := TurnSpec{TurnID: "turn_blocked", TerminalID: "term_b", Controller: "mcp:host", Incarnation: "1/1/claude",
		Created: start, Routes: []string{"a"}}
	r.ledger.specs[spec.TurnID], r.ledger.state[spec.TurnID] = spec, TurnRunning
	r.m.MonitorTurn(spec)
	count := func(event string) int { return strings.Count(strings.Join(r.events(t, spec.TurnID), " "), "/"+event) }
	see := func(screen string, b *api.Blocked) {
		r.m.Observe(terminal.Observation{TerminalID: spec.TerminalID, At: r.clock.Now(), Screen: contract.ScreenState(screen),
			Incarnation: spec.Incarnation, Blocked: b})
		r.m.process()
	}
	reset := start.Add(90 * time.Minute)
	limit := &api.Blocked{Reason: "usage_limit", HTTPStatus: 429, ResetsAtShown: "7pm", ResetsAt: reset}
	see(string(contract.ScreenBlocked), limit)
	for range 3 {
		r.clock.advance(time.Minute)
		see(string(contract.ScreenBlocked), limit.Clone())
	}
	if n := count(api.CallbackAgentBlocked); n != 1 {
		t.Fatalf("%d agent_blocked wake-ups for one block, want 1: %v", n, r.events(t, spec.TurnID))
	}
	r.clock.advance(reset.Sub(r.clock.Now()) - time.Second)
	if next := r.m.process(); !next.Equal(reset) {
		t.Errorf("the next check is %v, want the reset %v", next, reset)
	}
	if n := count(api.CallbackLimitReset); n != 0 {
		t.Fatalf("limit_reset before the reset time: %v", r.events(t, spec.TurnID))
	}
	r.clock.advance(time.Second)
	r.m.process()
	r.clock.advance(time.Minute)
	see(string(contract.ScreenBlocked), limit.Clone()) // the same screen, after its reset
	r.m.process()
	if n := count(api.CallbackLimitReset); n != 1 {
		t.Fatalf("%d limit_reset wake-ups, want 1: %v", n, r.events(t, spec.TurnID))
	}

	// Another block (an overload with no reset time) wakes again; left
	// before any reset, it is forgotten.
	see(string(contract.ScreenBlocked), &api.Blocked{Reason: "overloaded", HTTPStatus: 529})
	see(string(contract.ScreenWorking), nil)
	see(string(contract.ScreenBlocked), &api.Blocked{Reason: "rate_limited", HTTPStatus: 429, ResetsAtShown: "in 5 minutes",
		ResetsAt: r.clock.Now().Add(5 * time.Minute)})
	see(string(contract.ScreenIdle), nil)
	r.clock.advance(10 * time.Minute)
	r.m.process()
	if n, l := count(api.CallbackAgentBlocked), count(api.CallbackLimitReset); n != 3 || l != 1 {
		t.Errorf("agent_blocked %d (want 3), limit_reset %d (want 1, the left block's never): %v", n, l, r.events(t, spec.TurnID))
	}
}

// paneTmux is the tmux control connection of the terminal's session, as
// the tmux (person) routes use it: one attached client and akk's own
// control client; it records every command.
type paneTmux struct {
	mu   sync.Mutex
	cmds [][]string
}

func (c *paneTmux) Command(ctx context.Context, args ...string) (*controlmode.Reply, error) {
	c.mu.Lock()
	c.cmds = append(c.cmds, args)
	c.mu.Unlock()
	if args[0] == "list-clients" {
		return &controlmode.Reply{Body: []byte("0 /dev/pts/9\n1 client-akk\n")}, nil
	}
	return &controlmode.Reply{}, nil
}

func (c *paneTmux) SessionOf(string) (outbox.Commander, string) { return c, "work" }

// TestLimitResetRoutes: at the reset time a blocked agent's screen
// printed, one limit_reset wake-up goes to each route of the Turn's or
// Watch's owner and to every person route (tmux), once each, and to no
// other route; whether the owner's routes are its own (an [[owner]]) or
// the default ones. Delivered, a person route only shows a message on
// the session's attached client: no tmux command reaches the pane.
func TestLimitResetRoutes(t *testing.T) {
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer hooks.Close()
	cb := outbox.Config{Routes: []outbox.RouteConfig{
		{Name: "host", Kind: outbox.RouteWebhook, URL: hooks.URL + "/host"},
		{Name: "guest", Kind: outbox.RouteWebhook, URL: hooks.URL + "/guest"},
		{Name: "spare", Kind: outbox.RouteWebhook, URL: hooks.URL + "/spare"},
		{Name: "screen", Kind: outbox.RouteTmux},
		{Name: "corner", Kind: outbox.RouteTmux},
	}, Default: []string{"guest"}, Owners: map[string][]string{"mcp:host": {"host"}}}
	if err := cb.Validate(); err != nil { // as supervisor.New does
		t.Fatal(err)
	}
	cb.EnsureDefaults()
	persons := []string{"screen", "corner"}
	for _, tc := range []struct {
		owner  string
		routes []string // the owner's own
	}{
		{"mcp:host", []string{"host"}},   // an [[owner]]'s routes
		{"mcp:guest", []string{"guest"}}, // an owner not named: default_routes
	} {
		for _, kind := range []string{TaskManagedTurn, "watch"} {
			t.Run(tc.owner+" "+kind, func(t *testing.T) {
				st, err := store.Open(t.TempDir(), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				clk := &clock{now: time.Unix(1_800_000_000, 0)}
				host := &liveHost{testHost: testHost{st}, obs: map[string]terminal.Observation{}}
				tmux := &paneTmux{}
				ob := outbox.New(outbox.Options{Config: cb, Store: st, Logger: testLogger(t), Now: clk.Now, Sessions: tmux})
				m := New(Options{Config: Config{StallAfter: 24 * time.Hour, HardTimeout: 48 * time.Hour}, Callbacks: cb,
					Store: st, Secret: []byte("test secret"), Now: clk.Now, Logger: testLogger(t), Host: host, Outbox: ob})
				ledger := &memLedger{specs: map[string]TurnSpec{}, state: map[string]string{}}
				m.SetTurnLedger(ledger)

				reset := clk.Now().Add(90 * time.Minute)
				blocked := terminal.Observation{TerminalID: "term_limit", At: clk.Now(), Screen: contract.ScreenBlocked,
					Incarnation: "1/1/claude", Agent: "claude", Cwd: "/project",
					Blocked: &api.Blocked{Reason: "usage_limit", HTTPStatus: 429, ResetsAtShown: "7pm", ResetsAt: reset}}
				host.obs[blocked.TerminalID] = blocked
				var subject string
				if kind == TaskManagedTurn {
					spec := TurnSpec{TurnID: "turn_limit", TerminalID: blocked.TerminalID, Controller: tc.owner,
						Incarnation: blocked.Incarnation, Created: clk.Now()}
					ledger.specs[spec.TurnID], ledger.state[spec.TurnID] = spec, TurnRunning
					m.MonitorTurn(spec) // no routes of its own: its owner's
					subject = spec.TurnID
				} else {
					w, err := m.Watch(api.WithController(context.Background(), tc.owner), api.WatchRequest{TerminalID: blocked.TerminalID})
					if err != nil {
						t.Fatal(err)
					}
					subject = w.WatchID
				}
				m.Observe(blocked)
				m.process()
				limitResets := func() map[string]int { return limitResetsByRoute(t, st, subject) }
				clk.advance(reset.Sub(clk.Now()) - time.Second)
				m.process()
				if got := limitResets(); len(got) != 0 {
					t.Fatalf("limit_reset before the reset time: %v", got)
				}
				clk.advance(time.Second)
				m.process()
				for range 2 { // the screen seen again after its reset, and more time
					clk.advance(time.Minute)
					m.Observe(blocked)
					m.process()
				}
				want := map[string]int{}
				for _, r := range append(slices.Clone(tc.routes), persons...) {
					want[r] = 1
				}
				if got := limitResets(); !maps.Equal(got, want) {
					t.Fatalf("limit_reset wake-ups by route %v, want %v (the owner's routes and every person route, once)", got, want)
				}

				deliverLimitResets(t, ob, tmux, want)
			})
		}
	}
}

// limitResetsByRoute counts subject's limit_reset notifications by route.
func limitResetsByRoute(t *testing.T, st *store.Store, subject string) map[string]int {
	t.Helper()
	ns, err := st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, n := range ns {
		var env api.CallbackEnvelope
		if err := json.Unmarshal(n.Envelope, &env); err != nil {
			t.Fatal(err)
		}
		if env.Event == api.CallbackLimitReset {
			out[n.Route]++
		}
	}
	return out
}

// deliverLimitResets runs m's outbox until the limit_reset wake-ups are
// delivered as want says (accepted, by route) and requires the person
// routes to have shown their message on the attached client and done
// nothing else in tmux.
func deliverLimitResets(t *testing.T, ob *outbox.Outbox, tmux *paneTmux, want map[string]int) {
	t.Helper()
	var mu sync.Mutex
	shown := map[string]int{}
	ob.Observe(func(n store.Notification) {
		mu.Lock()
		if n.State == store.NtfAccepted && strings.Contains(n.Event, api.CallbackLimitReset+":") {
			shown[n.Route]++
		}
		mu.Unlock()
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); ob.Run(ctx) }()
	stop := func() { cancel(); <-done }
	defer stop()
	tmuxtest.Await(t, 10*time.Second, func() string {
		mu.Lock()
		defer mu.Unlock()
		if !maps.Equal(shown, want) {
			return fmt.Sprintf("limit_reset delivered by route %v, want %v", shown, want)
		}
		return ""
	})
	stop()
	tmux.mu.Lock()
	defer tmux.mu.Unlock()
	for _, c := range tmux.cmds {
		if c[0] != "list-clients" && (c[0] != "display-message" || len(c) < 3 || c[1] != "-c" || c[2] != "/dev/pts/9") {
			t.Errorf("a tmux command besides a message on the attached client: %q", c)
		}
	}
	if len(tmux.cmds) == 0 {
		t.Error("no person route showed anything")
	}
}

// TestOwnInterruptNotBlocked: the agent's "interrupted" screen after a
// reject akk sent (Claude Code's No interrupts the turn) wakes nobody: the
// Turn's own end says it. The same screen after a person's Esc wakes the
// controller once (agent_blocked).
func TestOwnInterruptNotBlocked(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 24 * time.Hour, HardTimeout: 48 * time.Hour})
	interrupted := &api.Blocked{Reason: "interrupted"}
	for _, c := range []struct {
		turn   string
		reject bool
		want   int
	}{{"turn_rejected", true, 0}, {"turn_esc", false, 1}} {
		spec := TurnSpec{TurnID: c.turn, TerminalID: "term_" + c.turn, Controller: "mcp:host", Incarnation: "1/1/claude",
			Created: r.clock.Now(), Routes: []string{"a"}}
		r.ledger.specs[spec.TurnID], r.ledger.state[spec.TurnID] = spec, TurnRunning
		if c.reject {
			res := store.Reservation{ID: "rcpt_" + c.turn, Op: "approve", Choice: string(contract.DecisionReject), TurnID: c.turn,
				TerminalID: spec.TerminalID, Stage: store.StageDone, Created: r.clock.Now()}
			if _, err := r.st.Apply(store.Change{Reservations: []store.Reservation{res}}); err != nil {
				t.Fatal(err)
			}
		}
		r.m.MonitorTurn(spec)
		r.m.Observe(terminal.Observation{TerminalID: spec.TerminalID, At: r.clock.Now(), Screen: contract.ScreenBlocked,
			Incarnation: spec.Incarnation, Blocked: interrupted})
		r.m.process()
		if n := strings.Count(strings.Join(r.events(t, c.turn), " "), "/"+api.CallbackAgentBlocked); n != c.want {
			t.Errorf("%s: %d agent_blocked wake-ups, want %d: %v", c.turn, n, c.want, r.events(t, c.turn))
		}
	}
}
