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

// settlingTurns is a Turn monitor that finds the Turn's end already in the
// agent's file the moment it follows the Turn, and settles it in the store
// at once: what the real monitor does when a fast agent ends its turn
// while the send is still proving acceptance.
type settlingTurns struct {
	testTurns
	st *store.Store
	// seen: the state the send had written when the monitor started.
	seen string
}

func (s *settlingTurns) Monitor(turn store.Turn) {
	s.testTurns.Monitor(turn)
	t, err := s.st.Turn(turn.ID)
	if err != nil {
		return
	}
	s.seen = t.State
	t.State, t.Reason, t.Settled = store.TurnDone, "completed", time.Now()
	if _, err := s.st.Apply(store.Change{Turns: []store.Turn{t}}); err != nil {
		panic(err)
	}
}

// TestSendSettledWhileAccepting: a Turn the monitor settles the moment it
// follows it stays settled. The send writes the accepted Turn before the
// monitor follows it; the other order let the send's write undo the
// settlement, and the Turn read running for ever (CI once saw this on
// Claude Code 2.1.332, whose fake reply ends the turn within 60 ms).
func TestSendSettledWhileAccepting(t *testing.T) {
	st, f := storeAndFake(t, "codex", "0.155.1", "send", -1)
	rollout := filepath.Join(t.TempDir(), "rollout.jsonl")
	meta := `{"type":"session_meta","payload":{"id":"s1","cwd":"/project"}}` + "\n"
	if err := os.WriteFile(rollout, []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	f.edit(func(v *terminal.View) {
		v.Ident.Replica = false
		v.Bind = terminal.Binding{State: contract.IdentityResolved, SessionID: "s1", Path: rollout, Generation: 1}
	})
	// The Enter (the second input) starts and ends the agent's turn.
	inputs := 0
	f.onInput = func() {
		if inputs++; inputs != 2 {
			return
		}
		lines := `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"user_message","message":"hello there"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"hi"}}` + "\n"
		if err := os.WriteFile(rollout, []byte(meta+lines), 0o644); err != nil {
			panic(err)
		}
	}
	turns := &settlingTurns{testTurns: testTurns{terminalID: f.v.ID}, st: st}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Turns: turns, Store: st, Journal: &testJournal{st: st}, AcceptWithin: 2 * time.Second})
	res, err := d.Send(api.WithController(context.Background(), person), api.SendRequest{TerminalID: f.v.ID, Request: "hello there"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomeAccepted || res.Evidence != "transcript:request_hash" {
		t.Fatalf("send: %+v, want accepted from the rollout", res)
	}
	if turns.seen != store.TurnAccepted {
		t.Errorf("the monitor followed the Turn while the send had written it %q, want %q", turns.seen, store.TurnAccepted)
	}
	if turn, err := st.Turn(res.TurnID); err != nil || turn.State != store.TurnDone {
		t.Errorf("turn %s after the send: %q (%v), want %q: the send's write undid the settlement", res.TurnID, turn.State, err, store.TurnDone)
	}
}
