package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

func newFakeServer(t *testing.T) (*fakeDaemon, *Server) {
	t.Helper()
	f, sock := startFake(t)
	srv := New(Options{Socket: sock})
	t.Cleanup(srv.closeSessions)
	return f, srv
}

// transports are the ways a host reaches the server: in memory, streamable
// HTTP with the bearer token, and stdio to the real `akk mcp` binary (one
// process per session). The tool tests run over each, against a fake
// daemon of their own.
var transports = []struct {
	name string
	open func(t *testing.T) (*fakeDaemon, func() *mcp.ClientSession)
}{
	{"memory", func(t *testing.T) (*fakeDaemon, func() *mcp.ClientSession) {
		f, srv := newFakeServer(t)
		return f, func() *mcp.ClientSession { return connect(t, srv, nil) }
	}},
	{"http", func(t *testing.T) (*fakeDaemon, func() *mcp.ClientSession) {
		f, url, tok := newHTTPFake(t)
		return f, func() *mcp.ClientSession { return connectHTTP(t, url, tok, "") }
	}},
	{"stdio", func(t *testing.T) (*fakeDaemon, func() *mcp.ClientSession) {
		f, sock := startFake(t)
		return f, func() *mcp.ClientSession { return connectStdio(t, sock) }
	}},
}

// eachTransport runs test once per transport, as a subtest.
func eachTransport(t *testing.T, test func(t *testing.T, f *fakeDaemon, open func() *mcp.ClientSession)) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f, open := tr.open(t)
			test(t, f, open)
		})
	}
}

// TestOffersBoundToSession: a status shown in one MCP session makes an
// offer only that session can consume; the other session's response is
// refused, and a stale interaction id is refused even in the right one.
func TestOffersBoundToSession(t *testing.T) { eachTransport(t, testOffersBoundToSession) }

func testOffersBoundToSession(t *testing.T, f *fakeDaemon, open func() *mcp.ClientSession) {
	a, b := open(), open()
	answer := map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt, "answers": []any{map[string]any{
		"question_id": fakeQ, "response_kind": "single_select", "selected_option_ids": []any{fakeOpt}}}}
	stale := map[string]any{"turn_id": fakeTurn, "interaction_id": fakeOldInt, "answers": answer["answers"]}

	var st api.StatusResponse
	callTool(t, a, ToolStatus, map[string]any{"terminal_id": fakeTerm}, &st)
	steps := []struct {
		name   string
		cs     *mcp.ClientSession
		args   map[string]any
		reason string
	}{
		{"another session's offer", b, answer, api.ReasonNoOffer},
		{"stale interaction", a, stale, api.ReasonStaleInteraction},
		{"the offer's own session", a, answer, ""},
		{"the consumed offer again", a, answer, api.ReasonNoOffer},
	}
	for _, s := range steps {
		var r api.ActionResult
		callTool(t, s.cs, ToolRespond, s.args, &r)
		want := api.OutcomeAccepted
		if s.reason != "" {
			want = api.OutcomeRejected
		}
		if r.Outcome != want || r.Reason != s.reason {
			t.Errorf("%s: outcome %s %s, want %s %s", s.name, r.Outcome, r.Reason, want, s.reason)
		}
	}
	calls := f.callsOf("respond_interaction")
	if len(calls) != len(steps) {
		t.Fatalf("%d respond calls reached the daemon, want %d", len(calls), len(steps))
	}
	ca, cb := calls[1].Controller, calls[0].Controller
	if !strings.HasPrefix(ca, "mcp:") || !strings.HasPrefix(cb, "mcp:") || ca == cb || len(ca) != 4+26 {
		t.Errorf("controllers %q and %q: want two distinct mcp:<26 random>", ca, cb)
	}
	for _, c := range calls {
		if req := c.Body.(api.RespondRequest); req.TerminalID != "" {
			t.Errorf("respond reached the daemon with terminal_id %q", req.TerminalID)
		}
	}
	if st := f.callsOf("status"); len(st) != 1 || st[0].Controller != ca || st[0].Body.(api.StatusRequest).Render {
		t.Errorf("status calls %+v: want one, by session a, never Render", st)
	}
}

// TestToolRefusals: what never reaches the daemon, and how the model is
// told.
func TestToolRefusals(t *testing.T) { eachTransport(t, testToolRefusals) }

func testToolRefusals(t *testing.T, f *fakeDaemon, open func() *mcp.ClientSession) {
	cs := open()
	ans := func(text string) map[string]any {
		return map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt, "answers": []any{map[string]any{
			"question_id": fakeQ, "response_kind": "free_text", "text": text}}}
	}
	tests := []struct {
		name   string
		tool   string
		args   map[string]any
		reason string // rejected_before_input with this reason; "" = a tool error
		errHas string
	}{
		{"escape in an answer", ToolRespond, ans("\x1b[B"), api.ReasonBadText, ""},
		{"C-c in an answer", ToolRespond, ans("stop\x03"), api.ReasonBadText, ""},
		{"CR in an answer", ToolRespond, ans("yes\r"), api.ReasonBadText, ""},
		{"slash command answer", ToolRespond, ans("/clear"), api.ReasonSlashCommand, ""},
		{"escape in a request", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "go\x1b:q!"}, api.ReasonBadText, ""},
		{"slash command request", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": " /model opus\nthen work"}, api.ReasonSlashCommand, ""},
		{"respond by terminal_id", ToolRespond, map[string]any{"terminal_id": fakeTerm, "interaction_id": fakeInt,
			"answers": []any{map[string]any{"question_id": fakeQ, "response_kind": "free_text", "text": "x"}}}, "", "terminal_id"},
		{"a menu index", ToolRespond, map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt,
			"answers": []any{map[string]any{"question_id": fakeQ, "response_kind": "single_select", "index": "2"}}}, "", "index"},
		{"a label for an option id", ToolRespond, map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt,
			"answers": []any{map[string]any{"question_id": fakeQ, "response_kind": "single_select", "selected_option_ids": []any{"Red"}}}}, "", "selected_option_ids"},
		{"a raw keys field", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "x", "keys": "C-c"}, "", "keys"},
		{"two subjects", ToolRespond, map[string]any{"turn_id": fakeTurn, "watch_id": fakeWatch, "interaction_id": fakeInt,
			"answers": ans("x")["answers"]}, "", "exactly one"},
		{"reject by terminal", ToolApprove, map[string]any{"terminal_id": fakeTerm, "decision": "reject"}, "", "turn_id"},
		{"always allow", ToolApprove, map[string]any{"turn_id": fakeTurn, "decision": "always_allow"}, "", "decision"},
		{"integer minutes", ToolRenew, map[string]any{"watch_id": fakeWatch, "minutes": 60}, "", "minutes"},
		{"minutes off the list", ToolRenew, map[string]any{"watch_id": fakeWatch, "minutes": "100000"}, "", "minutes"},
		{"no subject", ToolStatus, map[string]any{}, "", "exactly one"},
		{"message_id with a space", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "x", "message_id": "retry 1"}, "", "message_id"},
		{"message_id with a newline", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "x", "message_id": "a\nb"}, "", "message_id"},
		{"message_id too long", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "x", "message_id": strings.Repeat("a", 65)}, "", "message_id"},
		{"empty message_id", ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "x", "message_id": ""}, "", "message_id"},
		{"a fingerprint", ToolApprove, map[string]any{"turn_id": fakeTurn, "fingerprint": "abc"}, "", "fingerprint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r api.ActionResult
			res := callTool(t, cs, tc.tool, tc.args, &r)
			if tc.reason == "" {
				if !res.IsError || !strings.Contains(errorText(res), tc.errHas) {
					t.Errorf("want a tool error naming %q, got error=%v %q", tc.errHas, res.IsError, errorText(res))
				}
				return
			}
			if res.IsError || r.Outcome != api.OutcomeRejected || r.Reason != tc.reason || r.DoNotRetry {
				t.Errorf("got error=%v %+v, want rejected_before_input %s", res.IsError, r, tc.reason)
			}
		})
	}
	for _, op := range []string{"respond_interaction", "send", "approve", "renew", "task_status"} {
		if c := f.callsOf(op); len(c) != 0 {
			t.Errorf("%d %s calls reached the daemon: %+v", len(c), op, c)
		}
	}
}

// TestToolsPassThrough: every tool reaches its daemon operation with the
// request the model meant, and returns the daemon's result as is (apart
// from what scrub removes).
func TestToolsPassThrough(t *testing.T) { eachTransport(t, testToolsPassThrough) }

func testToolsPassThrough(t *testing.T, f *fakeDaemon, open func() *mcp.ClientSession) {
	cs := open()
	tests := []struct {
		tool string
		args map[string]any
		op   string
		want any
	}{
		{ToolSend, map[string]any{"session_id": "ses_aaaaaaaaaaaaaaaaaaaaaaaaaa", "request": "fix the test\n\tthen commit"}, "send",
			api.SendRequest{SessionID: "ses_aaaaaaaaaaaaaaaaaaaaaaaaaa", Request: "fix the test\n\tthen commit"}},
		{ToolSend, map[string]any{"terminal_id": fakeTerm, "request": "go", "message_id": "01J9Z3.call_7-a"}, "send",
			api.SendRequest{TerminalID: fakeTerm, Request: "go", MessageID: "01J9Z3.call_7-a"}},
		{ToolApprove, map[string]any{"terminal_id": fakeTerm}, "approve", api.ApproveRequest{TerminalID: fakeTerm}},
		{ToolApprove, map[string]any{"turn_id": fakeTurn, "decision": "reject"}, "approve", api.ApproveRequest{TurnID: fakeTurn, Decision: "reject"}},
		{ToolCancel, map[string]any{"turn_id": fakeTurn}, "cancel", api.CancelRequest{TurnID: fakeTurn}},
		{ToolWatch, map[string]any{"terminal_id": fakeTerm}, "watch", api.WatchRequest{TerminalID: fakeTerm}},
		{ToolUnwatch, map[string]any{"watch_id": fakeWatch}, "unwatch", api.UnwatchRequest{WatchID: fakeWatch}},
		{ToolClose, map[string]any{"turn_id": fakeTurn}, "close", api.CloseRequest{TurnID: fakeTurn}},
		{ToolRenew, map[string]any{"watch_id": fakeWatch, "minutes": "60"}, "renew", api.RenewRequest{WatchID: fakeWatch, Minutes: 60}},
		{ToolRenew, map[string]any{"turn_id": fakeTurn}, "renew", api.RenewRequest{TurnID: fakeTurn}},
		{ToolRecover, map[string]any{"watch_id": fakeWatch}, "recover", api.RecoverRequest{WatchID: fakeWatch}},
		{ToolRetryCallback, map[string]any{"turn_id": fakeTurn, "notification_id": "ntf_aaaaaaaaaaaaaaaaaaaaaaaaaa"}, "retry_callback",
			api.RetryCallbackRequest{TurnID: fakeTurn, NotificationID: "ntf_aaaaaaaaaaaaaaaaaaaaaaaaaa"}},
		{ToolStatus, map[string]any{"watch_id": fakeWatch}, "task_status", api.TaskRequest{WatchID: fakeWatch}},
	}
	for _, tc := range tests {
		before := len(f.callsOf(tc.op))
		res := callTool(t, cs, tc.tool, tc.args, nil)
		calls := f.callsOf(tc.op)
		if res.IsError || len(calls) != before+1 {
			t.Errorf("%s %v: error=%v %q, %d calls of %s", tc.tool, tc.args, res.IsError, errorText(res), len(calls)-before, tc.op)
			continue
		}
		if got := calls[len(calls)-1].Body; got != tc.want {
			t.Errorf("%s: daemon got %+v, want %+v", tc.tool, got, tc.want)
		}
	}
	// list: the daemon's rows, less an advertised response by terminal_id.
	var l api.ListResponse
	callTool(t, cs, ToolList, nil, &l)
	if len(l.Terminals) != 1 || l.Terminals[0].AvailableActions["respond"].Tool != ToolRespond {
		t.Fatalf("list %+v", l)
	}
	if _, ok := l.Terminals[0].AvailableActions["respond_here"]; ok {
		t.Errorf("list kept a respond_interaction by terminal_id: %+v", l.Terminals[0].AvailableActions)
	}
	var st api.StatusResponse
	callTool(t, cs, ToolStatus, map[string]any{"terminal_id": fakeTerm}, &st)
	if st.Screen != "" || st.Prompt == nil || st.Prompt.ANSI != "" || st.Prompt.Text != "Which colour?" {
		t.Errorf("status kept a person's rendering: %+v %+v", st, st.Prompt)
	}
	res := callTool(t, cs, ToolStatus, map[string]any{"terminal_id": "term_zzzzzzzzzzzzzzzzzzzzzzzzzz"}, nil)
	if !res.IsError || !strings.Contains(errorText(res), "not_found") {
		t.Errorf("status of an unknown terminal: error=%v %q", res.IsError, errorText(res))
	}
}

// TestDaemonNotRunning: a tool error that says how to start the daemon.
func TestDaemonNotRunning(t *testing.T) {
	srv := New(Options{Socket: t.TempDir() + "/none.sock"})
	cs := connect(t, srv, nil)
	res := callTool(t, cs, ToolList, nil, nil)
	if !res.IsError || !strings.Contains(errorText(res), "akk attach") {
		t.Errorf("list without a daemon: error=%v %q", res.IsError, errorText(res))
	}
}

// TestWakeups: interaction_required and done events reach a host as
// resource updates (legacy subscribe and the new subscriptions/listen) and
// as log messages; a state event that changes nothing about the
// interaction is no news, and attrs outside the allowed list never leave.
func TestWakeups(t *testing.T) {
	f, srv := newFakeServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.FollowEvents(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	var mu sync.Mutex
	var updates, logs int
	var logged []json.RawMessage
	opts := &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			updates++
			mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(r.Params.Data)
			mu.Lock()
			logs++
			logged = append(logged, b)
			mu.Unlock()
		},
	}
	// A host on the 2025-11-25 protocol: resources/subscribe and
	// logging/setLevel.
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	legacy, err := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, opts).Connect(ctx, ct,
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer legacy.Close()
	if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: WakeupsURI}); err != nil {
		t.Fatal(err)
	}
	if err := legacy.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	emit := func(typ, term string, attrs map[string]string) {
		f.mu.Lock()
		f.seq++
		e := api.Event{Seq: f.seq, Time: time.Now(), Type: typ, TerminalID: term, Attrs: attrs}
		f.mu.Unlock()
		f.events <- e
	}
	// Events recorded before the feed connects are history, not news.
	tmuxtest.Await(t, 10*time.Second, tmuxtest.Until("an events call", func() bool { return len(f.callsOf("events")) > 0 }))
	pending := map[string]string{"interaction_kind": "permission", "interaction_state": "pending", "composer": "absent",
		"path": "/home/u/.claude/projects/x.jsonl"}
	emit(api.EventTerminalState, fakeTerm, pending)
	emit(api.EventTerminalState, fakeTerm, pending) // another axis changed: no news
	emit(api.EventBindingChanged, fakeTerm, map[string]string{"path": "/x"})
	emit(api.EventTurnState, fakeTerm, map[string]string{"turn_id": fakeTurn, "state": "working"}) // no news
	emit(api.EventTurnState, fakeTerm, map[string]string{"turn_id": fakeTurn, "state": "done", "route": "webhook:secret"})
	tmuxtest.Await(t, 10*time.Second, tmuxtest.Until("two resource updates and two log messages", func() bool { mu.Lock(); defer mu.Unlock(); return updates >= 2 && logs >= 2 }))
	time.Sleep(100 * time.Millisecond) // a third wake-up would have come by now
	mu.Lock()
	if updates != 2 || logs != 2 {
		t.Errorf("%d resource updates and %d log messages, want 2 each", updates, logs)
	}
	for _, l := range logged {
		if strings.Contains(string(l), "path") || strings.Contains(string(l), "secret") {
			t.Errorf("log message carries a private attr: %s", l)
		}
	}
	mu.Unlock()
	rr, err := legacy.ReadResource(ctx, &mcp.ReadResourceParams{URI: WakeupsURI})
	if err != nil {
		t.Fatal(err)
	}
	var w WakeupsResource
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &w); err != nil {
		t.Fatal(err)
	}
	if len(w.Wakeups) != 2 || w.Wakeups[0].Kind != WakeInteractionRequired || w.Wakeups[1].Kind != WakeDone ||
		w.Wakeups[1].Fields["turn_id"] != fakeTurn || w.Wakeups[1].Fields["route"] != "" || w.Wakeups[0].Fields["path"] != "" {
		t.Errorf("wakeups resource %s", rr.Contents[0].Text)
	}

	// A host on the newest protocol subscribes with subscriptions/listen,
	// which stays open: emit until the update arrives.
	var newUpdates int
	nopts := &mcp.ClientOptions{ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
		mu.Lock()
		newUpdates++
		mu.Unlock()
	}}
	ct2, st2 := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st2, nil); err != nil {
		t.Fatal(err)
	}
	modern, err := mcp.NewClient(&mcp.Implementation{Name: "modern", Version: "1"}, nopts).Connect(ctx, ct2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer modern.Close()
	go modern.Subscribe(ctx, &mcp.SubscribeParams{URI: WakeupsURI})
	for i := 0; ; i++ {
		emit("watch.done", fakeTerm, map[string]string{"watch_id": fakeWatch})
		mu.Lock()
		n := newUpdates
		mu.Unlock()
		if n > 0 {
			break
		}
		if i == 100 {
			t.Fatal("no resource update reached a 2026-07-28 host")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWakeupFeedSubjects: which daemon events wake a host, and the Turn or
// Watch an interaction wake-up names, from the feed's own bookkeeping of
// created and ended subjects.
func TestWakeupFeedSubjects(t *testing.T) {
	const term2 = "term_bbbbbbbbbbbbbbbbbbbbbbbbbb"
	pending := func(term string) api.Event {
		return api.Event{Type: api.EventTerminalState, TerminalID: term,
			Attrs: map[string]string{"interaction_kind": "permission", "interaction_state": "pending"}}
	}
	cleared := api.Event{Type: api.EventTerminalState, TerminalID: fakeTerm, Attrs: map[string]string{"interaction_state": ""}}
	ev := func(typ, term string, attrs ...string) api.Event {
		m := map[string]string{}
		for i := 0; i < len(attrs); i += 2 {
			m[attrs[i]] = attrs[i+1]
		}
		return api.Event{Type: typ, TerminalID: term, Attrs: m}
	}
	tests := []struct {
		name  string
		evs   []api.Event
		kinds []string // kind and subject of each wake-up: "interaction_required turn_…"
	}{
		{"a Turn's prompt names the Turn", []api.Event{ev(api.EventTurnCreated, fakeTerm, "turn_id", fakeTurn), pending(fakeTerm)},
			[]string{"interaction_required turn:" + fakeTurn}},
		{"another terminal's Turn is not named", []api.Event{ev(api.EventTurnCreated, fakeTerm, "turn_id", fakeTurn), pending(term2)},
			[]string{"interaction_required"}},
		{"a closed Turn is not named", []api.Event{ev(api.EventTurnCreated, fakeTerm, "turn_id", fakeTurn),
			ev(api.EventTurnState, fakeTerm, "turn_id", fakeTurn, "state", "running", "reason", "closed"), pending(fakeTerm)},
			[]string{"interaction_required"}},
		{"a Turn's end is done, once", []api.Event{ev(api.EventTurnCreated, fakeTerm, "turn_id", fakeTurn),
			ev(api.EventTurnState, fakeTerm, "turn_id", fakeTurn, "state", "done"),
			ev(api.EventTurnSettled, fakeTerm, "turn_id", fakeTurn, "state", "completed")},
			[]string{"done turn:" + fakeTurn}},
		{"a Watch's prompt names the Watch", []api.Event{ev(api.EventWatchCreated, fakeTerm, "watch_id", fakeWatch), pending(fakeTerm)},
			[]string{"interaction_required watch:" + fakeWatch}},
		{"a settled Watch is done", []api.Event{ev(api.EventWatchCreated, fakeTerm, "watch_id", fakeWatch),
			ev(api.EventWatchSettled, fakeTerm, "watch_id", fakeWatch, "state", "settled"), pending(fakeTerm)},
			[]string{"done watch:" + fakeWatch, "interaction_required"}},
		{"an expired Watch is done", []api.Event{ev(api.EventWatchSettled, fakeTerm, "watch_id", fakeWatch, "state", "expired")},
			[]string{"done watch:" + fakeWatch}},
		{"unwatch is no news", []api.Event{ev(api.EventWatchCreated, fakeTerm, "watch_id", fakeWatch),
			ev(api.EventWatchSettled, fakeTerm, "watch_id", fakeWatch, "state", "stopped"), pending(fakeTerm)},
			[]string{"interaction_required"}},
		{"the same prompt twice is one wake-up", []api.Event{pending(fakeTerm), pending(fakeTerm), cleared, pending(fakeTerm)},
			[]string{"interaction_required", "interaction_required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newWakeupFeed()
			var got []string
			for i, e := range tc.evs {
				e.Seq = uint64(i + 1)
				w, ok := f.add(e)
				if !ok {
					continue
				}
				s := w.Kind
				if id := w.Fields["turn_id"]; id != "" {
					s += " turn:" + id
				}
				if id := w.Fields["watch_id"]; id != "" {
					s += " watch:" + id
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.kinds) {
				t.Errorf("wake-ups %q, want %q", got, tc.kinds)
			}
		})
	}
}
