package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The akk MCP server's tools, as the host rules name them: the fake
// model calls each under the name the host offers it (Claude Code and Pi:
// mcp__akk__..., OpenClaw: akk__...), so the same rules drive every host.
const (
	hostList    = "agent_knock_knock_list"
	hostSend    = api.ToolSend
	hostStatus  = api.ToolStatus
	hostApprove = api.ToolApprove
	hostRespond = api.ToolRespond
	hostAnswer  = api.ToolAnswer
)

// hostStep is a tool call's step in a host loop's sequence: the akk tool
// a host's name stands for (list, send, status, approve, respond,
// answer).
func hostStep(tool string) string {
	short := map[string]string{hostList: "list", hostSend: "send", hostStatus: "status", hostApprove: "approve",
		hostRespond: "respond", hostAnswer: "answer"}
	for name, step := range short {
		if tool == name || strings.HasSuffix(tool, "__"+name) {
			return step
		}
	}
	return tool
}

// hostDone is the host model's last word once the Turn completed.
const hostDone = "The Codex turn has completed."

// hostLine is what the Codex command appends, once.
const hostLine = "akk-host-loop"

// hostRules are the host model's controller loop, as an LLM that follows
// the tools' descriptions runs it, with no id of its own: list; send
// request to the Codex row; status by the send's turn_id; act (approve or
// respond) when that status shows the Turn's interaction pending with an
// offer; status by the act's turn_id; status again while the Turn runs;
// done once it completed. A refusal with do_not_retry false (the agent
// was still drawing) is looked at again by the turn the last status
// named, a few times at most.
func hostRules(request string, act fakemodel.Rule) []fakemodel.Rule {
	turn := map[string]any{"turn_id": "$.turn_id"}
	accepted := []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeAccepted)}
	rules := append(hostSendRules(request), act,
		fakemodel.Rule{Name: "status-after-" + act.Name, After: act.Call, When: accepted, Call: hostStatus, Input: turn},
		fakemodel.Rule{Name: "look-again", After: act.Call, Max: 3, Call: hostStatus, From: hostStatus, Input: turn,
			When: []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeRejected), fakemodel.Eq("$.do_not_retry", "false")}})
	return append(rules, hostFollowRules()...)
}

// hostSendRules are a host loop's first steps: the list, the send of
// request to the Codex row, and the status by the send's turn_id.
func hostSendRules(request string) []fakemodel.Rule {
	accepted := []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeAccepted)}
	return []fakemodel.Rule{
		{Name: "list", Call: hostList},
		{Name: "send", After: hostList, Call: hostSend,
			Input: map[string]any{"terminal_id": "$.terminals[agent==codex].terminal_id", "request": request}},
		{Name: "status-after-send", After: hostSend, When: accepted, Call: hostStatus, Input: map[string]any{"turn_id": "$.turn_id"}},
	}
}

// hostFollowRules are a host loop's last steps: done once the Turn
// completed, its status again while it runs.
func hostFollowRules() []fakemodel.Rule {
	return []fakemodel.Rule{
		{Name: "done", After: hostStatus, When: []fakemodel.Cond{fakemodel.Eq("$.state", "completed")}, Text: hostDone},
		// A model's pace between looks; the bound ends a loop that would
		// never see its state (the test then fails on rule:none).
		{Name: "status-again", After: hostStatus, When: []fakemodel.Cond{fakemodel.Eq("$.state", "running")},
			Max: 300, Pace: 200 * time.Millisecond, Call: hostStatus, Input: map[string]any{"turn_id": "$.turn_id"}},
	}
}

// hostAnswerRules: the host sends request, and when the Turn completed
// with the agent's own text (answerable) replies once with reply inside
// the same Turn, then waits for it to complete again.
func hostAnswerRules(request, reply string) []fakemodel.Rule {
	accepted := []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeAccepted)}
	rules := append(hostSendRules(request),
		fakemodel.Rule{Name: "answer", After: hostStatus, Max: 1, Call: hostAnswer, Input: map[string]any{"turn_id": "$.turn_id", "request": reply},
			When: []fakemodel.Cond{fakemodel.Eq("$.state", "completed"), fakemodel.Eq("$.answerable", "true")}},
		fakemodel.Rule{Name: "status-after-answer", After: hostAnswer, When: accepted, Call: hostStatus, Input: map[string]any{"turn_id": "$.turn_id"}})
	return append(rules, hostFollowRules()...)
}

// hostUserRules: the user explicitly asks to send request to the busy
// Codex now; the host sends with the user-explicit action the list row
// advertises (its terminal_id and mode), then follows the Turn by the
// send's turn_id until it completed.
func hostUserRules(request string) []fakemodel.Rule {
	turn := map[string]any{"turn_id": "$.turn_id"}
	act := "$.terminals[agent==codex].available_actions.send_user_explicit.arguments"
	return append([]fakemodel.Rule{
		{Name: "list", Call: hostList},
		{Name: "send", After: hostList, Call: hostSend,
			Input: map[string]any{"terminal_id": act + ".terminal_id", "mode": act + ".mode", "request": request}},
		{Name: "status-after-send", After: hostSend, When: []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeAccepted)},
			Call: hostStatus, Input: turn},
	}, hostFollowRules()...)
}

// The chat loop's words: the user's request (naming the pane), the task
// the host gives the agent, the command that task runs (it needs
// approval), and what the host tells the user.
const (
	chatCodex     = "run the tests in the codex pane"
	chatClaude    = "run the tests in the claude pane"
	chatTask      = "Run the tests."
	chatLine      = "akk-tests-ran"
	chatSent      = "I asked the agent to run the tests; I will tell you when it needs you or is done."
	chatAsk       = "The agent asks to run a command that needs your approval. Shall I approve it? (yes/no)"
	chatActed     = "I answered the agent's prompt as you said."
	chatRunning   = "The agent is still working."
	chatCancelled = "The agent's turn ended without running the command."
)

// chatWake finds akk's Turn in a wake-up: the callback's first line names
// it (outbox.WakeText), as the host delivers it (OpenClaw's hook inside
// its untrusted-content block, Pi's adapter as a prompt).
const chatWake = `(?s)akk callback: .*?\b(?P<turn_id>turn_[a-z2-7]{26})\b`

// hostChatRules are the controller's loop as a chat assistant runs it
// (OpenClaw, Pi): one user message or wake-up at a time, never polling.
// The user's request: list, send the task to the pane the user named,
// say so. A wake-up: status by the turn_id the wake-up names, then tell
// the user what it shows: a permission prompt with this session's offer
// is put to the user as a question. The user's yes or no: a fresh status
// of the Turn the last status showed, then approve or reject it by
// turn_id (a refusal that may be retried: look again, a few times). No
// id is the rules' own: each comes from a tool result or a wake-up.
func hostChatRules() []fakemodel.Rule {
	turn := map[string]any{"turn_id": "$.turn_id"}
	accepted := []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeAccepted)}
	permission := pendingOffer(fakemodel.Eq("$.interaction.kind", "permission"))
	state := func(s string) []fakemodel.Cond { return []fakemodel.Cond{fakemodel.Eq("$.state", s)} }
	send := func(agent string) fakemodel.Rule {
		return fakemodel.Rule{Name: "send", After: hostList, Prompt: `in the ` + agent + ` pane`, Call: hostSend,
			Input: map[string]any{"terminal_id": "$.terminals[agent==" + agent + "].terminal_id", "request": chatTask}}
	}
	return []fakemodel.Rule{
		{Name: "list", Prompt: `^run the tests in the (codex|claude) pane`, Call: hostList},
		send("codex"), send("claude"),
		{Name: "sent", After: hostSend, When: accepted, Text: chatSent},
		{Name: "wake", Prompt: chatWake, Call: hostStatus, Input: turn},
		{Name: "recheck", Prompt: `^(yes|no)\b`, Call: hostStatus, From: hostStatus, Input: turn},
		{Name: "approve", After: hostStatus, Prompt: `^yes\b`, When: permission, Call: hostApprove,
			Input: map[string]any{"turn_id": "$.turn_id", "decision": contract.DecisionApproveOnce}},
		{Name: "reject", After: hostStatus, Prompt: `^no\b`, When: permission, Call: hostApprove,
			Input: map[string]any{"turn_id": "$.turn_id", "decision": contract.DecisionReject}},
		{Name: "look-again", After: hostApprove, Max: 3, Call: hostStatus, From: hostStatus, Input: turn,
			When: []fakemodel.Cond{fakemodel.Eq("$.outcome", api.OutcomeRejected), fakemodel.Eq("$.do_not_retry", "false")}},
		{Name: "ask", After: hostStatus, When: permission, Text: chatAsk},
		{Name: "acted", After: hostApprove, When: accepted, Text: chatActed},
		{Name: "done", After: hostStatus, When: state("completed"), Text: hostDone},
		{Name: "cancelled", After: hostStatus, When: state("cancelled"), Text: chatCancelled},
		{Name: "running", After: hostStatus, When: state("running"), Text: chatRunning},
		// OpenClaw's heartbeat prompt: a wake with heartbeats off still
		// runs one; the model says nothing needs attention, as asked.
		{Name: "heartbeat", Prompt: `^Follow the heartbeat monitor`, Text: "NO_REPLY"},
	}
}

// pendingOffer: the status by turn_id shows the Turn's interaction
// pending and made this session's offer.
func pendingOffer(more ...fakemodel.Cond) []fakemodel.Cond {
	return append([]fakemodel.Cond{fakemodel.Eq("$.interaction.state", "pending"),
		fakemodel.Has("$.interaction.interaction_id"), fakemodel.Has("$.offer_expires_at")}, more...)
}

// hostApproveRule approves once what the status showed.
var hostApproveRule = fakemodel.Rule{Name: "approve", After: hostStatus, Call: hostApprove,
	When:  pendingOffer(fakemodel.Eq("$.interaction.kind", "permission")),
	Input: map[string]any{"turn_id": "$.turn_id", "decision": contract.DecisionApproveOnce}}

// hostRespondRule answers the step the status showed with its first plain
// option.
var hostRespondRule = func() fakemodel.Rule {
	q := "$.interaction.questions[0]"
	return fakemodel.Rule{Name: "respond", After: hostStatus, Call: hostRespond,
		When: pendingOffer(fakemodel.Ne("$.interaction.kind", "permission")),
		Input: map[string]any{"turn_id": "$.turn_id", "interaction_id": "$.interaction.interaction_id",
			"answers": []any{map[string]any{"question_id": q + ".question_id", "response_kind": q + ".response_kind",
				"selected_option_ids": []any{q + ".options[free_text!=true].option_id"}}}}}
}()

// hostCodexScript is the supervised Codex's model: the rig's (ask-multi:
// two questions) and shell commands that need approval and append a line
// to a file (append-line; the chat loop's task, chatTask).
func hostCodexScript() fakemodel.Script {
	s := rig.Script("codex", "0.155.1")
	exec := &fakemodel.ToolCall{Name: "exec_command", Input: map[string]any{
		"cmd": "echo " + hostLine + " >> host-loop.txt", "sandbox_permissions": "require_escalated",
		"justification": "Fake model wants to append a line to host-loop.txt."}}
	tests := &fakemodel.ToolCall{Name: "exec_command", Input: map[string]any{
		"cmd": "echo " + chatLine + " >> tests-ran.txt", "sandbox_permissions": "require_escalated",
		"justification": "Fake model wants to run the tests."}}
	s.Keywords = append([]fakemodel.Keyword{{Word: "append-line", Reply: fakemodel.Reply{Tool: exec}},
		{Word: chatTask, Reply: fakemodel.Reply{Tool: tests}},
		{Word: "which-file", Reply: fakemodel.Reply{Text: "Which file?"}},
		{Word: "slow-task", Reply: fakemodel.Reply{Text: "Done, slowly.", FirstDelay: 6 * time.Second}}}, s.Keywords...)
	return s
}

// TestLiveHostLoop: a real MCP host not written by this project (the
// pinned Claude Code, run with -p outside the supervised tmux server, its
// MCP server the real `akk mcp --controller host`) closes the
// controller's loop by turn_id over a real pinned Codex in a supervised
// pane: send, status by turn_id until the interaction is pending, approve
// (then, in a second conversation, answer a two-question questionnaire
// step by step), status by turn_id until the Turn completed. Its model
// is rules over the conversation, so every id it sends is one it read in
// an earlier tool result, which the test proves from the model's log; the
// Codex rollout and the file the command appends prove the command ran
// once and the answers landed once.
func TestLiveHostLoop(t *testing.T) {
	start := time.Now()
	host := requireHost(t)
	la := startLive(t, "codex", "0.155.1", hostCodexScript())
	d := startDaemon(t, la.srv, daemonOpts{codexSessions: filepath.Join(la.home, ".codex", "sessions")})
	akk := buildAkk(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	h := &hostRun{t: t, in: host, akk: akk, socket: d.sock, ctx: ctx}

	awaitCodexIdle(t, d, la)
	lap := time.Now()
	reqs := h.run("Through akk, give the Codex agent the task append-line, approve its command once, and tell me when its turn has completed.",
		hostRules("append-line", hostApproveRule))
	turn := checkHostLoop(t, d, reqs, hostApprove, `^list send status (status )*(approve status (status )*){1,3}done$`)
	if b, err := os.ReadFile(filepath.Join(la.work, "host-loop.txt")); err != nil || string(b) != hostLine+"\n" {
		t.Errorf("host-loop.txt = %q (%v), want the line once", b, err)
	}
	calls, outputs, runs := rolloutCalls(t, la, "exec_command", hostLine)
	if calls != 1 || outputs != 1 || runs != 1 {
		t.Errorf("the rollout has %d exec_command calls, %d outputs, %d command executions; want 1 each", calls, outputs, runs)
	}
	t.Logf("approve loop (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))

	awaitCodexIdle(t, d, la)
	lap = time.Now()
	reqs = h.run("Through akk, give the Codex agent the task ask-multi, answer each of its questions with the first option, and tell me when its turn has completed.",
		hostRules("ask-multi", hostRespondRule))
	turn = checkHostLoop(t, d, reqs, hostRespond, `^list send status (status )*(respond status (status )*){2,6}done$`)
	calls, outputs, _ = rolloutCalls(t, la, "request_user_input", "")
	if calls != 1 || outputs != 1 {
		t.Errorf("the rollout has %d request_user_input calls and %d outputs, want 1 each", calls, outputs)
	}
	if got := rolloutAnswers(t, la); got != `{"color":["Red"],"size":["Small"]}` {
		t.Errorf("Codex got the answers %s, want color Red and size Small", got)
	}
	t.Logf("questionnaire loop (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))

	// The agent asks a question in plain text and ends its turn: the host
	// answers inside the same Turn.
	awaitCodexIdle(t, d, la)
	lap = time.Now()
	reqs = h.run("Through akk, give the Codex agent the task which-file; when it asks which file, answer main.go, and tell me when its turn has completed.",
		hostAnswerRules("which-file", "main.go"))
	turn = checkHostLoop(t, d, reqs, hostAnswer, `^list send status (status )*answer status (status )*done$`)
	prompts := sessionPrompts(t, la, "codex")
	if n := len(prompts); n < 2 || prompts[n-2] != "which-file" || prompts[n-1] != "main.go" {
		t.Errorf("the rollout's last prompts %q, want which-file then main.go, once", prompts)
	}
	t.Logf("answer loop (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))

	// The user's explicit word to a busy agent: while Codex works on a
	// slow task (a person's, sent through the API), the host sends with
	// the row's user-explicit action; Codex takes it into the running turn.
	awaitCodexIdle(t, d, la)
	l, err := d.cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := rowOf(l, la.pane)
	slow, err := d.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: userSlow})
	if err != nil || slow.Outcome != api.OutcomeAccepted {
		t.Fatalf("the slow task: %+v %v", slow, err)
	}
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if _, ok := r.AvailableActions["send_user_explicit"]; !ok || r.ScreenState != contract.ScreenWorking {
			return "working, with the user-explicit send advertised"
		}
		return ""
	})
	lap = time.Now()
	reqs = h.run("Through akk, send the Codex agent the task steer-note right now, even though it is busy: I ask for it explicitly. Tell me when its turn has completed.",
		hostUserRules("steer-note"))
	turn = checkHostLoop(t, d, reqs, hostStatus, `^list send status (status )*done$`)
	prompts = sessionPrompts(t, la, "codex")
	if n := len(prompts); n < 2 || prompts[n-2] != userSlow || prompts[n-1] != "steer-note" {
		t.Errorf("the rollout's last prompts %q, want the slow task then steer-note, once", prompts)
	}
	t.Logf("user-explicit loop (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))
	t.Logf("TestLiveHostLoop wall time %v", time.Since(start).Round(time.Millisecond))
}

// checkChatApproved proves a chat loop the user approved on the Codex
// pane (hostChatRules): the host's steps, every id from an earlier tool
// result, the one Turn the approve named completed with every wake-up of
// it accepted by the route, and the command ran once (the rollout's one
// call, output and execution; the line once in the file).
func checkChatApproved(t *testing.T, d *daemon, la *liveAgent, reqs []fakemodel.Request) string {
	t.Helper()
	turn := hostLoopSteps(t, reqs, hostApprove, `^list send sent status ask status approve acted status done$`)
	task, err := d.cl.TaskStatus(context.Background(), api.TaskRequest{TurnID: turn})
	if err != nil || task.State != "completed" {
		t.Errorf("the Turn %s: %+v (%v), want completed", turn, task, err)
	}
	var wakes []string
	for _, n := range task.Notifications {
		if n.State != "accepted" {
			t.Errorf("the Turn's wake-up %s (%s) is %s after %d attempts, want accepted", n.NotificationID, n.Event, n.State, n.Attempts)
		}
		wakes = append(wakes, fmt.Sprintf("%s %s after %d attempts", n.Event, n.State, n.Attempts))
	}
	t.Logf("the Turn's wake-ups: %s", strings.Join(wakes, ", "))
	if b, err := os.ReadFile(filepath.Join(la.work, "tests-ran.txt")); err != nil || string(b) != chatLine+"\n" {
		t.Errorf("tests-ran.txt = %q (%v), want the line once", b, err)
	}
	calls, outputs, runs := rolloutCalls(t, la, "exec_command", chatLine)
	if calls != 1 || outputs != 1 || runs != 1 {
		t.Errorf("the rollout has %d exec_command calls, %d outputs, %d command executions; want 1 each", calls, outputs, runs)
	}
	return turn
}

// awaitCodexIdle waits until the Codex pane is idle with send advertised.
func awaitCodexIdle(t *testing.T, d *daemon, la *liveAgent) {
	t.Helper()
	awaitRow(t, d.cl, la.pane, 90*time.Second, func(r api.Terminal) string {
		if r.Agent != "codex" || r.Profile != "exact" || r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
			return "idle"
		}
		if _, ok := r.AvailableActions["send"]; !ok {
			return "send advertised"
		}
		return ""
	})
}

// semanticID is any id of the contract (DESIGN "ids").
var semanticID = regexp.MustCompile(`\b(term|turn|watch|ses|int|q|opt|ntf|rcpt)_[a-z2-7]{26}\b`)

// checkHostLoop proves one conversation of the host from its model's log
// (hostLoopSteps) and returns the Turn the acts named, whose state the
// daemon must show completed.
func checkHostLoop(t *testing.T, d *daemon, reqs []fakemodel.Request, act, seq string) string {
	t.Helper()
	turn := hostLoopSteps(t, reqs, act, seq)
	task, err := d.cl.TaskStatus(context.Background(), api.TaskRequest{TurnID: turn})
	if err != nil || task.State != "completed" {
		t.Errorf("the Turn %s: %+v (%v), want completed", turn, task, err)
	}
	return turn
}

// hostLoopSteps proves a host loop from its model's log: the tools it
// called in order (seq; a text reply is its rule's name, "done" for the
// final text), every id in every tool input it produced read earlier in
// a tool result of that conversation, and every call but list carrying
// at least one. It returns the one Turn the acts named.
func hostLoopSteps(t *testing.T, reqs []fakemodel.Request, act, seq string) string {
	t.Helper()
	var steps, turns []string
	checked := 0
	for _, r := range reqs {
		if r.Kind != "main" {
			continue
		}
		if r.Tool == "" {
			steps = append(steps, strings.TrimPrefix(r.Choice, "rule:"))
			continue
		}
		steps = append(steps, hostStep(r.Tool))
		seen := resultIDs(t, r.Body)
		ids := semanticID.FindAllString(string(r.ToolInput), -1)
		if len(ids) == 0 && hostStep(r.Tool) != "list" {
			t.Errorf("request %d: the %s input carries no id: %s", r.Seq, r.Tool, r.ToolInput)
		}
		for _, id := range ids {
			checked++
			if !seen[id] {
				t.Errorf("request %d: the model sent %s in its %s input %s without reading it in an earlier tool result",
					r.Seq, id, r.Tool, r.ToolInput)
			}
		}
		if hostStep(r.Tool) == hostStep(act) {
			var in struct {
				TurnID string `json:"turn_id"`
			}
			json.Unmarshal(r.ToolInput, &in)
			if !slices.Contains(turns, in.TurnID) {
				turns = append(turns, in.TurnID)
			}
		}
	}
	got := strings.Join(steps, " ")
	if !regexp.MustCompile(seq).MatchString(got) {
		t.Fatalf("the host called %s, want %s", got, seq)
	}
	if len(turns) != 1 {
		t.Fatalf("the acts named turns %v, want one", turns)
	}
	t.Logf("%s: %d ids in the host model's tool inputs checked against the conversation's earlier tool results", got, checked)
	return turns[0]
}

// resultIDs are the ids in the tool results of a Messages request.
func resultIDs(t *testing.T, body json.RawMessage) map[string]bool {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("a logged request: %v", err)
	}
	seen := map[string]bool{}
	for _, m := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if m.Role != "user" || json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				for _, id := range semanticID.FindAllString(string(b.Content), -1) {
					seen[id] = true
				}
			}
		}
	}
	return seen
}
