package terminal

import "testing"

// TestSetBindingOrder: a binding the binder read before the one the pane
// holds is dropped when it arrives late. The binder hands bindings on from
// two goroutines (a resolution and a bound file's event); a resolution's
// older value arriving after a file's newer tool call (the live
// TestLiveClaudeDispatch saw it) took the pane back to the old call, and
// the fence held a new identical question as repeated_prompt_unproven for
// good.
func TestSetBindingOrder(t *testing.T) {
	m := &Pane{}
	for _, tc := range []struct {
		in       Binding
		wantCall string
	}{
		{Binding{Seq: 1, LastCall: "toolu_1"}, "toolu_1"},
		{Binding{Seq: 3, LastCall: "toolu_2"}, "toolu_2"},
		{Binding{Seq: 2, LastCall: "toolu_1"}, "toolu_2"}, // read before 3: dropped
		{Binding{Seq: 3, LastCall: "toolu_2", Durable: "idle"}, "toolu_2"},
		{Binding{LastCall: "toolu_0"}, "toolu_0"}, // unordered (0): applied
	} {
		m.SetBinding(tc.in)
		if m.bind.LastCall != tc.wantCall {
			t.Errorf("after seq %d: last call %q, want %q", tc.in.Seq, m.bind.LastCall, tc.wantCall)
		}
	}
}
