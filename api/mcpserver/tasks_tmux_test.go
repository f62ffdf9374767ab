package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// wakeSink is a host that subscribed to akk://wakeups and asked for log
// messages: what reached it, in order.
type wakeSink struct {
	mu      sync.Mutex
	updates int
	logged  []Wakeup
}

func (w *wakeSink) find(kind string, match func(Wakeup) bool) (Wakeup, int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, x := range w.logged {
		if x.Kind == kind && match(x) {
			return x, w.updates, true
		}
	}
	return Wakeup{}, w.updates, false
}

// awaitWake waits for a logged wake-up of kind that match accepts, and
// for at least one resource update: both notifications must reach the
// host.
func (w *wakeSink) awaitWake(t *testing.T, kind string, match func(Wakeup) bool) Wakeup {
	t.Helper()
	var got Wakeup
	tmuxtest.Await(t, 20*time.Second, func() string {
		x, updates, ok := w.find(kind, match)
		if !ok || updates == 0 {
			w.mu.Lock()
			defer w.mu.Unlock()
			return "no " + kind + " wake-up yet (" + mustJSONNoT(w.logged) + ")"
		}
		got = x
		return ""
	})
	return got
}

func mustJSONNoT(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// connectWakeups connects a host on the 2025-11-25 protocol (resources/
// subscribe and logging/setLevel) that collects wake-ups, and starts the
// server's event feed.
func connectWakeups(t *testing.T, srv *Server) (*mcp.ClientSession, *wakeSink) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.FollowEvents(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	sink := &wakeSink{}
	opts := &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			sink.mu.Lock()
			sink.updates++
			sink.mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(r.Params.Data)
			var w Wakeup
			if err := json.Unmarshal(b, &w); err != nil {
				t.Errorf("log message %s: %v", b, err)
			}
			sink.mu.Lock()
			sink.logged = append(sink.logged, w)
			sink.mu.Unlock()
		},
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "akk-test-wakeups", Version: "1"}, opts).Connect(ctx, ct,
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: WakeupsURI}); err != nil {
		t.Fatal(err)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	// The feed starts after the daemon's latest event: wait until it
	// follows, so that nothing this test causes counts as history.
	tmuxtest.Await(t, 10*time.Second, func() string {
		if srv.wakeups.last() == 0 {
			return "the wake-up feed does not follow the daemon yet"
		}
		return ""
	})
	return cs, sink
}

// taskStep is one call of a task operation through MCP and what it must
// give: a task in state, or a tool error naming errHas.
type taskStep struct {
	name   string
	tool   string
	args   map[string]any
	state  string
	errHas string
}

func runSteps(t *testing.T, cs *mcp.ClientSession, steps []taskStep) {
	t.Helper()
	for _, s := range steps {
		var task api.Task
		res := callTool(t, cs, s.tool, s.args, &task)
		switch {
		case s.errHas != "":
			if !res.IsError || !strings.Contains(errorText(res), s.errHas) {
				t.Errorf("%s: error=%v %q %+v, want a tool error naming %q", s.name, res.IsError, errorText(res), task, s.errHas)
			}
		case res.IsError || task.State != s.state:
			t.Errorf("%s: error=%v %q, state %q, want %q", s.name, res.IsError, errorText(res), task.State, s.state)
		}
	}
}

const (
	unknownWatch = "watch_aaaaaaaaaaaaaaaaaaaaaaaaaa"
	unknownTurn  = "turn_aaaaaaaaaaaaaaaaaaaaaaaaaa"
)

// TestTmuxMCPWatch: through MCP against the real daemon, a person's work
// is watched (terminal activity: a replica has no transcript), renewed,
// recovered and shown by watch_id; its permission prompt and its end
// (stably idle) reach the host as wake-ups naming the Watch; a settled
// Watch refuses renew and retry_callback; a second Watch is unwatched,
// then refuses recover and retry_callback and resumes on renew; unknown
// and wrong-kind subjects are refused.
func TestTmuxMCPWatch(t *testing.T) {
	// stable_idle 1s: the Watch settles a second after the work ends.
	r := startRigConfig(t, "stable_idle = \"1s\"\n", "permission-approve")
	srv := New(Options{Socket: r.socket})
	t.Cleanup(srv.closeSessions)
	cs, sink := connectWakeups(t, srv)
	row := r.awaitState(t, "permission-approve", contract.ScreenIdle)
	term := map[string]any{"terminal_id": row.TerminalID}

	res := callTool(t, cs, ToolWatch, map[string]any{"terminal_id": "term_aaaaaaaaaaaaaaaaaaaaaaaaaa"}, nil)
	if !res.IsError || !strings.Contains(errorText(res), api.CodeNotFound) {
		t.Errorf("watch of an unknown terminal: error=%v %q", res.IsError, errorText(res))
	}
	var w, again api.Task
	res = callTool(t, cs, ToolWatch, term, &w)
	if res.IsError || !strings.HasPrefix(w.WatchID, prefixWatch) || w.TerminalID != row.TerminalID || w.TaskKind != "watch" ||
		w.WatchMode != api.WatchTerminalActivity || w.State != "active" {
		t.Fatalf("watch: error=%v %q %+v", res.IsError, errorText(res), w)
	}
	callTool(t, cs, ToolWatch, term, &again)
	if again.WatchID != w.WatchID {
		t.Errorf("a second watch of the same terminal and process: %s, want the active %s", again.WatchID, w.WatchID)
	}
	wid := map[string]any{"watch_id": w.WatchID}
	runSteps(t, cs, []taskStep{
		{"status by watch_id", ToolStatus, wid, "active", ""},
		{"renew 30 minutes", ToolRenew, map[string]any{"watch_id": w.WatchID, "minutes": "30"}, "active", ""},
		{"recover an active Watch", ToolRecover, wid, "active", ""},
		{"retry with nothing failed", ToolRetryCallback, wid, "", api.CodeConflict},
		{"close takes no Watch", ToolClose, wid, "", "watch_id"},
		{"cancel takes no Watch", ToolCancel, wid, "", "watch_id"},
		{"status of an unknown Watch", ToolStatus, map[string]any{"watch_id": unknownWatch}, "", api.CodeNotFound},
		{"unwatch an unknown Watch", ToolUnwatch, map[string]any{"watch_id": unknownWatch}, "", api.CodeNotFound},
		{"renew an unknown Watch", ToolRenew, map[string]any{"watch_id": unknownWatch}, "", api.CodeNotFound},
		{"recover an unknown Watch", ToolRecover, map[string]any{"watch_id": unknownWatch}, "", api.CodeNotFound},
		{"retry an unknown Watch", ToolRetryCallback, map[string]any{"watch_id": unknownWatch}, "", api.CodeNotFound},
	})

	// The person's task stops at a permission prompt: the terminal's
	// interaction wakes the host, naming the Watch; the person answers
	// in the TUI and the Watch settles once the pane is stably idle.
	r.typeTask("permission-approve", "run-touch")
	r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)
	ir := sink.awaitWake(t, WakeInteractionRequired, func(x Wakeup) bool { return x.TerminalID == row.TerminalID })
	if ir.Fields["watch_id"] != w.WatchID || ir.Fields["interaction_kind"] != "permission" {
		t.Errorf("interaction wake-up %+v, want watch %s and a permission", ir, w.WatchID)
	}
	r.srv.MustRun("send-keys", "-t", r.panes["permission-approve"], "1")
	done := sink.awaitWake(t, WakeDone, func(x Wakeup) bool { return x.Fields["watch_id"] == w.WatchID })
	if done.Event != api.EventWatchSettled || done.Fields["state"] != "settled" || done.Fields["reason"] != api.CallbackStablyIdle ||
		done.TerminalID != row.TerminalID {
		t.Errorf("done wake-up %+v", done)
	}
	runSteps(t, cs, []taskStep{
		{"status of the settled Watch", ToolStatus, wid, "settled", ""},
		{"renew a settled Watch", ToolRenew, wid, "", api.CodeConflict},
		{"retry with nothing failed", ToolRetryCallback, wid, "", api.CodeConflict},
	})

	// A new Watch of the same process, stopped by unwatch.
	var w2 api.Task
	callTool(t, cs, ToolWatch, term, &w2)
	if w2.WatchID == "" || w2.WatchID == w.WatchID {
		t.Fatalf("a Watch after the first settled: %+v", w2)
	}
	wid2 := map[string]any{"watch_id": w2.WatchID}
	runSteps(t, cs, []taskStep{
		{"unwatch", ToolUnwatch, wid2, "stopped", ""},
		{"unwatch again", ToolUnwatch, wid2, "stopped", ""},
		{"recover a stopped Watch", ToolRecover, wid2, "", api.CodeConflict},
		{"retry an unwatched Watch", ToolRetryCallback, wid2, "", api.CodeConflict},
		// The same task still runs in the same process: renew resumes it.
		{"renew a stopped Watch", ToolRenew, wid2, "active", ""},
		{"unwatch the resumed Watch", ToolUnwatch, wid2, "stopped", ""},
	})
	// Unwatch is the controller's own act: no wake-up for it.
	time.Sleep(300 * time.Millisecond)
	if x, _, ok := sink.find(WakeDone, func(x Wakeup) bool { return x.Fields["watch_id"] == w2.WatchID }); ok {
		t.Errorf("unwatch woke the host: %+v", x)
	}
}

// TestTmuxMCPTurnOps: a managed send through MCP with a message_id; the
// same message_id again returns the first Turn and types nothing, while
// another MCP session's same message_id is not that Turn; the Turn's
// permission prompt reaches the host as an interaction_required wake-up
// naming the Turn; renew and recover act on the running Turn and
// retry_callback is refused (nothing failed); approve by turn_id; close
// releases the Turn, after which close, renew, recover and retry_callback
// are refused; unknown Turns are not found.
func TestTmuxMCPTurnOps(t *testing.T) {
	r := startRig(t, "permission-approve")
	srv := New(Options{Socket: r.socket})
	t.Cleanup(srv.closeSessions)
	a, sink := connectWakeups(t, srv)
	b := connect(t, srv, nil)
	row := r.awaitState(t, "permission-approve", contract.ScreenIdle)

	send := map[string]any{"terminal_id": row.TerminalID, "request": "run-touch", "message_id": "task-7.a_1"}
	var sent api.ActionResult
	if res := callTool(t, a, ToolSend, send, &sent); res.IsError || sent.Outcome != api.OutcomeAccepted ||
		!strings.HasPrefix(sent.TurnID, prefixTurn) {
		t.Fatalf("send: error=%v %q %+v", res.IsError, errorText(res), sent)
	}
	ir := sink.awaitWake(t, WakeInteractionRequired, func(x Wakeup) bool { return x.TerminalID == row.TerminalID })
	if ir.Fields["turn_id"] != sent.TurnID || ir.Fields["interaction_kind"] != "permission" || ir.Fields["interaction_state"] != "pending" {
		t.Errorf("interaction wake-up %+v, want turn %s and a pending permission", ir, sent.TurnID)
	}
	r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)

	// A retry of the same send: the first Turn, nothing typed (a replica
	// exits on unrecorded input, and the prompt would be gone).
	var dup api.ActionResult
	callTool(t, a, ToolSend, send, &dup)
	if dup.Outcome != api.OutcomeAlreadyDone || dup.TurnID != sent.TurnID || !dup.DoNotRetry {
		t.Errorf("the same message_id again: %+v, want already_done of %s", dup, sent.TurnID)
	}
	// The key is the session's own: another session's same key is a new
	// send, refused here because the agent is busy.
	var other api.ActionResult
	callTool(t, b, ToolSend, send, &other)
	if other.Outcome == api.OutcomeAlreadyDone || other.Outcome == api.OutcomeAccepted || other.TurnID == sent.TurnID {
		t.Errorf("another session's same message_id: %+v", other)
	}

	tid := map[string]any{"turn_id": sent.TurnID}
	runSteps(t, a, []taskStep{
		{"status by turn_id", ToolStatus, tid, "running", ""},
		{"renew a running Turn", ToolRenew, tid, "running", ""},
		{"recover a running Turn", ToolRecover, tid, "running", ""},
		{"retry with nothing failed", ToolRetryCallback, tid, "", api.CodeConflict},
		{"retry an unknown notification", ToolRetryCallback, map[string]any{"turn_id": sent.TurnID,
			"notification_id": "ntf_aaaaaaaaaaaaaaaaaaaaaaaaaa"}, "", api.CodeNotFound},
		{"unwatch takes no Turn", ToolUnwatch, tid, "", "turn_id"},
		{"two subjects", ToolRecover, map[string]any{"turn_id": sent.TurnID, "watch_id": unknownWatch}, "", "exactly one"},
	})

	var st api.StatusResponse
	callTool(t, a, ToolStatus, map[string]any{"terminal_id": row.TerminalID}, &st)
	var ok api.ActionResult
	if callTool(t, a, ToolApprove, tid, &ok); ok.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve by turn_id: %+v", ok)
	}
	r.awaitState(t, "permission-approve", contract.ScreenIdle)

	runSteps(t, a, []taskStep{
		{"close", ToolClose, tid, "closed", ""},
		{"close again", ToolClose, tid, "", api.CodeConflict},
		{"renew a closed Turn", ToolRenew, tid, "", api.CodeConflict},
		{"recover a closed Turn", ToolRecover, tid, "", api.CodeConflict},
		{"retry a closed Turn", ToolRetryCallback, tid, "", api.CodeConflict},
		{"close an unknown Turn", ToolClose, map[string]any{"turn_id": unknownTurn}, "", api.CodeNotFound},
		{"renew an unknown Turn", ToolRenew, map[string]any{"turn_id": unknownTurn}, "", api.CodeNotFound},
		{"recover an unknown Turn", ToolRecover, map[string]any{"turn_id": unknownTurn}, "", api.CodeNotFound},
		{"retry an unknown Turn", ToolRetryCallback, map[string]any{"turn_id": unknownTurn}, "", api.CodeNotFound},
	})
}
