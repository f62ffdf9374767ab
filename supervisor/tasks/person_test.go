package tasks

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestPersonNotices: a person's route hears of a terminal no Watch or
// Turn follows: each distinct prompt once (a manual_required one after it
// settled), each distinct block once; a terminal a Turn follows is the
// Turn's to tell (its routes hold the person's), and the prompt still on
// screen when the Turn ends is no news. The controller's route hears of
// none of them.
func TestPersonNotices(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 24 * time.Hour, HardTimeout: 48 * time.Hour},
		outbox.RouteConfig{Name: "phone", Kind: outbox.RouteWebhook, URL: "http://127.0.0.1:9/p", Person: true})
	const term = "term_person"
	prompt := func(id, state string) *contract.Interaction {
		return &contract.Interaction{InteractionID: id, Kind: "permission", State: contract.InteractionState(state), Tool: "shell"}
	}
	see := func(screen string, in *contract.Interaction, b *api.Blocked) {
		r.m.Observe(terminal.Observation{TerminalID: term, At: r.clock.Now(), Screen: contract.ScreenState(screen), Incarnation: "1/1/claude",
			Interaction: in, Blocked: b})
		r.m.process()
	}
	routes := func() []string {
		ns, err := r.st.Notifications(func(n *store.Notification) bool { return n.Subject == term })
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range ns {
			out = append(out, n.Route+":"+n.Event)
		}
		slices.Sort(out)
		return out
	}

	see(string(contract.ScreenAwaitingApproval), prompt("int_a", "pending"), nil)
	see(string(contract.ScreenAwaitingApproval), prompt("int_a", "pending"), nil)
	if got := routes(); !slices.Equal(got, []string{"phone:interaction:int_a"}) {
		t.Fatalf("one prompt: %v, want one notice on the person's route", got)
	}

	// A manual_required prompt waits out its settle time, then notifies.
	see(string(contract.ScreenAwaitingApproval), prompt("int_b", "manual_required"), nil)
	if n := len(routes()); n != 1 {
		t.Fatalf("a manual prompt notified before it settled: %v", routes())
	}
	r.clock.advance(time.Second)
	r.m.process()
	if n := len(routes()); n != 2 {
		t.Fatalf("a settled manual prompt: %v, want its notice", routes())
	}

	see(string(contract.ScreenBlocked), nil, &api.Blocked{Reason: "overloaded", HTTPStatus: 529})
	see(string(contract.ScreenBlocked), nil, &api.Blocked{Reason: "overloaded", HTTPStatus: 529})
	if n := len(routes()); n != 3 {
		t.Fatalf("one block: %v, want one more notice", routes())
	}

	// A Turn follows the terminal: its prompt is the Turn's news.
	spec := TurnSpec{TurnID: "turn_p", TerminalID: term, Controller: "mcp:host", Incarnation: "1/1/claude",
		Created: r.clock.Now(), Routes: []string{"a", "phone"}}
	r.ledger.specs[spec.TurnID], r.ledger.state[spec.TurnID] = spec, TurnRunning
	r.m.MonitorTurn(spec)
	see(string(contract.ScreenAwaitingApproval), prompt("int_c", "pending"), nil)
	if n := len(routes()); n != 3 {
		t.Errorf("a followed terminal's prompt also notified as the terminal's: %v", routes())
	}
	r.m.Drop(spec.TurnID)
	see(string(contract.ScreenAwaitingApproval), prompt("int_c", "pending"), nil)
	if n := len(routes()); n != 3 {
		t.Errorf("the Turn's prompt, still on screen after it ended, notified again: %v", routes())
	}
	see(string(contract.ScreenAwaitingApproval), prompt("int_d", "pending"), nil)
	if got := routes(); len(got) != 4 || !slices.Contains(got, "phone:interaction:int_d") {
		t.Errorf("a new prompt after the Turn: %v, want its notice", got)
	}
	for _, rt := range routes() {
		if !strings.HasPrefix(rt, "phone:") {
			t.Errorf("a terminal's notice went to the controller's route: %s", rt)
		}
	}
}
