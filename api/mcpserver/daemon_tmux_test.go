package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

const corpusDir = "../../recordings/testdata"

func TestMain(m *testing.M) { akkbin.Main(m) }

// buildAkk is the akk binary: the daemon and the replicas run it, and so
// does a real host's `akk mcp`.
func buildAkk(t testing.TB) string { return akkbin.Build(t) }

// rig is a daemon (`akk attach --allow-replicas`, the real binary) on an
// isolated tmux server, with one replica pane per recording.
type rig struct {
	srv    *tmuxtest.Server
	akk    string
	socket string
	env    []string
	panes  map[string]string // surface -> pane id
	cl     *api.Client       // the test's own view (controller cli:<uid>)
}

func startRig(t *testing.T, surfaces ...string) *rig {
	t.Helper()
	return startRigConfig(t, "", surfaces...)
}

// startRigConfig is startRig with the daemon's configuration file (TOML,
// as `akk attach --config` reads it; "" for none).
func startRigConfig(t *testing.T, config string, surfaces ...string) *rig {
	t.Helper()
	tmuxtest.RequireTmux(t)
	r := &rig{akk: buildAkk(t), panes: map[string]string{}}
	r.srv = tmuxtest.StartFixed(t, 120, 40, "sh") // the recordings' size: no resize
	dir := t.TempDir()
	var fifos []string
	for _, s := range surfaces {
		fifo := filepath.Join(dir, s+".go")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		fifos = append(fifos, fifo)
		cast := keptAlive(t, dir, s)
		// The replica starts once the daemon follows the pane.
		out := r.srv.MustRun("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main",
			fmt.Sprintf("sh -c 'read _ < %s; exec %s replica %s'", fifo, r.akk, cast))
		r.panes[s] = strings.TrimSpace(string(out))
	}
	r.socket = filepath.Join(dir, "run", api.SocketName)
	r.env = append(append([]string{}, r.srv.Env...), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"), "HOME="+filepath.Join(dir, "home"))
	args := []string{"attach", "-S", r.srv.Socket, "--socket", r.socket, "--store", filepath.Join(dir, "store"),
		"--allow-replicas", "--log-level", "warn"}
	if config != "" {
		file := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--config", file)
	}
	daemon := exec.Command(r.akk, args...)
	daemon.Env = r.env
	daemon.Stderr = &testWriter{t: t}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := akkbin.Stop(daemon, syscall.SIGTERM, 20*time.Second); err != nil {
			t.Errorf("akk attach on SIGTERM: %v", err)
		}
	})
	r.cl = api.NewClient(r.socket)
	t.Cleanup(r.cl.Close)
	tmuxtest.Await(t, 15*time.Second, func() string {
		_, err := r.cl.Health(context.Background())
		return errString(err)
	})
	for _, f := range fifos {
		if err := os.WriteFile(f, []byte("go\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// sentinel is the input that ends a test replica: appended to a copy of
// the recording, it keeps the replica alive after its last event, so that
// the state after the last input is a live agent's, not an exited pane.
const sentinel = "\x04"

func keptAlive(t *testing.T, dir, surface string) string {
	t.Helper()
	rec, err := recordings.ReadFile(filepath.Join(corpusDir, "claude", "2.1.267", surface+".cast"))
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Events[len(rec.Events)-1].Time
	rec.Events = append(rec.Events, recordings.Event{Time: last + 0.01, Code: recordings.Input, Data: []byte(sentinel)})
	enc, err := recordings.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, surface+".cast")
	if err := os.WriteFile(file, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// reasonCode is a reason's code: the daemon may explain it after a colon.
func reasonCode(reason string) string {
	code, _, _ := strings.Cut(reason, ":")
	return code
}

// row is the daemon's current row of a surface's pane.
func (r *rig) row(t *testing.T, surface string) api.Terminal {
	t.Helper()
	l, err := r.cl.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range l.Terminals {
		if row.PaneID == r.panes[surface] {
			return row
		}
	}
	return api.Terminal{}
}

// awaitState waits until the surface's pane shows state.
func (r *rig) awaitState(t *testing.T, surface string, state contract.ScreenState) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 20*time.Second, func() string {
		row = r.row(t, surface)
		if row.ScreenState != state {
			return fmt.Sprintf("%s: screen_state %q, want %q", surface, row.ScreenState, state)
		}
		return ""
	})
	return row
}

// typeTask types a task into the pane and presses Enter, as the person
// at the terminal would (the work a Watch observes).
func (r *rig) typeTask(surface, task string) {
	r.srv.MustRun("send-keys", "-t", r.panes[surface], "-l", task)
	r.srv.MustRun("send-keys", "-t", r.panes[surface], "Enter")
}

// TestTmuxMCPListStatus: the SDK's client, through this server, sees the
// daemon exactly as the CLI's --json does: the same list and the same
// status for replica agents on an isolated tmux server, including a
// pending permission prompt started by a person.
func TestTmuxMCPListStatus(t *testing.T) {
	r := startRig(t, "send", "permission-approve")
	srv := New(Options{Socket: r.socket})
	t.Cleanup(srv.closeSessions)
	cs := connect(t, srv, nil)
	r.awaitState(t, "send", contract.ScreenIdle) // it waits for its task there
	r.awaitState(t, "permission-approve", contract.ScreenIdle)
	r.typeTask("permission-approve", "run-touch")
	perm := r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)

	ctx := context.Background()
	var viaMCP api.ListResponse
	callTool(t, cs, ToolList, nil, &viaMCP)
	direct, err := r.cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, viaMCP), mustJSON(t, direct); a != b {
		t.Errorf("list through MCP differs from the CLI's --json:\nmcp: %s\ncli: %s", a, b)
	}
	if len(viaMCP.Terminals) != 3 {
		t.Errorf("list: %d rows, want the shell and two replicas", len(viaMCP.Terminals))
	}

	var st api.StatusResponse
	callTool(t, cs, ToolStatus, map[string]any{"terminal_id": perm.TerminalID}, &st)
	in := st.Terminal.Interaction
	if st.V != 1 || st.Terminal.TerminalID != perm.TerminalID || st.Terminal.ScreenState != contract.ScreenAwaitingApproval ||
		in == nil || in.Kind != contract.KindPermission || in.State != contract.StatePending || st.Evidence.Recognizer != "claude@2.1.267" ||
		st.Prompt == nil || st.Prompt.ANSI != "" || st.Screen != "" {
		t.Errorf("status through MCP: %s", mustJSON(t, st))
	}
	cli, err := r.cl.Status(ctx, api.StatusRequest{TerminalID: perm.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	// The same answer but for when it was made (the offer's expiry).
	st.OfferExpiresAt, cli.OfferExpiresAt = nil, nil
	if a, b := mustJSON(t, st), mustJSON(t, cli); a != b {
		t.Errorf("status through MCP differs from the CLI's --json:\nmcp: %s\ncli: %s", a, b)
	}
	res := callTool(t, cs, ToolStatus, map[string]any{"terminal_id": "term_aaaaaaaaaaaaaaaaaaaaaaaaaa"}, nil)
	if !res.IsError || !strings.Contains(errorText(res), "not_found") {
		t.Errorf("status of an unknown terminal: error=%v %q", res.IsError, errorText(res))
	}
}

// TestTmuxMCPApproveOnce: a person's task stops at a permission prompt;
// another MCP session cannot consume this session's offer; the session
// that showed status approves once; the prompt is gone and a second
// approve is refused.
func TestTmuxMCPApproveOnce(t *testing.T) {
	r := startRig(t, "permission-approve")
	srv := New(Options{Socket: r.socket})
	t.Cleanup(srv.closeSessions)
	a, b := connect(t, srv, nil), connect(t, srv, nil)
	r.awaitState(t, "permission-approve", contract.ScreenIdle)
	r.typeTask("permission-approve", "run-touch")
	row := r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)
	args := map[string]any{"terminal_id": row.TerminalID}

	var st api.StatusResponse
	callTool(t, a, ToolStatus, args, &st)
	var other api.ActionResult
	res := callTool(t, b, ToolApprove, args, &other)
	if res.IsError || other.Outcome != api.OutcomeRejected || reasonCode(other.Reason) != api.ReasonNoOffer {
		t.Errorf("approve by a session that showed no status: error=%v %q %+v", res.IsError, errorText(res), other)
	}
	if res := callTool(t, a, ToolApprove, map[string]any{"terminal_id": row.TerminalID, "decision": "reject"}, nil); !res.IsError {
		t.Errorf("reject by terminal_id was not refused")
	}
	var ok api.ActionResult
	callTool(t, a, ToolApprove, args, &ok)
	if ok.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve_once after status: %+v", ok)
	}
	r.awaitState(t, "permission-approve", contract.ScreenIdle)
	var again api.ActionResult
	callTool(t, a, ToolApprove, args, &again)
	if again.Outcome == api.OutcomeAccepted {
		t.Errorf("a second approve was accepted: %+v", again)
	}
}

// TestTmuxMCPSendRespond: send gives an idle replica its task (a managed
// Turn); a raw key in the request never reaches it; the Turn stops at a
// questionnaire whose step is answered by the session that showed status,
// after a stale interaction id, a raw key in the answer's text and another
// session's attempt are refused.
func TestTmuxMCPSendRespond(t *testing.T) {
	r := startRig(t, "question-digit")
	srv := New(Options{Socket: r.socket})
	t.Cleanup(srv.closeSessions)
	a, b := connect(t, srv, nil), connect(t, srv, nil)
	row := r.awaitState(t, "question-digit", contract.ScreenIdle)

	var bad api.ActionResult
	callTool(t, a, ToolSend, map[string]any{"terminal_id": row.TerminalID, "request": "ask-color\x1b[A"}, &bad)
	if bad.Outcome != api.OutcomeRejected || reasonCode(bad.Reason) != api.ReasonBadText {
		t.Errorf("send with a raw key: %+v", bad)
	}
	var sent api.ActionResult
	res := callTool(t, a, ToolSend, map[string]any{"terminal_id": row.TerminalID, "request": "ask-color"}, &sent)
	if res.IsError || sent.Outcome != api.OutcomeAccepted || !strings.HasPrefix(sent.TurnID, prefixTurn) {
		t.Fatalf("send: error=%v %q %+v", res.IsError, errorText(res), sent)
	}
	r.awaitState(t, "question-digit", contract.ScreenQuestionnaire)
	// Session b shows the step too (before a does): it still may not
	// answer for a's Turn.
	callTool(t, b, ToolStatus, map[string]any{"terminal_id": row.TerminalID}, nil)
	var st api.StatusResponse
	callTool(t, a, ToolStatus, map[string]any{"terminal_id": row.TerminalID}, &st)
	in := st.Terminal.Interaction
	if in == nil || len(in.Questions) != 1 {
		t.Fatalf("questionnaire projection: %s", mustJSON(t, st))
	}
	q := in.Questions[0]
	var green string
	for _, o := range q.Options {
		if o.Label == "Green" { // the recording's answer: its second option
			green = o.OptionID
		}
	}
	answer := func(interaction string, ans map[string]any) map[string]any {
		return map[string]any{"turn_id": sent.TurnID, "interaction_id": interaction, "answers": []any{ans}}
	}
	choose := map[string]any{"question_id": q.QuestionID, "response_kind": "single_select", "selected_option_ids": []any{green}}
	typed := map[string]any{"question_id": q.QuestionID, "response_kind": "free_text", "text": "teal\x03"}
	steps := []struct {
		name   string
		cs     *mcp.ClientSession
		args   map[string]any
		reason string
	}{
		// The Turn is the sending session's: another session may not answer
		// for it, even after a status of its own.
		{"another session's Turn", b, answer(in.InteractionID, choose), "not_owner"},
		{"stale interaction", a, answer("int_"+strings.Repeat("a", idChars), choose), api.ReasonStaleInteraction},
		{"raw key in the text", a, answer(in.InteractionID, typed), api.ReasonBadText},
		{"the current step", a, answer(in.InteractionID, choose), ""},
	}
	for _, s := range steps {
		var out api.ActionResult
		res := callTool(t, s.cs, ToolRespond, s.args, &out)
		want := api.OutcomeAccepted
		if s.reason != "" {
			want = api.OutcomeRejected
		}
		if res.IsError || out.Outcome != want || reasonCode(out.Reason) != s.reason {
			t.Errorf("%s: error=%v %q %+v, want %s %s", s.name, res.IsError, errorText(res), out, want, s.reason)
		}
	}
	r.awaitState(t, "question-digit", contract.ScreenIdle)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// testWriter sends the daemon's log to the test's log.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
