package supervisor

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// TestEventsByOwner: an MCP host's event stream (its wake-ups) carries
// its own owner's Turns and Watches, the states of terminals running them,
// and the other terminals' events, never another host's; a person (the
// CLI) sees everything.
func TestEventsByOwner(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sv, err := New(Config{Logger: testLogger(t), Store: st, TmuxSocket: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ch := store.Change{
		Turns: []store.Turn{{ID: "turn_a", Controller: "mcp:host-a", State: store.TurnAccepted, Created: now, Updated: now},
			{ID: "turn_b", Controller: "mcp:host-b", State: store.TurnAccepted, Created: now, Updated: now}},
		Events: []store.Event{
			{Type: api.EventTurnState, TerminalID: "term_x", Attrs: map[string]string{"turn_id": "turn_a", "state": "done"}},
			{Type: api.EventTurnState, TerminalID: "term_x", Attrs: map[string]string{"turn_id": "turn_b", "state": "done"}},
			{Type: api.EventTerminalState, TerminalID: "term_x", Attrs: map[string]string{"screen_state": "idle"}},
			{Type: api.EventTurnState, TerminalID: "term_x", Attrs: map[string]string{"turn_id": "turn_gone", "state": "done"}},
			// A prompt on a terminal running host b's Turn is host b's.
			{Type: api.EventTerminalState, TerminalID: "term_y", Attrs: map[string]string{"screen_state": "awaiting_approval", "turn_id": "turn_b"}},
		}}
	if _, err := sv.commit(ch); err != nil {
		t.Fatal(err)
	}
	seen := func(controller string) []string {
		t.Helper()
		ctx := context.Background()
		if controller != "" {
			ctx = api.WithController(ctx, controller)
		}
		var out []string
		err := sv.Events(ctx, 0, false, func(e api.Event) error {
			out = append(out, e.Type+":"+e.Attrs["turn_id"])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	all := []string{api.EventTurnState + ":turn_a", api.EventTurnState + ":turn_b", api.EventTerminalState + ":",
		api.EventTurnState + ":turn_gone", api.EventTerminalState + ":turn_b"}
	for _, tc := range []struct {
		controller string
		want       []string
	}{
		{"cli:0", all},
		{"", all},
		{"mcp:host-a#s1", []string{api.EventTurnState + ":turn_a", api.EventTerminalState + ":"}},
		{"mcp:host-b#s2", []string{api.EventTurnState + ":turn_b", api.EventTerminalState + ":", api.EventTerminalState + ":turn_b"}},
		{"mcp:somebodyelse", []string{api.EventTerminalState + ":"}},
	} {
		if got := seen(tc.controller); !slices.Equal(got, tc.want) {
			t.Errorf("%q sees %v, want %v", tc.controller, got, tc.want)
		}
	}
}
