package tasks

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
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
		r.m.Observe(terminal.Observation{TerminalID: spec.TerminalID, At: r.clock.Now(), Screen: screen,
			Incarnation: spec.Incarnation, Blocked: b})
		r.m.process()
	}
	reset := start.Add(90 * time.Minute)
	limit := &api.Blocked{Reason: "usage_limit", HTTPStatus: 429, ResetsAtShown: "7pm", ResetsAt: reset}
	see(api.ScreenBlocked, limit)
	for range 3 {
		r.clock.advance(time.Minute)
		see(api.ScreenBlocked, limit.Clone())
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
	see(api.ScreenBlocked, limit.Clone()) // the same screen, after its reset
	r.m.process()
	if n := count(api.CallbackLimitReset); n != 1 {
		t.Fatalf("%d limit_reset wake-ups, want 1: %v", n, r.events(t, spec.TurnID))
	}

	// Another block (an overload with no reset time) wakes again; left
	// before any reset, it is forgotten.
	see(api.ScreenBlocked, &api.Blocked{Reason: "overloaded", HTTPStatus: 529})
	see(api.ScreenWorking, nil)
	see(api.ScreenBlocked, &api.Blocked{Reason: "rate_limited", HTTPStatus: 429, ResetsAtShown: "in 5 minutes",
		ResetsAt: r.clock.Now().Add(5 * time.Minute)})
	see(api.ScreenIdle, nil)
	r.clock.advance(10 * time.Minute)
	r.m.process()
	if n, l := count(api.CallbackAgentBlocked), count(api.CallbackLimitReset); n != 3 || l != 1 {
		t.Errorf("agent_blocked %d (want 3), limit_reset %d (want 1, the left block's never): %v", n, l, r.events(t, spec.TurnID))
	}
}
