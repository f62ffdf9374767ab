package dispatch

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Conversation ids of the fixtures: the one the pane runs, the earlier
// one to resume, and one the agent's files do not offer.
const (
	idCurrent = "11111111-1111-4111-8111-111111111111"
	idFirst   = "22222222-2222-4222-8222-222222222222"
	idOther   = "33333333-3333-4333-8333-333333333333"
	idNew     = "44444444-4444-4444-8444-444444444444"
)

// fakeThreads is the binder and the agent's files of a thread fixture:
// Expect arms the fake terminal's Resolve with the binding the
// transition expects, as the binder adopts it once the agent wrote it.
type fakeThreads struct {
	mu       sync.Mutex
	f        *fakeTerminal
	cands    []Candidate
	listErr  error
	expected []terminal.Transition
	released int
	stale    *store.BindingDetach // Stale's proof (nil: none)
	detached []store.BindingDetach
	// moveOnExpect: the binder moves the binding on as the transition's
	// hold arrives (a race the compare-and-swap must lose cleanly).
	moveOnExpect bool
}

func (ft *fakeThreads) Expect(id string, tr terminal.Transition) {
	ft.mu.Lock()
	ft.expected = append(ft.expected, tr)
	ft.mu.Unlock()
	ft.f.mu.Lock()
	if ft.moveOnExpect {
		ft.f.v.Bind.Generation++
	}
	ft.f.onResolve = func(v *terminal.View) { // called with f.mu held
		next := tr.Target
		if next == "" {
			next = idNew
		}
		v.Bind = terminal.Binding{Generation: v.Bind.Generation + 1, State: contract.IdentityResolved, SessionID: next,
			Path: "/files/" + next + ".jsonl", Last: &store.BindingTransition{Op: tr.Op, Receipt: tr.Receipt,
				Incarnation: tr.Incarnation, Previous: tr.From.SessionID, Next: next}}
	}
	ft.f.mu.Unlock()
}

func (ft *fakeThreads) Unexpect(id string) bool {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	ft.released++
	return true
}

func (ft *fakeThreads) Candidates(ctx context.Context, v terminal.View) ([]Candidate, error) {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return append([]Candidate(nil), ft.cands...), ft.listErr
}

func (ft *fakeThreads) Stale(ctx context.Context, v terminal.View) (store.BindingDetach, error) {
	if ft.stale == nil {
		return store.BindingDetach{}, errors.New("another transcript was not written after it")
	}
	return *ft.stale, nil
}

// Detach records d and has the fake's next look find the other
// conversation, as the binder would.
func (ft *fakeThreads) Detach(id string, d store.BindingDetach) error {
	ft.mu.Lock()
	ft.detached = append(ft.detached, d)
	ft.mu.Unlock()
	ft.f.edit(func(v *terminal.View) {
		v.Bind = terminal.Binding{Generation: v.Bind.Generation + 1, State: contract.IdentityResolved, SessionID: idNew,
			Path: "/files/new.jsonl", Detached: append(v.Bind.Detached, d)}
	})
	return nil
}

// threadFixture is a dispatcher over a fake terminal playing a thread
// recording at a marker, its agent bound to idCurrent.
type threadFixture struct {
	st      *store.Store
	f       *fakeTerminal
	threads *fakeThreads
	d       *Dispatcher
}

// putTurn records a Turn of x's terminal (a person's, working) managed
// as management says ("managed" holds the terminal, "closed" does not).
func (x *threadFixture) putTurn(t *testing.T, management string) {
	t.Helper()
	v := x.f.View()
	tr := store.Turn{ID: "turn_" + terminal.Derive([]byte("test"), "turn", v.ID), TerminalID: v.ID, Controller: person,
		State: store.TurnWorking, Management: management, Incarnation: v.Ident.Incarnation(), Created: time.Now()}
	if _, err := x.st.Apply(store.Change{Turns: []store.Turn{tr}}); err != nil {
		t.Fatal(err)
	}
}

// sentNothing fails t unless a refusal left x's terminal as it was: no
// byte typed, no reservation stored.
func (x *threadFixture) sentNothing(t *testing.T) {
	t.Helper()
	x.f.mu.Lock()
	sent := x.f.sent
	x.f.mu.Unlock()
	if rs := reservationsOf(t, x.st, x.f.View().ID); sent != 0 || len(rs) != 0 {
		t.Errorf("a refusal typed %d bytes, reservations %+v", sent, rs)
	}
}

func newThreadFixture(t *testing.T, agent, version, shown, rec string, marker int, first string) *threadFixture {
	t.Helper()
	st, f := storeAndShownFake(t, agent, version, shown, rec, marker)
	f.edit(func(v *terminal.View) {
		v.Ident.Replica = false
		v.Bind = terminal.Binding{Generation: 1, State: contract.IdentityResolved, SessionID: idCurrent, Path: "/files/current.jsonl"}
	})
	ft := &fakeThreads{f: f, cands: []Candidate{{ID: first, Title: "first-thread please", Updated: time.Now()}}}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Turns: &testTurns{terminalID: f.v.ID}, Store: st, Journal: &testJournal{st: st}, Threads: ft})
	return &threadFixture{st: st, f: f, threads: ft, d: d}
}

// recordedFirst is the first conversation's id in a thread-resume-id
// recording: the input typed after "/resume " (recordings/rig/threads_id.go).
func recordedFirst(t *testing.T, agent, version string) string {
	t.Helper()
	rec, err := recordings.ReadFile(filepath.Join(corpusDir, agent, version, "thread-resume-id.cast"))
	if err != nil {
		t.Fatal(err)
	}
	ins := recordings.Inputs(rec)
	for i, in := range ins {
		if string(in.Data) == "/resume " && i+1 < len(ins) && IsThreadID(string(ins[i+1].Data)) {
			return string(ins[i+1].Data)
		}
	}
	t.Fatalf("%s %s: no /resume <id> in thread-resume-id", agent, version)
	return ""
}

// TestThreadTransitions runs new_thread and resume_thread against the
// recorded thread surfaces: accepted with exactly the recorded inputs and
// one generation step, or refused with zero input and no reservation, or
// (an unproven step after input) uncertain and never retried.
func TestThreadTransitions(t *testing.T) {
	type tc struct {
		name                  string
		agent, version, shown string
		rec                   string
		marker                int
		op, target, ref       string
		setup                 func(t *testing.T, x *threadFixture)
		outcome, reason       string
		inputs                int
		noActionNewThread     bool
		reserved              bool // refused after the reservation (settled rejected)
	}
	cases := []tc{
		{name: "claude new thread", agent: "claude", version: "2.1.267", rec: "thread-new", op: api.OpNewThread,
			outcome: api.OutcomeAccepted, inputs: 2},
		{name: "claude 2.1.332 new thread", agent: "claude", version: "2.1.332", rec: "thread-new", op: api.OpNewThread,
			outcome: api.OutcomeAccepted, inputs: 2},
		{name: "codex new thread", agent: "codex", version: "0.155.1", rec: "thread-new", op: api.OpNewThread,
			outcome: api.OutcomeAccepted, inputs: 2},
		{name: "codex 0.171.0 new thread", agent: "codex", version: "0.171.0", rec: "thread-new", op: api.OpNewThread,
			outcome: api.OutcomeAccepted, inputs: 2},
		{name: "claude resume by id", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, outcome: api.OutcomeAccepted, inputs: 3},
		{name: "claude 2.1.332 resume", agent: "claude", version: "2.1.332", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, outcome: api.OutcomeAccepted, inputs: 3},
		{name: "codex resume by id", agent: "codex", version: "0.155.1", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, outcome: api.OutcomeAccepted, inputs: 3},
		{name: "codex 0.171.0 resume", agent: "codex", version: "0.171.0", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, outcome: api.OutcomeAccepted, inputs: 3},
		{name: "resume by the listing's number", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, ref: "1", outcome: api.OutcomeAccepted, inputs: 3},

		{name: "a non-empty composer", agent: "claude", version: "2.1.267", rec: "thread-new", marker: 1, op: api.OpNewThread,
			outcome: api.OutcomeRejected, reason: api.ReasonComposerNotEmpty, noActionNewThread: true},
		{name: "an active turn", agent: "codex", version: "0.155.1", rec: "thread-new", op: api.OpNewThread,
			setup: func(t *testing.T, x *threadFixture) { x.putTurn(t, "managed") }, outcome: api.OutcomeRejected, reason: api.ReasonTurnActive},
		{name: "a closed turn does not hold the terminal", agent: "codex", version: "0.155.1", rec: "thread-new", op: api.OpNewThread,
			setup: func(t *testing.T, x *threadFixture) { x.putTurn(t, "closed") }, outcome: api.OutcomeAccepted, inputs: 2},
		{name: "a dispatch without its outcome", agent: "codex", version: "0.155.1", rec: "thread-new", op: api.OpNewThread,
			setup: func(t *testing.T, x *threadFixture) {
				r := store.Reservation{ID: "rcpt_open", Op: "send", TerminalID: x.f.View().ID, Stage: store.StageInputSent}
				if _, err := x.st.Apply(store.Change{Reservations: []store.Reservation{r}}); err != nil {
					t.Fatal(err)
				}
			}, outcome: api.OutcomeRejected, reason: api.ReasonTurnActive},
		{name: "a version no profile knows", agent: "claude", version: "2.1.267", shown: "9.9.9", rec: "thread-new", op: api.OpNewThread,
			outcome: api.OutcomeRejected, reason: api.ReasonUnknownVersion, noActionNewThread: true},
		{name: "an exact profile without thread commands", agent: "claude", version: "2.1.263", rec: "send", marker: -1,
			op: api.OpNewThread, outcome: api.OutcomeRejected, reason: api.ReasonUnknownVersion, noActionNewThread: true},
		{name: "an ambiguous binding", agent: "claude", version: "2.1.267", rec: "thread-new", op: api.OpNewThread,
			setup: func(t *testing.T, x *threadFixture) {
				x.f.edit(func(v *terminal.View) {
					v.Bind.State, v.Bind.SessionID, v.Bind.Path = contract.IdentityAmbiguous, "", ""
				})
			}, outcome: api.OutcomeRejected, reason: api.ReasonBindingChanged, noActionNewThread: true},
		{name: "a thread from another workspace (not a candidate)", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, target: idOther, outcome: api.OutcomeRejected, reason: api.ReasonNotResumable},
		{name: "a thread active in another process (not a candidate)", agent: "codex", version: "0.155.1", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, target: idOther, outcome: api.OutcomeRejected, reason: api.ReasonNotResumable},
		{name: "the conversation the pane runs", agent: "codex", version: "0.155.1", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, target: idCurrent, outcome: api.OutcomeRejected, reason: api.ReasonNotResumable},
		{name: "a candidate whose file changed since the listing", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, setup: func(t *testing.T, x *threadFixture) {
				// The status's listing saw the file; it has changed since.
				x.threads.cands[0].Unchanged = func() bool { return false }
				if _, err := x.d.Listing(context.Background(), person, x.f.View()); err != nil {
					t.Fatal(err)
				}
			}, outcome: api.OutcomeRejected, reason: api.ReasonStaleCandidates},
		{name: "a stale candidate set (by number)", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, ref: "1", setup: func(t *testing.T, x *threadFixture) {
				x.threads.mu.Lock()
				x.threads.cands = append([]Candidate{{ID: idOther, Title: "newer", Updated: time.Now()}}, x.threads.cands...)
				x.threads.mu.Unlock()
			}, outcome: api.OutcomeRejected, reason: api.ReasonStaleCandidates},
		{name: "the typed id never shows (no Enter)", agent: "claude", version: "2.1.267", rec: "thread-resume-id", marker: 3,
			op: api.OpResumeThread, setup: func(t *testing.T, x *threadFixture) {
				x.f.mu.Lock()
				x.f.frozen = true
				x.f.mu.Unlock()
			}, outcome: api.OutcomeUncertain, reason: api.ReasonPostcondition, inputs: 1},
		{name: "the binding moves on during the checks", agent: "claude", version: "2.1.267", rec: "thread-new", op: api.OpNewThread,
			setup:   func(t *testing.T, x *threadFixture) { x.threads.moveOnExpect = true },
			outcome: api.OutcomeRejected, reason: api.ReasonBindingChanged, reserved: true},
		{name: "the screen never shows the typed command (no Enter)", agent: "codex", version: "0.155.1", rec: "thread-new", op: api.OpNewThread,
			setup: func(t *testing.T, x *threadFixture) {
				x.f.mu.Lock()
				x.f.frozen = true
				x.f.mu.Unlock()
			}, outcome: api.OutcomeUncertain, reason: api.ReasonPostcondition, inputs: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shown := c.version
			if c.shown != "" {
				shown = c.shown
			}
			first := idFirst
			if c.rec == "thread-resume-id" {
				first = recordedFirst(t, c.agent, c.version)
			}
			if c.op == api.OpResumeThread && c.target == "" && c.ref == "" {
				c.target = first
			}
			x := newThreadFixture(t, c.agent, c.version, shown, c.rec, c.marker, first)
			ctx := api.WithController(context.Background(), person)
			v := x.f.View()
			if c.ref != "" {
				if _, err := x.d.Listing(ctx, person, v); err != nil {
					t.Fatal(err)
				}
			}
			if c.setup != nil {
				c.setup(t, x)
			}
			v = x.f.View()
			if _, ok := terminal.Actions(v)["new_thread"]; ok == c.noActionNewThread {
				t.Errorf("new_thread advertised %v, want %v (screen %s, composer %s)", ok, !c.noActionNewThread, v.Rec.Screen, v.Rec.Composer)
			}
			var res api.ActionResult
			var err error
			if c.op == api.OpNewThread {
				res, err = x.d.NewThread(ctx, api.NewThreadRequest{TerminalID: v.ID})
			} else {
				res, err = x.d.ResumeThread(ctx, api.ResumeThreadRequest{TerminalID: v.ID, NativeThreadID: c.target, Ref: c.ref})
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || !strings.HasPrefix(res.Reason, c.reason) {
				t.Fatalf("%s: %s (%s), want %s (%s)", c.op, res.Outcome, res.Reason, c.outcome, c.reason)
			}
			var rs []store.Reservation
			for _, r := range reservationsOf(t, x.st, v.ID) {
				if r.ID != "rcpt_open" { // the fixture's own
					rs = append(rs, r)
				}
			}
			x.f.mu.Lock()
			sent, inputs, diverged := x.f.sent, x.f.inputs, x.f.diverged
			x.f.mu.Unlock()
			switch res.Outcome {
			case api.OutcomeAccepted:
				f := res.ThreadFacts
				want := idNew
				if c.op == api.OpResumeThread {
					want = first
				}
				if inputs != c.inputs || len(diverged) > 0 {
					t.Errorf("accepted with %d recorded inputs (want %d) and %q besides", inputs, c.inputs, diverged)
				}
				if f == nil || f.PreviousNativeThreadID != idCurrent || f.NativeThreadID != want || f.BindingGeneration != 2 ||
					res.SessionID != terminal.SessionID([]byte("test secret"), c.agent, want) || res.TurnID != "" {
					t.Errorf("accepted: %+v facts %+v", res, f)
				}
				if len(rs) != 1 || rs[0].Stage != store.StageDone || rs[0].Op != c.op {
					t.Errorf("reservations %+v", rs)
				}
			case api.OutcomeUncertain:
				if sent == 0 || inputs != c.inputs || !res.DoNotRetry || len(rs) != 1 || rs[0].Stage != store.StageUncertain {
					t.Errorf("uncertain after %d bytes (%d inputs): do_not_retry %v, reservations %+v", sent, inputs, res.DoNotRetry, rs)
				}
				if x.threads.released != 1 {
					t.Errorf("the binder's hold was released %d times", x.threads.released)
				}
			default:
				if c.reserved {
					if sent != 0 || len(rs) != 1 || rs[0].Stage != store.StageRejected || res.DoNotRetry || x.threads.released != 1 {
						t.Errorf("refused after the reservation: %d bytes, reservations %+v, do_not_retry %v, holds released %d",
							sent, rs, res.DoNotRetry, x.threads.released)
					}
					return
				}
				if sent != 0 || len(rs) != 0 || res.ReceiptID != "" || res.DoNotRetry || len(x.threads.expected) != 0 {
					t.Errorf("a refusal before input: %d bytes, reservations %+v, receipt %q, do_not_retry %v, holds %d",
						sent, rs, res.ReceiptID, res.DoNotRetry, len(x.threads.expected))
				}
			}
		})
	}
}

// TestShortRef: the listing's short refs are unique prefixes of at least
// eight characters, and a ref resolves only within the controller's
// listing and its five minutes.
func TestShortRef(t *testing.T) {
	ids := []string{"019aa111-0000-7000-8000-000000000001", "019aa111-0000-7000-8000-000000000002", "7c9e6679-7425-40de-944b-e07fc1f90ae7"}
	want := []string{"019aa111-0000-7000-8000-000000000001", "019aa111-0000-7000-8000-000000000002", "7c9e6679"}
	for i, id := range ids {
		if got := shortRef(id, ids); got != want[i] {
			t.Errorf("shortRef(%s) = %s, want %s", id, got, want[i])
		}
	}
	var b snapshotBook
	now := time.Now()
	var cands []Candidate
	for _, id := range ids {
		cands = append(cands, Candidate{ID: id})
	}
	b.put("cli:a", "term_x", cands, now)
	for _, c := range []struct {
		ctrl, ref string
		at        time.Time
		want      string
		reason    string
	}{
		{"cli:a", "3", now, ids[2], ""},
		{"cli:a", "7c9e", now, ids[2], ""},
		{"cli:a", "019aa111", now, "", api.ReasonNotResumable}, // two share it
		{"cli:a", "4", now, "", api.ReasonNotResumable},
		{"cli:a", "0", now, "", api.ReasonNotResumable},
		{"cli:a", "7c9", now, "", api.ReasonNotResumable}, // under four characters
		{"cli:b", "1", now, "", api.ReasonStaleCandidates},
		{"cli:a", "1", now.Add(api.CandidateSnapshotTTL + time.Second), "", api.ReasonStaleCandidates},
	} {
		got, _, ref := b.resolve(c.ctrl, "term_x", c.ref, c.at)
		switch {
		case c.reason == "" && (ref != nil || got != c.want):
			t.Errorf("%s %q: %q %v, want %q", c.ctrl, c.ref, got, ref, c.want)
		case c.reason != "" && (ref == nil || ref.reason != c.reason):
			t.Errorf("%s %q: %q %v, want %s", c.ctrl, c.ref, got, ref, c.reason)
		}
	}
}

// TestReconcileBinding: reconcile_binding detaches only the conversation
// the terminal was bound to, only when it is proven stale, and types
// nothing either way.
func TestReconcileBinding(t *testing.T) {
	left := terminal.SessionID([]byte("test secret"), "claude", idCurrent)
	proof := &store.BindingDetach{SessionID: idCurrent, Path: "/files/current.jsonl", Size: 10}
	for _, c := range []struct {
		name    string
		agent   string
		bind    terminal.Binding
		stale   *store.BindingDetach
		session string
		outcome string
		reason  string
	}{
		{name: "proven stale", agent: "claude", bind: terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous, Left: idCurrent,
			LeftPath: "/files/current.jsonl"}, stale: proof, session: left, outcome: api.OutcomeAccepted},
		{name: "not proven stale", agent: "claude", bind: terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous, Left: idCurrent,
			LeftPath: "/files/current.jsonl"}, session: left, outcome: api.OutcomeRejected, reason: api.ReasonNotStale},
		{name: "a binding that names its conversation", agent: "claude", bind: terminal.Binding{Generation: 2,
			State: contract.IdentityResolved, SessionID: idCurrent}, stale: proof, session: left, outcome: api.OutcomeRejected, reason: api.ReasonNotStale},
		{name: "another session than the one left", agent: "claude", bind: terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous,
			Left: idFirst}, stale: proof, session: left, outcome: api.OutcomeRejected, reason: api.ReasonNotStale},
		{name: "codex proven stale", agent: "codex", bind: terminal.Binding{Generation: 2, State: contract.IdentityAmbiguous, Left: idCurrent,
			LeftPath: "/files/current.jsonl"}, stale: proof, session: terminal.SessionID([]byte("test secret"), "codex", idCurrent),
			outcome: api.OutcomeAccepted},
		{name: "codex: the claude session id of the same conversation", agent: "codex", bind: terminal.Binding{Generation: 2,
			State: contract.IdentityAmbiguous, Left: idCurrent}, stale: proof, session: left, outcome: api.OutcomeRejected, reason: api.ReasonNotStale},
	} {
		t.Run(c.name, func(t *testing.T) {
			version := map[string]string{"claude": "2.1.267", "codex": "0.155.1"}[c.agent]
			x := newThreadFixture(t, c.agent, version, version, "thread-new", 0, idFirst)
			x.f.edit(func(v *terminal.View) { v.Bind = c.bind })
			x.threads.stale = c.stale
			ctx := api.WithController(context.Background(), person)
			v := x.f.View()
			if _, ok := terminal.Actions(v)["new_thread"]; ok && c.bind.State != contract.IdentityResolved {
				t.Errorf("new_thread advertised on a %s binding", c.bind.State)
			}
			res, err := x.d.ReconcileBinding(ctx, api.ReconcileBindingRequest{TerminalID: v.ID, ConflictingSessionID: c.session})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || !strings.HasPrefix(res.Reason, c.reason) {
				t.Fatalf("reconcile: %s (%s), want %s (%s)", res.Outcome, res.Reason, c.outcome, c.reason)
			}
			x.f.mu.Lock()
			sent := x.f.sent
			x.f.mu.Unlock()
			rs := reservationsOf(t, x.st, v.ID)
			if sent != 0 {
				t.Errorf("reconcile typed %d bytes", sent)
			}
			if c.outcome == api.OutcomeAccepted {
				if len(x.threads.detached) != 1 || x.threads.detached[0] != *proof || len(rs) != 1 || rs[0].Stage != store.StageDone ||
					res.ThreadFacts == nil || res.ThreadFacts.NativeThreadID != idNew || res.ThreadFacts.BindingGeneration != 3 {
					t.Errorf("accepted: detached %+v, reservations %+v, %+v facts %+v", x.threads.detached, rs, res, res.ThreadFacts)
				}
			} else if len(x.threads.detached) != 0 || len(rs) != 0 {
				t.Errorf("refused, yet detached %+v, reservations %+v", x.threads.detached, rs)
			}
		})
	}
}
