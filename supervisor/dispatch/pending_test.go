package dispatch

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestSendPending: a send whose text and Enter the screen took, but whose
// request the agent's file does not show within the wait, is answered
// pending (seed 003: zero matches stay pending), not uncertain: the
// receipt is written, the Turn stays submitted and monitored (the monitor
// promotes it or ends it unproven), never dropped, never sent again.
func TestSendPending(t *testing.T) {
	st, f := storeAndFake(t, "codex", "0.155.1", "send", -1)
	// A real agent, bound to a rollout that never shows the request.
	rollout := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(rollout, []byte(`{"type":"session_meta","payload":{"id":"s1","cwd":"/project"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.edit(func(v *terminal.View) {
		v.Ident.Replica = false
		v.Bind = terminal.Binding{State: contract.IdentityResolved, SessionID: "s1", Path: rollout, Generation: 1}
	})
	turns := &testTurns{terminalID: f.v.ID}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Turns: turns, Store: st, Journal: &testJournal{st: st}, AcceptWithin: 300 * time.Millisecond})
	res, err := d.Send(api.WithController(context.Background(), person), api.SendRequest{TerminalID: f.v.ID, Request: "hello there"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomePending || !res.DoNotRetry || res.TurnID == "" || res.ReceiptID == "" {
		t.Fatalf("send: %+v, want pending with do_not_retry, a turn and a receipt", res)
	}
	turn, err := st.Turn(res.TurnID)
	if err != nil || turn.State != store.TurnSubmitted || turn.Anchor == 0 || turn.FileIno == 0 {
		t.Errorf("turn %+v (%v): want submitted, anchored in the rollout", turn, err)
	}
	rs := reservationsOf(t, st, f.v.ID)
	if len(rs) != 1 || rs[0].Stage != store.StageDone {
		t.Errorf("reservations %+v: want the one receipt written", rs)
	}
	turns.mu.Lock()
	defer turns.mu.Unlock()
	if len(turns.drop) != 0 || len(turns.monitored) != 1 || len(turns.accepted) != 1 {
		t.Errorf("monitored %v, accepted %v, dropped %v: want the Turn followed, not dropped", turns.monitored, turns.accepted, turns.drop)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inputs != 2 || len(f.diverged) > 0 {
		t.Errorf("%d recorded inputs and %q besides: want the text and one Enter", f.inputs, f.diverged)
	}
}
