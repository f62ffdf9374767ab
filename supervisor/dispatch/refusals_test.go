package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry/refusaltest"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// person is the table's controller, a local person (refusaltest.Other
// is the MCP host of the cases that need another).
const person = "cli:test"

// testJournal writes to a real store, or refuses every write (StoreDown).
type testJournal struct {
	st   *store.Store
	mu   sync.Mutex
	down bool
	// unavailable: writes fail as on a full disk (store.ErrUnavailable).
	unavailable bool
}

func (j *testJournal) Commit(ch store.Change) error {
	j.mu.Lock()
	down, unavailable := j.down, j.unavailable
	j.mu.Unlock()
	if down {
		return errors.New("store: disk full")
	}
	if unavailable {
		return fmt.Errorf("%w: no space left on device", store.ErrUnavailable)
	}
	_, err := j.st.Apply(ch)
	return err
}

// testTurns records what the transaction told the Turn monitors; its
// one exact_task Watch answers for terminalID unless watchErr.
type testTurns struct {
	mu                        sync.Mutex
	monitored, accepted, drop []string
	terminalID                string
	watchErr                  bool
}

func (t *testTurns) Monitor(turn store.Turn) {
	t.mu.Lock()
	t.monitored = append(t.monitored, turn.ID)
	t.mu.Unlock()
}
func (t *testTurns) Accepted(turn store.Turn) {
	t.mu.Lock()
	t.accepted = append(t.accepted, turn.ID)
	t.mu.Unlock()
}
func (t *testTurns) Drop(id string) { t.mu.Lock(); t.drop = append(t.drop, id); t.mu.Unlock() }
func (t *testTurns) WatchSent(ctx context.Context, terminalID, controller string) (string, string, error) {
	return "watch_" + terminal.Derive([]byte("test"), "watch", terminalID), api.WatchTerminalActivity, nil
}
func (t *testTurns) WatchTerminal(watchID, controller string) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watchErr {
		return "", fmt.Errorf("watch %s is terminal_activity: only an exact_task Watch may answer", watchID)
	}
	return t.terminalID, nil
}

// testKeymaps fakes the agents' keybindings: rebound, or the defaults.
type testKeymaps struct{ remapped bool }

func (k *testKeymaps) Remapped(agent string) (string, error) {
	if k.remapped {
		return agent + "'s keybindings rebind enter", nil
	}
	return "", nil
}

// TestRefusalReasonsCovered: every refusal reason has a case in the table
// (or an exemption that says why none can), and no exemption is stale.
func TestRefusalReasonsCovered(t *testing.T) {
	missing, stale := refusaltest.Missing()
	if len(missing) > 0 {
		t.Errorf("refusal reasons with no case in refusaltest.Cases: %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("refusaltest.Exempt entries that a case covers or that are no reason: %v", stale)
	}
}

// TestDispatchRefusals runs the refusal table against a fake terminal
// serving the recorded screens: each fault is refused with its reason and
// nothing typed, nothing reserved; each faultless twin is accepted with
// exactly the recorded inputs (the strict replica's rule).
func TestDispatchRefusals(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range refusaltest.Cases {
		for _, withFault := range []bool{false, true} {
			if !withFault && (c.FaultOnly || c.Fault == refusaltest.NoFault) {
				continue
			}
			label := c.Name
			if !withFault {
				label += ", without the fault"
			}
			t.Run(label, func(t *testing.T) { runRefusal(t, st, c, withFault) })
		}
	}
}

func runRefusal(t *testing.T, st *store.Store, c refusaltest.Case, withFault bool) {
	f, err := newFake(c.Agent, c.RecordedVersion(), c.ShownVersion(), c.Recording)
	if err != nil {
		t.Fatal(err)
	}
	// Every run its own terminal: the store is shared by the table.
	f.v.ID = "term_" + terminal.Derive([]byte("test"), "terminal", c.Name, fmt.Sprint(withFault))
	if err := f.toMarker(c.Marker); err != nil {
		t.Fatalf("%s: %v", c.Surface(), err)
	}
	j := &testJournal{st: st}
	turns := &testTurns{terminalID: f.v.ID}
	keys := &testKeymaps{}
	d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		Terminals: oneTerminal{f}, Turns: turns, Store: st, Journal: j, Keymaps: keys})
	turnID := writeTurn(t, st, c, f)
	v := f.View()
	f.onInput = func() { // DESIGN invariant 3: reserved and marked sent, durably, before any byte
		if rs := reservationsOf(t, st, v.ID); len(rs) != 1 || rs[0].Stage != store.StageInputSent {
			t.Errorf("input before the reservation was marked input_sent: %+v", rs)
		}
	}
	if c.NoAction != "" {
		if _, ok := terminal.Actions(v)[c.NoAction]; ok {
			t.Fatalf("the status advertises %s", c.NoAction)
		}
	}
	d.MakeOffer(person, v) // the status
	if withFault {
		makeFault(t, d, f, j, turns, c)
		keys.remapped = c.Fault == refusaltest.Remapped
	}
	res, err := callCase(d, c, v, turnID)
	if err != nil {
		t.Fatal(err)
	}
	want, reason := c.Outcome, c.Reason
	if !withFault {
		want, reason = api.OutcomeAccepted, ""
	}
	if res.Outcome != want || !strings.HasPrefix(res.Reason, reason) {
		t.Fatalf("outcome %s (%s), want %s (%s)", res.Outcome, res.Reason, want, reason)
	}
	rs := reservationsOf(t, st, v.ID)
	f.mu.Lock()
	sent, inputs, diverged := f.sent, f.inputs, f.diverged
	f.mu.Unlock()
	switch res.Outcome {
	case api.OutcomeAccepted:
		if n := max(c.Inputs, 1); inputs != n || len(diverged) > 0 {
			t.Errorf("accepted with %d recorded inputs (want %d) and %q besides", inputs, n, diverged)
		}
		if len(rs) != 1 || rs[0].Stage != store.StageDone || !res.DoNotRetry {
			t.Errorf("accepted: reservations %+v, do_not_retry %v", rs, res.DoNotRetry)
		}
	case api.OutcomeUncertain:
		if sent == 0 || !res.DoNotRetry || len(rs) != 1 || rs[0].Stage != store.StageUncertain {
			t.Errorf("uncertain after %d bytes: do_not_retry %v, reservations %+v", sent, res.DoNotRetry, rs)
		}
	default:
		if sent != 0 || len(rs) != 0 || res.ReceiptID != "" || res.DoNotRetry {
			t.Errorf("a refusal before input: %d bytes sent, reservations %+v, receipt %q, do_not_retry %v",
				sent, rs, res.ReceiptID, res.DoNotRetry)
		}
	}
}

// writeTurn writes the case's Turn and returns its id.
func writeTurn(t *testing.T, st *store.Store, c refusaltest.Case, f *fakeTerminal) string {
	if c.Turn == refusaltest.NoTurn {
		return ""
	}
	v := f.View()
	id := "turn_" + terminal.Derive([]byte("test"), "turn", v.ID)
	tr := store.Turn{ID: id, TerminalID: v.ID, Controller: person, Agent: c.Agent, Version: c.ShownVersion(),
		Incarnation: v.Ident.Incarnation(), State: store.TurnAccepted, Management: "managed", Created: time.Now(), Updated: time.Now()}
	switch c.Turn {
	case refusaltest.OthersTurn:
		tr.Controller = refusaltest.Other
	case refusaltest.SettledTurn:
		tr.State = store.TurnDone
	case refusaltest.AnswerableTurn, refusaltest.SupersededTurn, refusaltest.PromptedTurn:
		tr.State, tr.EndedWithText = store.TurnDone, true
		tr.BindingGen, tr.NativeSession = v.Bind.Generation, v.Bind.SessionID
		// The agent's own file, ending with the turn's end.
		tr.NativePath = filepath.Join(t.TempDir(), "session.jsonl")
		end := `{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Which file?"}}` + "\n"
		if err := os.WriteFile(tr.NativePath, []byte(end), 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(tr.NativePath)
		if err != nil {
			t.Fatal(err)
		}
		sys := fi.Sys().(*syscall.Stat_t)
		tr.FileDev, tr.FileIno, tr.SettledEnd = uint64(sys.Dev), sys.Ino, fi.Size()
		if c.Turn == refusaltest.PromptedTurn {
			f, err := os.OpenFile(tr.NativePath, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}` + "\n")
			f.Close()
		}
		if c.Turn == refusaltest.SupersededTurn {
			newer := tr
			newer.ID, newer.Created = id+"x", tr.Created.Add(time.Second)
			if _, err := st.Apply(store.Change{Turns: []store.Turn{newer}}); err != nil {
				t.Fatal(err)
			}
		}
	case refusaltest.ClosedTurn:
		tr.Management = "closed"
	case refusaltest.OldTurn:
		tr.Incarnation = "1/2/codex/0.155.1/3/4/true"
	case refusaltest.ElsewhereTurn:
		tr.TerminalID = "term_" + terminal.Derive([]byte("test"), "terminal", "gone")
	case refusaltest.MissingTurn:
		return id
	}
	if _, err := st.Apply(store.Change{Turns: []store.Turn{tr}}); err != nil {
		t.Fatal(err)
	}
	f.SetActiveTurn(id)
	return id
}

// makeFault makes the case's fault on the fake terminal, the offers or
// the journal.
func makeFault(t *testing.T, d *Dispatcher, f *fakeTerminal, j *testJournal, turns *testTurns, c refusaltest.Case) {
	age := func(by time.Duration) {
		d.EditOffers(func(o *OfferEdit) { o.Made, o.Expires = o.Made.Add(-by), o.Expires.Add(-by) })
	}
	switch c.Fault {
	case refusaltest.NoFault:
	case refusaltest.MoveOn:
		if err := f.toMarker(c.Markers); err != nil {
			t.Fatal(err)
		}
	case refusaltest.ExpireOffers:
		age(OfferTTL + time.Second)
	case refusaltest.ExpireMoveOn:
		age(OfferTTL + time.Second)
		if err := f.toMarker(0); err != nil {
			t.Fatal(err)
		}
	case refusaltest.PastHorizon:
		age(OfferHorizon + time.Minute)
	case refusaltest.ForgetOffers:
		d.ForgetOffers()
	case refusaltest.OtherCwd:
		f.edit(func(v *terminal.View) { v.Ident.Cwd = "/elsewhere" })
	case refusaltest.OtherIncarnation:
		f.edit(func(v *terminal.View) { v.Ident.AgentStart++ })
	case refusaltest.OtherBinding:
		f.edit(func(v *terminal.View) { v.Bind.Generation++ })
	case refusaltest.Fenced:
		f.edit(func(v *terminal.View) { v.Fenced, v.FenceKey = true, v.CurrentFence })
	case refusaltest.Stale:
		f.edit(func(v *terminal.View) { v.Stale, v.StaleCause = true, "%output lost" })
	case refusaltest.Busy:
		f.lock <- struct{}{}
	case refusaltest.Gone:
		f.fail = errors.New("barrier %7: the pane is gone")
	case refusaltest.CopyMode, refusaltest.ViewMode, refusaltest.TreeMode:
		mode := map[refusaltest.Fault]string{refusaltest.CopyMode: "copy-mode", refusaltest.ViewMode: "view-mode",
			refusaltest.TreeMode: "tree-mode"}[c.Fault]
		f.edit(func(v *terminal.View) { v.Gate.InMode, v.Gate.Mode = true, mode })
	case refusaltest.InputOff:
		f.edit(func(v *terminal.View) { v.Gate.InputOff = true })
	case refusaltest.Synchronized:
		f.edit(func(v *terminal.View) { v.Gate.Synchronized = true })
	case refusaltest.Respawned:
		f.respawn = "term_" + terminal.Derive([]byte("test"), "terminal", "respawned")
	case refusaltest.StoreDown:
		locked(&j.mu, func() { j.down = true })
	case refusaltest.StoreUnavailable:
		locked(&j.mu, func() { j.unavailable = true })
	case refusaltest.NotAgent:
		f.edit(func(v *terminal.View) { v.Ident.Agent, v.Ident.Version = api.AgentNone, "" })
	case refusaltest.NoSessionFile:
		// A path under a regular file: not absent (a file yet to come),
		// unreadable.
		notDir := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(notDir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		f.edit(func(v *terminal.View) {
			v.Ident.Replica = false
			v.Bind = terminal.Binding{Generation: 1, State: contract.IdentityResolved, SessionID: "s1",
				Path: filepath.Join(notDir, "rollout.jsonl")}
		})
	case refusaltest.NotExactWatch:
		locked(&turns.mu, func() { turns.watchErr = true })
	case refusaltest.Frozen:
		locked(&f.mu, func() { f.frozen = true })
	case refusaltest.Tick:
		f.tick()
	case refusaltest.Remapped: // runRefusal's Keymaps
	case refusaltest.Redrawn:
		redraw(t, f, c)
	default:
		t.Fatalf("fault %q: the unit runner cannot make it", c.Fault)
	}
}

// locked sets a fake's field under the fake's mutex (the transaction's
// goroutines read it).
func locked(mu *sync.Mutex, set func()) {
	mu.Lock()
	defer mu.Unlock()
	set()
}

// redraw writes the case's Redraw over the fake's screen, as the agent's
// output, and requires the question it shows then: the same header and
// prompt, the case's Redrawn options.
func redraw(t *testing.T, f *fakeTerminal, c refusaltest.Case) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	before := f.v.Rec.Interaction
	out, err := refusaltest.RedrawBytes(strings.Split(f.scr.PlainText(f.scr.Bounds()), "\n"), c.Redraw)
	if err != nil {
		t.Fatal(err)
	}
	f.scr.Write(out)
	f.recognize()
	if err := c.CheckRedrawn(before, f.v.Rec.Interaction); err != nil {
		t.Fatal(err)
	}
}

// callCase makes the case's call as the controller that saw v.
func callCase(d *Dispatcher, c refusaltest.Case, v terminal.View, turnID string) (api.ActionResult, error) {
	req, err := refusaltest.Build(c, v.ID, v.Rec.Interaction, turnID)
	if err != nil {
		return api.ActionResult{}, err
	}
	ctrl := person
	if req.Controller != "" {
		ctrl = req.Controller
	}
	ctx := api.WithController(context.Background(), ctrl)
	switch {
	case req.Approve != nil:
		return d.Approve(ctx, *req.Approve)
	case req.Respond != nil:
		return d.Respond(ctx, *req.Respond)
	case req.Send != nil:
		return d.Send(ctx, *req.Send)
	case req.Answer != nil:
		return d.Answer(ctx, *req.Answer)
	default:
		return d.Cancel(ctx, *req.Cancel)
	}
}

// reservationsOf is the store's reservations of one terminal.
func reservationsOf(t *testing.T, st *store.Store, terminalID string) []store.Reservation {
	rs, err := st.Reservations()
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Reservation
	for _, r := range rs {
		if r.TerminalID == terminalID {
			out = append(out, r)
		}
	}
	return out
}
