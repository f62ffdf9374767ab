package tasks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// clock is a test's time: it moves only when the test says.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// liveHost is testHost with one followed terminal whose observation the
// test sets.
type liveHost struct {
	testHost
	mu  sync.Mutex
	obs map[string]terminal.Observation
}

func (h *liveHost) Observation(id string) (terminal.Observation, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	o, ok := h.obs[id]
	return o, ok
}

// timerRig is a Manager on a store, a test clock and a ledger.
type timerRig struct {
	m      *Manager
	st     *store.Store
	clock  *clock
	ledger *memLedger
	host   *liveHost
}

func newTimerRig(t *testing.T, cfg Config, more ...outbox.RouteConfig) *timerRig {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cb := outbox.Config{Routes: append([]outbox.RouteConfig{{Name: "a", Kind: outbox.RouteWebhook, URL: "http://127.0.0.1:9/x"}}, more...),
		Default: []string{"a"}}
	if err := cb.Validate(); err != nil {
		t.Fatal(err)
	}
	cb.EnsureDefaults()
	r := &timerRig{st: st, clock: &clock{now: time.Unix(1_800_000_000, 0)},
		ledger: &memLedger{specs: map[string]TurnSpec{}, state: map[string]string{}},
		host:   &liveHost{testHost: testHost{st}, obs: map[string]terminal.Observation{}}}
	r.m = New(Options{Config: cfg, Callbacks: cb, Store: st, Secret: []byte("test secret"), Now: r.clock.Now,
		Logger: testLogger(t), Host: r.host, Outbox: outbox.New(outbox.Options{Config: cb, Store: st, Logger: testLogger(t), Now: r.clock.Now, Sessions: noSessions{}})})
	r.m.SetTurnLedger(r.ledger)
	return r
}

// events lists the notifications of subject as type/envelope event.
func (r *timerRig) events(t *testing.T, subject string) []string {
	t.Helper()
	ns, err := r.st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range ns {
		var env api.CallbackEnvelope
		if err := json.Unmarshal(n.Envelope, &env); err != nil {
			t.Fatal(err)
		}
		out = append(out, n.Type+"/"+env.Event)
	}
	return out
}

// TestTurnTimers: a managed Turn quiet for StallAfter gets one stall
// notification per quiet spell (activity starts a new spell), and its
// hard timeout ends it timed_out, in the ledger, with one notification.
func TestTurnTimers(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 10 * time.Minute, HardTimeout: time.Hour})
	start := r.clock.Now()
	spec := TurnSpec{TurnID: "turn_timers", TerminalID: "term_t", Controller: "mcp:host", Incarnation: "1/1/codex", Created: start}
	r.ledger.specs[spec.TurnID], r.ledger.state[spec.TurnID] = spec, TurnRunning
	r.m.MonitorTurn(spec)
	stalls := func() int { return strings.Count(strings.Join(r.events(t, spec.TurnID), " "), api.CallbackStalled) }

	r.clock.advance(9 * time.Minute)
	r.m.process()
	if n := stalls(); n != 0 {
		t.Fatalf("stalled after 9 of 10 quiet minutes: %v", r.events(t, spec.TurnID))
	}
	r.clock.advance(time.Minute)
	if next := r.m.process(); !next.Equal(start.Add(time.Hour)) {
		t.Errorf("after the stall the next check is %v, want the hard timeout %v", next, start.Add(time.Hour))
	}
	r.clock.advance(15 * time.Minute)
	r.m.process()
	if n := stalls(); n != 1 {
		t.Fatalf("%d stall notifications in one quiet spell, want 1: %v", n, r.events(t, spec.TurnID))
	}
	// Output: a new spell, and a second stall ten quiet minutes later.
	r.m.Observe(terminal.Observation{TerminalID: "term_t", At: r.clock.Now(), Screen: contract.ScreenWorking,
		Incarnation: spec.Incarnation, OutBytes: 100})
	r.m.process()
	r.clock.advance(10 * time.Minute)
	r.m.process()
	if n := stalls(); n != 2 {
		t.Fatalf("%d stall notifications after a second quiet spell, want 2: %v", n, r.events(t, spec.TurnID))
	}
	r.clock.advance(time.Hour)
	r.m.process()
	if st := r.ledger.state[spec.TurnID]; st != TurnTimedOut {
		t.Fatalf("past the hard timeout the Turn is %s, want %s", st, TurnTimedOut)
	}
	if evs := r.events(t, spec.TurnID); !strings.Contains(strings.Join(evs, " "), api.CallbackTimeout) {
		t.Errorf("no timeout notification: %v", evs)
	}
	if _, ok := r.m.kit.fs.turns[spec.TurnID]; ok {
		t.Error("a timed-out Turn is still monitored")
	}
}

// TestWatchExpiryAndRenew: a Watch expires at its deadline with one
// notification; Renew sets the later of the saved deadline and now plus
// the minutes asked, and resumes an expired Watch of the same process.
func TestWatchExpiryAndRenew(t *testing.T) {
	r := newTimerRig(t, Config{})
	now := r.clock.Now()
	rec := store.Watch{ID: "watch_timers", TerminalID: "term_w", Mode: api.WatchTerminalActivity, Confidence: api.ConfidenceBestEffort,
		State: WatchActive, Incarnation: "1/1/claude", Created: now, Deadline: now.Add(5 * time.Hour), Routes: []string{"a"}}
	if _, err := r.m.kit.notes.commit(store.TaskChange{Watches: []store.Watch{rec}}); err != nil {
		t.Fatal(err)
	}
	r.m.kit.fs.watches[rec.ID] = &watchState{rec: rec, outAt: now}
	r.host.obs["term_w"] = terminal.Observation{TerminalID: "term_w", Incarnation: rec.Incarnation, Screen: contract.ScreenWorking}
	ctx := context.Background()
	deadline := func() time.Time {
		t.Helper()
		task, err := r.m.TaskStatus(ctx, api.TaskRequest{WatchID: rec.ID})
		if err != nil {
			t.Fatal(err)
		}
		return task.Deadline
	}

	// Renew for less than what is left keeps the later deadline.
	if _, err := r.m.Renew(ctx, api.RenewRequest{WatchID: rec.ID, Minutes: 5}); err != nil {
		t.Fatal(err)
	}
	if d := deadline(); !d.Equal(now.Add(5 * time.Hour)) {
		t.Errorf("renew for 5 minutes moved the deadline to %v, want the saved %v", d, now.Add(5*time.Hour))
	}
	if _, err := r.m.Renew(ctx, api.RenewRequest{WatchID: rec.ID, Minutes: 600}); err != nil {
		t.Fatal(err)
	}
	if d := deadline(); !d.Equal(now.Add(600 * time.Minute)) {
		t.Errorf("renew for 600 minutes: deadline %v, want %v", d, now.Add(600*time.Minute))
	}

	// Expiry at the deadline: once, with its notification.
	r.clock.advance(600*time.Minute - time.Second)
	r.m.process()
	if _, ok := r.m.kit.fs.watches[rec.ID]; !ok {
		t.Fatal("the Watch expired before its deadline")
	}
	r.clock.advance(time.Second)
	r.m.process()
	r.m.process()
	task, err := r.m.TaskStatus(ctx, api.TaskRequest{WatchID: rec.ID})
	if err != nil || task.State != WatchExpired {
		t.Fatalf("at the deadline the Watch is %+v %v, want expired", task, err)
	}
	if evs := r.events(t, rec.ID); len(evs) != 1 || !strings.Contains(evs[0], api.CallbackTimeout) {
		t.Errorf("expiry notifications %v, want one timeout", evs)
	}
	// Renew resumes it while its process is the same; not once it changed.
	r.clock.advance(time.Minute)
	if task, err := r.m.Renew(ctx, api.RenewRequest{WatchID: rec.ID, Minutes: 30}); err != nil || task.State != WatchActive ||
		!task.Deadline.Equal(r.clock.Now().Add(30*time.Minute)) {
		t.Fatalf("renew of an expired Watch: %+v %v", task, err)
	}
	r.host.obs["term_w"] = terminal.Observation{TerminalID: "term_w", Incarnation: "2/2/claude", Screen: contract.ScreenIdle}
	if _, err := r.m.Renew(ctx, api.RenewRequest{WatchID: rec.ID, Minutes: 30}); !api.IsCode(err, api.CodeConflict) {
		t.Errorf("renew after the process changed: %v, want conflict", err)
	}
}

// TestPendingTurn: a send answered pending (its request not yet in the
// agent's file) stays managed: the request's record promotes it and its
// end settles it completed; with no record for a whole inactivity window
// it ends unproven, once, and is never sent again (seed 003).
func TestPendingTurn(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 10 * time.Minute, HardTimeout: time.Hour})
	file := evidence.FileID{Dev: 1, Ino: 2}
	pending := func(id string) TurnSpec {
		sp := TurnSpec{TurnID: id, TerminalID: "term_p", Controller: "mcp:host", Incarnation: "1/1/codex", Created: r.clock.Now(),
			Agent: "codex", Path: "/sessions/rollout.jsonl", File: file, Start: 100, BindingGen: 1,
			PromptSHA256: evidence.PromptHash("the task")}
		r.ledger.specs[id], r.ledger.state[id] = sp, TurnRunning
		r.m.MonitorTurn(sp)
		return sp
	}
	at := func(off int64) evidence.Where {
		return evidence.Where{Agent: rollout.Agent, Path: "/sessions/rollout.jsonl", File: file, Offset: off, End: off + 10}
	}

	quiet := pending("turn_quiet")
	r.clock.advance(9 * time.Minute)
	r.m.process()
	if st := r.ledger.state[quiet.TurnID]; st != TurnRunning {
		t.Fatalf("ended %s before its inactivity window", st)
	}
	r.clock.advance(time.Minute)
	r.m.process()
	if st := r.ledger.state[quiet.TurnID]; st != TurnUnproven {
		t.Fatalf("after a quiet window with no record: %s, want %s", st, TurnUnproven)
	}
	if evs := r.events(t, quiet.TurnID); strings.Join(evs, " ") != api.CallbackError+"/"+TurnUnproven {
		t.Errorf("notifications %v, want one error/unproven", evs)
	}

	taken := pending("turn_taken")
	r.m.Evidence("term_p", 1, evidence.PromptAccepted{Where: at(200), TurnID: "native-1", SHA256: evidence.PromptHash("the task")})
	r.m.process()
	if sp := r.ledger.specs[taken.TurnID]; sp.NativeTurnID != "native-1" {
		t.Fatalf("the request's record did not promote the turn: %+v", sp)
	}
	r.clock.advance(15 * time.Minute) // quiet, but its request is proven: a stall, not unproven
	r.m.process()
	if st := r.ledger.state[taken.TurnID]; st != TurnRunning {
		t.Fatalf("a promoted turn ended %s when quiet", st)
	}
	r.m.Evidence("term_p", 1, evidence.TurnCompleted{Where: at(300), TurnID: "native-1", EndedWithText: true})
	r.m.process()
	if st := r.ledger.state[taken.TurnID]; st != TurnCompleted {
		t.Fatalf("after its end: %s, want completed", st)
	}
}

// TestCatchUpFirstFile: a Turn sent before its agent had a file (Claude
// Code's first prompt creates the transcript), whose end was written
// before the monitor followed it, settles from the file the binding
// names, read from its start: the prompt's hash names the native turn
// there, and only that turn's end counts.
func TestCatchUpFirstFile(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 10 * time.Minute, HardTimeout: time.Hour})
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	rec := func(fields string) string {
		return `{"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.332","timestamp":"2026-12-02T21:33:57Z",` + fields + "}\n"
	}
	lines := rec(`"parentUuid":null,"type":"user","uuid":"u1","message":{"role":"user","content":"the task"}`) +
		rec(`"parentUuid":"u1","type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`) +
		rec(`"parentUuid":"a1","type":"system","subtype":"turn_duration","durationMs":40,"uuid":"d1"`)
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, prompt, want string
	}{
		{"turn_first", "the task", TurnCompleted},
		{"turn_other", "another task", TurnRunning}, // its prompt is not in the file
	} {
		sp := TurnSpec{TurnID: tc.id, TerminalID: "term_c", Controller: "mcp:host", Incarnation: "1/1/claude", Created: r.clock.Now(),
			Agent: "claude", Path: path, BindingGen: 2, PromptSHA256: evidence.PromptHash(tc.prompt)}
		r.ledger.specs[tc.id], r.ledger.state[tc.id] = sp, TurnRunning
		r.m.MonitorTurn(sp)
		r.m.Accepted(store.Turn{ID: tc.id, NativePath: path, BindingGen: 2})
		if st := r.ledger.state[tc.id]; st != tc.want {
			t.Errorf("%s (%q): %s after the catch-up, want %s", tc.id, tc.prompt, st, tc.want)
		}
	}
}

// TestFileBoundCatchUp: a Turn accepted from its file, whose end was
// written while the binding named no session for a moment (the watcher
// hands on nothing of a file that is not bound, and a fresh bind only what
// comes after it), settles when the file is bound again: the monitor reads
// what the file holds. A Turn of another file is not touched.
func TestFileBoundCatchUp(t *testing.T) {
	r := newTimerRig(t, Config{StallAfter: 10 * time.Minute, HardTimeout: time.Hour})
	dir := t.TempDir()
	path, other := filepath.Join(dir, "rollout-a.jsonl"), filepath.Join(dir, "rollout-b.jsonl")
	started := `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}` + "\n"
	for _, p := range []string{path, other} {
		if err := os.WriteFile(p, []byte(started), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fileOf := func(p string) evidence.FileID {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		return evidence.FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	}
	for _, id := range []string{"turn_a", "turn_b"} {
		p := map[string]string{"turn_a": path, "turn_b": other}[id]
		sp := TurnSpec{TurnID: id, TerminalID: "term_f", Controller: "mcp:host", Incarnation: "1/1/codex", Created: r.clock.Now(),
			Agent: "codex", Path: p, File: fileOf(p), Start: 0, BindingGen: 1, NativeTurnID: "t1"}
		r.ledger.specs[id], r.ledger.state[id] = sp, TurnRunning
		r.m.MonitorTurn(sp)
	}
	for _, p := range []string{path, other} {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Done."}}` + "\n")
		f.Close()
	}
	r.m.process()
	if st := r.ledger.state["turn_a"]; st != TurnRunning {
		t.Fatalf("settled %s with no evidence handed on", st)
	}
	r.m.FileBound("term_f", path)
	r.m.process()
	if st := r.ledger.state["turn_a"]; st != TurnCompleted {
		t.Errorf("after its file was bound again: %s, want completed", st)
	}
	if st := r.ledger.state["turn_b"]; st != TurnRunning {
		t.Errorf("a Turn of another file: %s, want running", st)
	}
}
