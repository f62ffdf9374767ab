package dispatch

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestUserSendUnmanaged: a user-explicit send to an agent whose native
// session cannot be told (two rollouts fit: ambiguous) has no file to
// prove a Turn from. The same single physical send goes in (the recorded
// ctrl+u, text and Enter, nothing else), no Turn is made, the reservation
// is done, and a Watch follows it: pending, unmanaged, with its watch_id.
// A managed send to the same screen is refused before input.
func TestUserSendUnmanaged(t *testing.T) {
	st, f := storeAndFake(t, "codex", "0.155.1", "clear-draft", 0)
	f.edit(func(v *terminal.View) {
		v.Ident.Replica = false
		v.Bind = terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous, Reason: "two rollouts fit"}
	})
	turns := &testTurns{terminalID: f.v.ID}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Turns: turns, Store: st, Journal: &testJournal{st: st}, Keymaps: &testKeymaps{}})
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

// TestUserSendCollapsedAsync: Codex's collapsed async-question summary
// leaves the input to the main composer (a user-explicit send is
// advertised and passes its checks); the expanded editor owns it (refused,
// nothing typed).
func TestUserSendCollapsedAsync(t *testing.T) {
	f, err := newFake("codex", "0.155.1", "0.155.1", "async-working")
	if err != nil {
		t.Fatal(err)
	}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Keymaps: &testKeymaps{}})
	for _, c := range []struct {
		marker, skip int // skip: markers passed since the last case's
		want         bool
	}{{0, 0, true}, {1, 0, false}, {3, 1, false}} {
		if err := f.toMarker(c.skip); err != nil {
			t.Fatal(err)
		}
		v := f.View()
		_, adv := terminal.Actions(v)["send_user_explicit"]
		_, ref := d.userSendReady(v, api.SendRequest{TerminalID: v.ID, Mode: api.SendUserExplicit, Request: "hello"})
		if adv != c.want || (ref == nil) != c.want {
			t.Errorf("marker %d (%s, %s): advertised %v, refusal %v; want sendable %v", c.marker, v.Rec.Screen, v.Rec.Composer, adv, ref, c.want)
		}
		if c.want && (v.Rec.Interaction == nil || v.Rec.Interaction.Kind != contract.KindAsyncQuestion) {
			t.Errorf("marker %d shows no collapsed async summary: %+v", c.marker, v.Rec.Interaction)
		}
	}
}
