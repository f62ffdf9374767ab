package dispatch

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

// TestUserSendUnmanaged: a user-explicit send to an agent whose native
// session cannot be told (two rollouts fit: ambiguous) has no file to
// prove a Turn from. The same single physical send goes in (the recorded
// ctrl+u, text and Enter, nothing else), no Turn is made, the reservation
// is done, and a Watch follows it: pending, unmanaged, with its watch_id.
// A managed send to the same screen is refused before input.
func TestUserSendUnmanaged(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := newFake("codex", "0.155.1", "0.155.1", "clear-draft")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.toMarker(0); err != nil {
		t.Fatal(err)
	}
	f.edit(func(v *terminal.View) {
		v.Ident.Replica = false
		v.Bind = terminal.Binding{Generation: 2, State: string(watchers.Ambiguous), Reason: "two rollouts fit"}
	})
	turns := &testTurns{terminalID: f.v.ID}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: fakeTerminals{f}, Turns: turns, Store: st, Journal: &testJournal{st: st}, Keymaps: &testKeymaps{}})
	ctx := api.WithController(context.Background(), person)
	id := f.View().ID

	res, err := d.Send(ctx, api.SendRequest{TerminalID: id, Request: "hello there"})
	if err != nil || res.Outcome != api.OutcomeRejected || res.ReceiptID != "" {
		t.Fatalf("a managed send into the draft: %+v %v", res, err)
	}
	res, err = d.Send(ctx, api.SendRequest{TerminalID: id, Mode: api.SendUserExplicit, Request: "hello there"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomePending || !res.DoNotRetry || res.TurnID != "" || res.SendFacts == nil {
		t.Fatalf("unmanaged user-explicit send: %+v", res)
	}
	if f := res.SendFacts; !f.TerminalInputDispatched || f.AgentAcceptance != api.AcceptancePending ||
		f.ManagementMode != "unmanaged" || f.WatchID == "" || f.ObservationMode != api.WatchTerminalActivity || !f.ClearedDraft {
		t.Fatalf("its facts: %+v", *f)
	}
	f.mu.Lock()
	inputs, diverged := f.inputs, f.diverged
	f.mu.Unlock()
	if inputs != 3 || len(diverged) > 0 {
		t.Errorf("sent %d recorded inputs (want 3: ctrl+u, the text, Enter) and %q besides", inputs, diverged)
	}
	if rs := reservationsOf(t, st, id); len(rs) != 1 || rs[0].Stage != store.StageDone || rs[0].TurnID != "" {
		t.Errorf("reservations %+v, want one done, with no Turn", rs)
	}
	if ts, _ := st.Turns(); len(ts) != 0 {
		t.Errorf("an unmanaged send made Turns: %+v", ts)
	}
}
