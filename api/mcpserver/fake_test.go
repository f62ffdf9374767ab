package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// fakeDaemon is a recording fake of the daemon's handler, served by the
// real api.Serve on a unix socket: it keeps offers per controller the way
// DESIGN invariant 7 says, so that the MCP side's controller binding is
// tested end to end through the real client and server.
type fakeDaemon struct {
	api.Unimplemented // what the MCP tools do not call
	mu                sync.Mutex
	offers            map[string]string // terminal or turn id -> controller
	calls             []fakeCall
	events            chan api.Event
	seq               uint64
	// listDelay is how long List takes: a reply still owed when a host
	// has closed its input.
	listDelay time.Duration
}

type fakeCall struct {
	Op         string
	Controller string
	Body       any
}

// The fake's ids: a terminal with a pending questionnaire on a Turn.
const (
	fakeTerm   = "term_aaaaaaaaaaaaaaaaaaaaaaaaaa"
	fakeTurn   = "turn_bbbbbbbbbbbbbbbbbbbbbbbbbb"
	fakeWatch  = "watch_cccccccccccccccccccccccccc"
	fakeInt    = "int_dddddddddddddddddddddddddd"
	fakeOldInt = "int_eeeeeeeeeeeeeeeeeeeeeeeeee"
	fakeQ      = "q_ffffffffffffffffffffffffff"
	fakeOpt    = "opt_gggggggggggggggggggggggggg"
)

func (f *fakeDaemon) record(ctx context.Context, op string, body any) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := api.ControllerFrom(ctx)
	f.calls = append(f.calls, fakeCall{op, c, body})
	return c
}

func (f *fakeDaemon) callsOf(op string) []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeCall
	for _, c := range f.calls {
		if c.Op == op {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeDaemon) row() api.Terminal {
	return api.Terminal{TerminalID: fakeTerm, Agent: "claude", Version: "2.1.267", ScreenState: contract.ScreenQuestionnaire,
		Composer: "absent", Interaction: &contract.Interaction{Schema: contract.InteractionSchema, Version: 1, InteractionID: fakeInt,
			TurnID: fakeTurn, Kind: "questionnaire", State: "pending", Questions: []contract.Question{{QuestionID: fakeQ,
				Prompt: "Which colour?", ResponseKind: "single_select", Options: []contract.Option{{OptionID: fakeOpt, Label: "Red"}}}}},
		AvailableActions: map[string]api.Action{
			"respond":      {Tool: api.ToolRespond, Arguments: map[string]any{"turn_id": fakeTurn}},
			"respond_here": {Tool: api.ToolRespond, Arguments: map[string]any{"terminal_id": fakeTerm}},
		}, Warnings: []string{}}
}

func (f *fakeDaemon) List(ctx context.Context) (api.ListResponse, error) {
	f.record(ctx, "list", nil)
	f.mu.Lock()
	d := f.listDelay
	f.mu.Unlock()
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return api.ListResponse{}, ctx.Err()
	}
	return api.ListResponse{V: 1, Terminals: []api.Terminal{f.row()}}, nil
}

// Status answers like a daemon that forgot to leave out a person's
// renderings: the MCP side must scrub them.
func (f *fakeDaemon) Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	c := f.record(ctx, "status", req)
	if req.TerminalID != fakeTerm {
		return api.StatusResponse{}, api.Errorf(api.CodeNotFound, "no terminal %s", req.TerminalID)
	}
	f.mu.Lock()
	f.offers[fakeTurn] = c
	f.mu.Unlock()
	return api.StatusResponse{V: 1, Terminal: f.row(), Screen: "secret draft on screen",
		Prompt: &api.PromptRegion{Text: "Which colour?", ANSI: "\x1b[1mWhich colour?"}}, nil
}

func (f *fakeDaemon) Health(ctx context.Context) (api.Health, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Health{V: 1, LastEvent: f.seq}, nil
}

func (f *fakeDaemon) Events(ctx context.Context, after uint64, follow bool, emit func(api.Event) error) error {
	f.record(ctx, "events", after)
	for {
		select {
		case <-ctx.Done():
			return nil
		case e := <-f.events:
			if e.Seq <= after {
				continue
			}
			if err := emit(e); err != nil {
				return err
			}
		}
	}
}

func (f *fakeDaemon) outcome(ctx context.Context, op, subject, interaction string, body any) api.ActionResult {
	c := f.record(ctx, op, body)
	f.mu.Lock()
	defer f.mu.Unlock()
	r := api.ActionResult{V: 1, Op: op, Outcome: api.OutcomeAccepted, TurnID: subject}
	switch {
	case f.offers[subject] != c:
		r.Outcome, r.Reason = api.OutcomeRejected, api.ReasonNoOffer
	case interaction != "" && interaction != fakeInt:
		r.Outcome, r.Reason = api.OutcomeRejected, api.ReasonStaleInteraction
	default:
		delete(f.offers, subject)
	}
	return r
}

func (f *fakeDaemon) Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error) {
	return f.outcome(ctx, "approve", req.TurnID+req.TerminalID, "", req), nil
}

func (f *fakeDaemon) Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error) {
	return f.outcome(ctx, "respond_interaction", req.TurnID+req.WatchID, req.InteractionID, req), nil
}

func (f *fakeDaemon) Send(ctx context.Context, req api.SendRequest) (api.ActionResult, error) {
	f.record(ctx, "send", req)
	return api.ActionResult{V: 1, Op: "send", Outcome: api.OutcomeAccepted, TurnID: fakeTurn}, nil
}

func (f *fakeDaemon) Answer(ctx context.Context, req api.AnswerRequest) (api.ActionResult, error) {
	f.record(ctx, "answer", req)
	return api.ActionResult{V: 1, Op: "answer", Outcome: api.OutcomeAccepted, TurnID: req.TurnID}, nil
}

var _ api.Actions = (*fakeDaemon)(nil)

func (f *fakeDaemon) Cancel(ctx context.Context, req api.CancelRequest) (api.ActionResult, error) {
	f.record(ctx, "cancel", req)
	return api.ActionResult{V: 1, Op: "cancel", Outcome: api.OutcomeAccepted, TurnID: req.TurnID}, nil
}

func (f *fakeDaemon) task(ctx context.Context, op string, body any) (api.Task, error) {
	f.record(ctx, op, body)
	return api.Task{V: 1, WatchID: fakeWatch, TerminalID: fakeTerm, TaskKind: "watch", State: "observing"}, nil
}

func (f *fakeDaemon) Watch(ctx context.Context, req api.WatchRequest) (api.Task, error) {
	return f.task(ctx, "watch", req)
}
func (f *fakeDaemon) Unwatch(ctx context.Context, req api.UnwatchRequest) (api.Task, error) {
	return f.task(ctx, "unwatch", req)
}
func (f *fakeDaemon) Close(ctx context.Context, req api.CloseRequest) (api.Task, error) {
	return f.task(ctx, "close", req)
}
func (f *fakeDaemon) Renew(ctx context.Context, req api.RenewRequest) (api.Task, error) {
	return f.task(ctx, "renew", req)
}
func (f *fakeDaemon) Recover(ctx context.Context, req api.RecoverRequest) (api.Task, error) {
	return f.task(ctx, "recover", req)
}
func (f *fakeDaemon) RetryCallback(ctx context.Context, req api.RetryCallbackRequest) (api.Task, error) {
	return f.task(ctx, "retry_callback", req)
}
func (f *fakeDaemon) TaskStatus(ctx context.Context, req api.TaskRequest) (api.Task, error) {
	return f.task(ctx, "task_status", req)
}

// startFake serves a fakeDaemon on a fresh socket until the test ends.
func startFake(t *testing.T) (*fakeDaemon, string) {
	t.Helper()
	f := &fakeDaemon{offers: map[string]string{}, events: make(chan api.Event, 16)}
	sock := filepath.Join(t.TempDir(), "api", api.SocketName)
	ln, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Serve(ctx, ln, f, api.ServerOptions{UID: -1}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("api.Serve: %v", err)
		}
	})
	return f, sock
}

// connect opens one more MCP session to srv with the SDK's own client
// over in-memory transports.
func connect(t *testing.T, srv *Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "akk-test", Version: "1"}, opts)
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callTool calls a tool and decodes its structured result into out (when
// not nil). It returns the raw result for checks of IsError and content.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !res.IsError {
		assertClean(t, name, res)
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured result %s: %v", name, b, err)
		}
	}
	return res
}

func errorText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}
