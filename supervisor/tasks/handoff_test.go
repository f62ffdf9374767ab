package tasks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TestTurnHandoff: a managed Turn a person takes over in the pane is not
// ended by akk: a person's interrupt (an abort akk sent nothing for) and
// a switch of its conversation open the handoff decision with one
// blocked/handoff_required notification and no failure; close with the
// reason settles it once, only after a switch. An abort akk caused (its
// cancel, its reject) settles the Turn as before.
func TestTurnHandoff(t *testing.T) {
	file := evidence.FileID{Dev: 1, Ino: 42}
	spec := func(id string) TurnSpec {
		return TurnSpec{TurnID: id, TerminalID: "term_h", Controller: "mcp:host", Incarnation: "1/1/claude", BindingGen: 3,
			NativeTurnID: "native-1", Path: "/files/first.jsonl", File: file}
	}
	at := evidence.Where{Path: "/files/first.jsonl", File: file, Offset: 100, End: 200}
	moved := terminal.Binding{Generation: 4, State: contract.IdentityResolved, SessionID: "second", Path: "/files/second.jsonl"}
	same := terminal.Binding{Generation: 3, State: contract.IdentityResolved, SessionID: "first", Path: "/files/first.jsonl"}
	ctx := context.Background()

	for _, c := range []struct {
		name string
		// akkOp is the reservation akk made for the Turn before the
		// abort ("": none, a person's Esc).
		akkOp, akkChoice string
		abort            bool
		bind             terminal.Binding
		wantState        string
		wantReason       string // the decision's reason, or the settled Turn's
		closeErr         string // close with the reason: the error's code, "" for success
	}{
		{name: "a person's Esc, then /clear", abort: true, bind: moved, wantState: TurnHandoff, wantReason: ReasonHumanContextSwitch},
		{name: "a switch alone", bind: moved, wantState: TurnHandoff, wantReason: ReasonHumanContextSwitch},
		{name: "a person's Esc alone", abort: true, bind: same, wantState: TurnHandoff, wantReason: ReasonHumanInterrupt,
			closeErr: api.CodeConflict},
		{name: "akk's cancel", akkOp: "cancel", abort: true, bind: same, wantState: TurnCancelled, wantReason: ReasonAborted,
			closeErr: api.CodeConflict},
		{name: "akk's reject", akkOp: "approve", akkChoice: string(contract.DecisionReject), abort: true, bind: same, wantState: TurnCancelled,
			wantReason: ReasonAborted, closeErr: api.CodeConflict},
		{name: "an approve_once does not count as akk's interrupt", akkOp: "approve", akkChoice: string(contract.DecisionApproveOnce), abort: true,
			bind: same, wantState: TurnHandoff, wantReason: ReasonHumanInterrupt, closeErr: api.CodeConflict},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newTimerRig(t, Config{})
			sp := spec("turn_handoff")
			sp.Created, sp.Deadline = r.clock.Now(), r.clock.Now().Add(24*time.Hour)
			r.ledger.specs[sp.TurnID], r.ledger.state[sp.TurnID] = sp, TurnRunning
			r.m.MonitorTurn(sp)
			if c.akkOp != "" {
				res := store.Reservation{ID: "rcpt_" + c.akkOp, Op: c.akkOp, Choice: c.akkChoice, TurnID: sp.TurnID, TerminalID: sp.TerminalID,
					Stage: store.StageDone}
				if _, err := r.st.Apply(store.Change{Reservations: []store.Reservation{res}}); err != nil {
					t.Fatal(err)
				}
			}
			if c.abort {
				r.m.Evidence(sp.TerminalID, sp.BindingGen, evidence.TurnAborted{Where: at, TurnID: "native-1", Reason: "interrupted"})
				r.m.process()
			}
			o := terminal.Observation{TerminalID: sp.TerminalID, At: r.clock.Now(), Screen: contract.ScreenIdle, Incarnation: sp.Incarnation, Bind: c.bind}
			r.host.obs[sp.TerminalID] = o
			if _, open := r.m.kit.fs.turns[sp.TurnID]; open {
				r.m.Observe(o)
				r.m.process()
			}
			task, err := r.m.TaskStatus(ctx, api.TaskRequest{TurnID: sp.TurnID})
			if err != nil {
				t.Fatal(err)
			}
			evs := strings.Join(r.events(t, sp.TurnID), " ")
			switch {
			case task.State != c.wantState:
				t.Fatalf("state %s (%s), want %s; notifications %s", task.State, task.Reason, c.wantState, evs)
			case c.wantState == TurnHandoff && (task.Handoff == nil || task.Handoff.Reason != c.wantReason):
				t.Fatalf("handoff %+v, want reason %s", task.Handoff, c.wantReason)
			case c.wantState == TurnHandoff && (strings.Count(evs, api.CallbackHandoff) != 1 || strings.Contains(evs, api.CallbackError)):
				t.Fatalf("notifications %s: want one handoff_required and no failure", evs)
			case c.wantState != TurnHandoff && task.Reason != c.wantReason:
				t.Fatalf("settled %s for %s, want %s", task.State, task.Reason, c.wantReason)
			}
			if c.wantState == TurnHandoff {
				want := map[string]any{"turn_id": sp.TurnID}
				if c.wantReason == ReasonHumanContextSwitch {
					want["reason"] = api.CloseSupersededByHuman
				}
				if got := task.Handoff.Decision.Arguments; len(got) != len(want) || got["reason"] != want["reason"] {
					t.Errorf("decision arguments %v, want %v", got, want)
				}
			}
			closed, err := r.m.Close(ctx, api.CloseRequest{TurnID: sp.TurnID, Reason: api.CloseSupersededByHuman})
			switch {
			case c.closeErr != "" && !api.IsCode(err, c.closeErr):
				t.Fatalf("close with the reason: %+v %v, want %s", closed, err, c.closeErr)
			case c.closeErr == "" && (err != nil || closed.State != TurnClosed || closed.Reason != api.CloseSupersededByHuman):
				t.Fatalf("close with the reason: %+v %v", closed, err)
			case c.closeErr == "":
				if _, err := r.m.Close(ctx, api.CloseRequest{TurnID: sp.TurnID, Reason: api.CloseSupersededByHuman}); !api.IsCode(err, api.CodeConflict) {
					t.Fatalf("a second close: %v", err)
				}
			}
			if _, err := r.m.Close(ctx, api.CloseRequest{TurnID: sp.TurnID, Reason: "because"}); err == nil {
				t.Error("close with an unknown reason was taken")
			}
		})
	}
}

// TestActivityFromSessionFile: a terminal_activity Watch of an agent with
// no session file yet counts the file's appearing as activity (the agent
// took a prompt), though every look showed the screen idle (a model that
// answers at once); it then settles on stable idle, once. Idle alone, or
// a binding that moved to nothing it can name, is no activity.
func TestActivityFromSessionFile(t *testing.T) {
	r := newTimerRig(t, Config{StableIdle: 5 * time.Second, IdleGap: time.Second})
	now := r.clock.Now()
	rec := store.Watch{ID: "watch_filed", TerminalID: "term_f", Mode: api.WatchTerminalActivity, Confidence: api.ConfidenceBestEffort,
		State: WatchActive, Incarnation: "1/1/claude", Created: now, Deadline: now.Add(time.Hour), Routes: []string{"a"}, BindingGen: 1}
	if _, err := r.m.kit.notes.commit(store.TaskChange{Watches: []store.Watch{rec}}); err != nil {
		t.Fatal(err)
	}
	r.m.kit.fs.watches[rec.ID] = &watchState{rec: rec, outAt: now}
	look := func(b terminal.Binding) {
		r.clock.advance(3 * time.Second)
		r.m.Observe(terminal.Observation{TerminalID: "term_f", At: r.clock.Now(), Screen: contract.ScreenIdle, Incarnation: rec.Incarnation, Bind: b})
		r.m.process()
	}
	absent := terminal.Binding{Generation: 1, State: contract.IdentityVerifiedAbsent}
	look(absent)
	look(absent)
	look(terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous})
	if w := r.m.kit.fs.watches[rec.ID]; w == nil || w.rec.SawActivity {
		t.Fatalf("idle, or a binding it cannot name, counted as activity: %+v", w)
	}
	filed := terminal.Binding{Generation: 3, State: contract.IdentityResolved, SessionID: "s1", Path: "/files/s1.jsonl"}
	look(filed)
	if w := r.m.kit.fs.watches[rec.ID]; w == nil || !w.rec.SawActivity {
		t.Fatalf("the session file's appearing is not activity: %+v", w)
	}
	look(filed)
	look(filed)
	task, err := r.m.TaskStatus(context.Background(), api.TaskRequest{WatchID: rec.ID})
	if err != nil || task.State != WatchSettled || task.Reason != api.CallbackStablyIdle {
		t.Fatalf("after the file and stable idle: %+v %v", task, err)
	}
	if evs := r.events(t, rec.ID); len(evs) != 1 {
		t.Errorf("notifications %v, want one", evs)
	}
}

// TestAmbiguousIsNoSwitch: a binding gone ambiguous with the Turn's own
// file among its candidates hands nothing off; one whose candidates do
// not include it does.
func TestAmbiguousIsNoSwitch(t *testing.T) {
	sp := TurnSpec{TurnID: "turn_a", BindingGen: 3, Path: "/files/mine.jsonl", File: evidence.FileID{Dev: 1, Ino: 7}}
	amb := func(paths ...string) terminal.Binding {
		b := terminal.Binding{Generation: 4, State: contract.IdentityAmbiguous}
		for _, p := range paths {
			b.Candidates = append(b.Candidates, terminal.BindingCandidate{Path: p})
		}
		return b
	}
	if switchedAway(sp, amb("/files/left.jsonl", "/files/mine.jsonl")) {
		t.Error("ambiguous with the Turn's file among the candidates: a switch")
	}
	if !switchedAway(sp, amb("/files/a.jsonl", "/files/b.jsonl")) {
		t.Error("ambiguous without the Turn's file: no switch")
	}
}

// TestTransientBindingIsNoSwitch: a binding that names no session for a
// moment (the rollout not open, or open before its first line) hands
// nothing off, and the Turn's own file bound again under a later
// generation is still its conversation: its end settles the Turn (a
// loaded CI run of TestLiveHostLoop handed a plain Codex Turn off).
func TestTransientBindingIsNoSwitch(t *testing.T) {
	for _, state := range []contract.Identity{contract.IdentityVerifiedAbsent, contract.IdentityUnavailable} {
		t.Run(string(state), func(t *testing.T) {
			r := newTimerRig(t, Config{})
			file := evidence.FileID{Dev: 1, Ino: 42}
			sp := TurnSpec{TurnID: "turn_t", TerminalID: "term_t", Controller: "mcp:host", Incarnation: "1/1/codex", BindingGen: 3,
				NativeTurnID: "native-1", Path: "/files/rollout.jsonl", File: file, Created: r.clock.Now(),
				Deadline: r.clock.Now().Add(24 * time.Hour)}
			r.ledger.specs[sp.TurnID], r.ledger.state[sp.TurnID] = sp, TurnRunning
			r.m.MonitorTurn(sp)
			see := func(b terminal.Binding) {
				r.m.Observe(terminal.Observation{TerminalID: sp.TerminalID, At: r.clock.Now(), Screen: contract.ScreenWorking,
					Incarnation: sp.Incarnation, Bind: b})
				r.m.process()
			}
			see(terminal.Binding{Generation: 4, State: contract.Identity(string(state))})
			see(terminal.Binding{Generation: 5, State: contract.IdentityResolved, SessionID: "s", Path: sp.Path})
			r.m.Evidence(sp.TerminalID, 5, evidence.TurnCompleted{Where: evidence.Where{Path: sp.Path, File: file, Offset: 100, End: 200},
				TurnID: "native-1"})
			r.m.process()
			task, err := r.m.TaskStatus(context.Background(), api.TaskRequest{TurnID: sp.TurnID})
			if err != nil {
				t.Fatal(err)
			}
			if task.State != TurnCompleted {
				t.Errorf("state %s (%s), want completed; notifications %v", task.State, task.Reason, r.events(t, sp.TurnID))
			}
		})
	}
}
