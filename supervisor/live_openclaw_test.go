package supervisor

import (
	"context"
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
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/hosts"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// The OpenClaw sessions of the live host test: the user's conversation,
// which akk's openclaw route wakes, and the one the fault checks' Turns
// wake.
const (
	openclawKey    = "agent:main:akk-test"
	openclawFaults = "agent:main:akk-faults"
)

// openclawHost is the OpenClaw side of the live host test: one Gateway
// whose model is the fake server acting by the host rules, with akk's
// daemon behind its MCP server and akk's openclaw routes waking its
// sessions.
type openclawHost struct {
	t   *testing.T
	ctx context.Context
	o   *hosts.OpenClaw
	log *fakemodel.Log
	d   *daemon
}

// openclawRoutes are the daemon's callback routes: the user's session
// for `akk mcp --controller openclaw`; for the fault checks' own
// controllers, the faults session with the right hooks token and with a
// wrong one. The backoff is short so that a Gateway restart costs few
// seconds of waiting.
func openclawRoutes(o *hosts.OpenClaw, token, wrong string) outbox.Config {
	route := func(name, key, file string) outbox.RouteConfig {
		return outbox.RouteConfig{Name: name, Kind: outbox.RouteOpenClaw, URL: o.URL(), SessionKey: key, TokenFile: file,
			Timeout: 30 * time.Second}
	}
	return outbox.Config{
		Routes: []outbox.RouteConfig{route("openclaw", openclawKey, token), route("openclaw-faults", openclawFaults, token),
			route("openclaw-badtoken", openclawFaults, wrong)},
		Default: []string{},
		Owners: map[string][]string{"mcp:openclaw": {"openclaw"}, "mcp:faults": {"openclaw-faults"},
			"mcp:badtoken": {"openclaw-badtoken"}},
		MaxAttempts: 40, BackoffBase: 500 * time.Millisecond, BackoffMax: 2 * time.Second,
	}
}

// TestLiveOpenClawHost: akk as the MCP server of a real OpenClaw Gateway
// (pinned, offline, loopback; `akk mcp --controller openclaw`), whose
// model is the fake server acting by the host rules only, drives real
// agents in a supervised tmux server, and akk's wake-ups reach the
// user's OpenClaw session through its own openclaw route
// (POST /hooks/agent), as the user's chat app would see it. "run the
// tests in the codex pane" (openclaw agent): list, send to the Codex row;
// Codex asks approval; the wake-up arrives in the same session (wrapped
// as external content: the rules read akk's turn_id in it), the host
// looks at the Turn's status and asks the user; the user's "yes": a fresh
// status and approve by turn_id; the command runs once; the last wake-up
// says done and the host says so. The same with "no" on a real Claude
// Code pane (Codex's prompt has no native No akk answers): reject by
// turn_id, the command never runs, the host says the turn ended. Every
// id the host's model sent, it read in an earlier tool result (the
// request log). Then the route's faults on the same Gateway.
func TestLiveOpenClawHost(t *testing.T) {
	start := time.Now()
	in := requireAgentHost(t, "openclaw", hosts.OpenClawVersion)
	la := startLive(t, "codex", "0.155.1", hostCodexScript())
	cl := startClaudeBeside(t, la, chatClaudeScript())
	h := startOpenClawHost(t, in, la, cl)
	awaitCodexIdle(t, h.d, la)
	awaitClaudeIdle(t, h.d, cl)
	t.Logf("agents idle and the Gateway ready after %v", time.Since(start).Round(time.Millisecond))

	t.Run("yes", func(t *testing.T) {
		lap := time.Now()
		reqs, hist := h.chatLoop(t, chatCodex, "yes", "done", hostDone)
		turn := checkChatApproved(t, h.d, la, reqs)
		checkWakeups(t, hist, turn, api.CallbackInteractionRequired, api.CallbackCompleted)
		t.Logf("yes (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))
	})
	t.Run("no", func(t *testing.T) {
		lap := time.Now()
		reqs, hist := h.chatLoop(t, chatClaude, "no", "cancelled", chatCancelled)
		turn := checkChatRejected(t, h.d, cl, reqs)
		// akk's reject interrupts Claude ("Interrupted · What should Claude
		// do instead?"): the Turn's owner may hear of that block too, before
		// or after the Turn's end (screen and transcript race); the host
		// answered each wake-up.
		got := wakeEvents(hist, turn)
		ir, blocked, aborted := api.CallbackInteractionRequired, api.CallbackAgentBlocked, api.CallbackAborted
		if !slices.Equal(got, []string{ir, aborted}) && !slices.Equal(got, []string{ir, blocked, aborted}) &&
			!slices.Equal(got, []string{ir, aborted, blocked}) {
			t.Errorf("the session's wake-ups of %s: %v, want %s, then %s (and maybe %s)", turn, got, ir, aborted, blocked)
		}
		checkWakeups(t, hist, turn, got...)
		if n := choices(reqs, "cancelled"); n != len(got)-1 {
			t.Errorf("the host said the turn ended %d times, want once for each of the %d wake-ups after the reject", n, len(got)-1)
		}
		t.Logf("no (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))
	})
	t.Run("faults", func(t *testing.T) { h.faults(t, la) })
	t.Logf("TestLiveOpenClawHost wall time %v", time.Since(start).Round(time.Millisecond))
}

// startOpenClawHost writes the hooks tokens, starts the daemon with the
// openclaw routes, and starts the Gateway (~20 s, while the agents start) with
// the real `akk mcp --controller openclaw` as its MCP server and the fake
// model, driven by hostChatRules, as its model.
func startOpenClawHost(t *testing.T, in rig.InstalledHost, la, cl *liveAgent) *openclawHost {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	log := fakemodel.NewLog(nil)
	model, err := fakemodel.Anthropic(fakemodel.Script{Rules: hostChatRules()}, log, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	cfg := hosts.OpenClawConfig{ModelURL: model.URL(), HookPrefix: "agent:main:akk-"}
	o, err := hosts.NewOpenClaw(in, t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	token, wrong := filepath.Join(dir, "hooks.token"), filepath.Join(dir, "wrong.token")
	for path, tok := range map[string]string{token: o.HookToken, wrong: "hook-not-the-gateways-token"} {
		if err := os.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d := startDaemon(t, la.srv, daemonOpts{codexSessions: filepath.Join(la.home, ".codex", "sessions"),
		claudeProjects: filepath.Join(cl.home, ".claude", "projects"), callbacks: openclawRoutes(o, token, wrong)})
	cfg.MCP = map[string]hosts.MCPServer{"akk": {Command: buildAkk(t), Args: []string{"mcp", "--socket", d.sock, "--controller", "openclaw"}}}
	if err := o.Configure(cfg); err != nil {
		t.Fatal(err)
	}
	h := &openclawHost{t: t, ctx: ctx, o: o, log: log, d: d}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the Gateway's output:\n%s\nthe host model's requests:\n%s", o.Output(), modelChoices(log))
		}
		if err := o.Stop(); err != nil {
			t.Error(err)
		}
	})
	// The agents, already started in their panes, start meanwhile.
	if err := o.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%v ready in %v", o, o.Ready.Round(time.Millisecond))
	return h
}

// chatLoop is one conversation of the chat loop in the user's session:
// the user's request through `openclaw agent` (the host sends the task
// and says so), akk's wake-up for the permission prompt (the host asks),
// the user's answer as the next chat message (the host acts), akk's
// wake-up for the Turn's end (the host's rule end says last). It returns
// the host model's requests of the loop and the session's history once
// the last word is in it.
func (h *openclawHost) chatLoop(t *testing.T, request, answer, end, last string) ([]fakemodel.Request, []hosts.ChatMessage) {
	t.Helper()
	mark := h.log.Len()
	h.say(t, request, chatSent)
	h.awaitChoice(t, mark, "ask")
	h.awaitLast(t, openclawKey, chatAsk)
	h.say(t, answer, chatActed)
	h.awaitChoice(t, mark, end)
	h.awaitWakesAnswered(t, mark)
	hist := h.awaitLast(t, openclawKey, last)
	return h.log.Requests()[mark:], hist
}

// awaitWakesAnswered waits until every wake-up of the loop's Turn (the
// one its act named) was accepted by the route and the host's model
// answered each: a wake-up that came after the one awaited is in the
// loop's record too.
func (h *openclawHost) awaitWakesAnswered(t *testing.T, mark int) {
	t.Helper()
	turn := ""
	for _, r := range h.log.Requests()[mark:] {
		if hostStep(r.Tool) == "approve" {
			turn = semanticID.FindString(string(r.ToolInput))
		}
	}
	tmuxtest.Await(t, 60*time.Second, func() string {
		task, err := h.d.cl.TaskStatus(h.ctx, api.TaskRequest{TurnID: turn})
		if err != nil {
			return err.Error()
		}
		for _, n := range task.Notifications {
			if n.State != "accepted" {
				return fmt.Sprintf("the wake-up %s is %s", n.Event, n.State)
			}
		}
		woken, answered := 0, false
		for _, r := range h.log.Requests()[mark:] {
			if r.Kind == "main" {
				answered = r.Done && r.Tool == ""
			}
			if r.Choice == "rule:wake" && strings.Contains(r.Prompt, turn) {
				woken++
			}
		}
		if woken < len(task.Notifications) || !answered {
			return fmt.Sprintf("the host answered %d of the Turn's %d wake-ups", woken, len(task.Notifications))
		}
		return ""
	})
}

// choices counts the requests a rule answered.
func choices(reqs []fakemodel.Request, rule string) int {
	n := 0
	for _, r := range reqs {
		if r.Kind == "main" && r.Choice == "rule:"+rule {
			n++
		}
	}
	return n
}

// say sends the user's message through `openclaw agent` and checks the
// turn's reply.
func (h *openclawHost) say(t *testing.T, message, want string) {
	t.Helper()
	lap := time.Now()
	r, err := h.o.Agent(h.ctx, openclawKey, message)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" || r.Text() != want {
		t.Fatalf("openclaw agent %q: status %q reply %q, want ok and %q; the host model chose:\n%s", message, r.Status, r.Text(), want,
			modelChoices(h.log))
	}
	t.Logf("openclaw agent %q: %q in %v", message, r.Text(), time.Since(lap).Round(time.Millisecond))
}

// awaitChoice waits for a host model reply by rule choice after mark.
func (h *openclawHost) awaitChoice(t *testing.T, mark int, choice string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, 90*time.Second)
	defer cancel()
	if _, _, err := h.log.Wait(ctx, mark, func(r fakemodel.Request) bool { return fakemodel.Main(r) && r.Choice == "rule:"+choice }); err != nil {
		t.Fatalf("the host model never replied by rule %s: %v; it chose:\n%s\nthe wake-ups of its Turns:\n%s", choice, err,
			modelChoices(h.log), h.wakeups())
	}
}

// wakeups are the deliveries of every Turn the host's model read of, for
// a failure's message: a wake-up that never came shows its last answer
// (a CI run's 409 was found this way).
func (h *openclawHost) wakeups() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, r := range h.log.Requests() {
		for _, id := range semanticID.FindAllString(string(r.Body), -1) {
			if !strings.HasPrefix(id, "turn_") || seen[id] {
				continue
			}
			seen[id] = true
			task, err := h.d.cl.TaskStatus(h.ctx, api.TaskRequest{TurnID: id})
			fmt.Fprintf(&b, "  %s %s (%v)\n", id, task.State, err)
			for _, n := range task.Notifications {
				fmt.Fprintf(&b, "    %s %s after %d attempts: %s\n", n.Event, n.State, n.Attempts, n.Detail)
			}
		}
	}
	return b.String()
}

// awaitLast polls chat.history until the session's last message is the
// assistant's with text last.
func (h *openclawHost) awaitLast(t *testing.T, key, last string) []hosts.ChatMessage {
	t.Helper()
	return h.awaitHistory(t, key, func(hist []hosts.ChatMessage) string {
		if n := len(hist); n > 0 && hist[n-1].Role == "assistant" && hist[n-1].Text() == last {
			return ""
		}
		return fmt.Sprintf("the last message the assistant's %q", last)
	})
}

// awaitHistory polls chat.history (~2 s a call: the CLI's start) until
// ok says nothing is missing.
func (h *openclawHost) awaitHistory(t *testing.T, key string, ok func([]hosts.ChatMessage) string) []hosts.ChatMessage {
	t.Helper()
	var hist []hosts.ChatMessage
	tmuxtest.Await(t, 60*time.Second, func() string {
		var err error
		if hist, err = h.o.ChatHistory(h.ctx, key); err != nil {
			return err.Error()
		}
		if why := ok(hist); why != "" {
			return fmt.Sprintf("chat.history of %s (%d messages) lacks %s", key, len(hist), why)
		}
		return ""
	})
	return hist
}

// wakeLine is the first line of akk's wake-up text (outbox.WakeText):
// its type, event and Turn.
var wakeLine = regexp.MustCompile(`akk callback: (\S+) (\S+) \(turn_id (turn_[a-z2-7]{26})\)`)

// checkWakeups: the session's history holds the Turn's wake-ups as the
// user messages the hook put in, each wrapped as external untrusted
// content, once each, with the events want (in order).
func checkWakeups(t *testing.T, hist []hosts.ChatMessage, turn string, want ...string) {
	t.Helper()
	for _, m := range hist {
		text := m.Text()
		if w := wakeLine.FindStringSubmatch(text); m.Role == "user" && w != nil && w[3] == turn &&
			!strings.Contains(text, "<<<EXTERNAL_UNTRUSTED_CONTENT") {
			t.Errorf("a wake-up of %s is not wrapped as external content: %q", turn, text)
		}
	}
	if got := wakeEvents(hist, turn); !slices.Equal(got, want) {
		t.Errorf("the session's wake-ups of %s: %v, want %v", turn, got, want)
	}
}

// wakeEvents are the events of the Turn's wake-ups in the history.
func wakeEvents(hist []hosts.ChatMessage, turn string) []string {
	var got []string
	for _, m := range hist {
		if w := wakeLine.FindStringSubmatch(m.Text()); m.Role == "user" && w != nil && w[3] == turn {
			got = append(got, w[2])
		}
	}
	return got
}

// modelChoices lists the host model's main requests: seq, rule, tool,
// and the start of the prompt.
func modelChoices(log *fakemodel.Log) string {
	var b strings.Builder
	for _, r := range log.Requests() {
		if r.Kind == "main" {
			fmt.Fprintf(&b, "  %d %s %s %s %.120q\n", r.Seq, r.Time.Format("15:04:05.000"), r.Choice, r.Tool, r.Prompt)
		}
	}
	return b.String()
}

// startClaudeBeside runs the host tier's Claude Code in a new pane of
// la's tmux server (its own HOME and fake model), so that one daemon
// supervises both agents.
func startClaudeBeside(t *testing.T, la *liveAgent, script fakemodel.Script) *liveAgent {
	t.Helper()
	cl := prepareLive(t, "claude", hostClaude, script)
	cl.srv = la.srv
	cl.pane = newWindow(t, la.srv, 120, 40, "sh -c "+shq(fmt.Sprintf("cd %s && exec %s", shq(cl.work), cl.command)))
	return cl
}

// chatClaudeScript: the chat loop's task makes Claude's model run a Bash
// command that needs approval (it appends chatLine to a file).
func chatClaudeScript() fakemodel.Script {
	return fakemodel.Script{Keywords: []fakemodel.Keyword{{Word: chatTask, Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{
		Name: "Bash", Input: map[string]any{"command": "echo " + chatLine + " >> tests-ran.txt", "description": "Run the tests"}}}}}}
}

// awaitClaudeIdle waits until the Claude pane is idle with send advertised.
func awaitClaudeIdle(t *testing.T, d *daemon, la *liveAgent) {
	t.Helper()
	awaitRow(t, d.cl, la.pane, 90*time.Second, func(r api.Terminal) string {
		if r.Agent != "claude" || r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
			return "idle"
		}
		if _, ok := r.AvailableActions["send"]; !ok {
			return "send advertised"
		}
		return ""
	})
}

// checkChatRejected proves a chat loop the user declined on the Claude
// pane: the host's steps (its act a reject of the one Turn, every id
// from an earlier tool result), the Turn cancelled, the command never
// run (no file; the transcript's tool result is the refusal).
func checkChatRejected(t *testing.T, d *daemon, cl *liveAgent, reqs []fakemodel.Request) string {
	t.Helper()
	turn := hostLoopSteps(t, reqs, hostApprove, `^list send sent status ask status approve acted( status cancelled){1,2}$`)
	for _, r := range reqs {
		if r.Kind == "main" && hostStep(r.Tool) == "approve" && !strings.Contains(string(r.ToolInput), `"decision":"`+string(contract.DecisionReject)+`"`) {
			t.Errorf("request %d: the host's act %s, want a reject", r.Seq, r.ToolInput)
		}
	}
	task, err := d.cl.TaskStatus(context.Background(), api.TaskRequest{TurnID: turn})
	if err != nil || task.State != "cancelled" {
		t.Errorf("the Turn %s: %+v (%v), want cancelled", turn, task, err)
	}
	if _, err := os.Stat(filepath.Join(cl.work, "tests-ran.txt")); !os.IsNotExist(err) {
		t.Errorf("the rejected command ran: tests-ran.txt %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(cl.home, ".claude", "projects", "*", "*.jsonl"))
	refused := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"type":"tool_result"`) && strings.Contains(line, `"is_error":true`) {
				refused++
			}
		}
	}
	if refused != 1 {
		t.Errorf("Claude's transcript has %d refused tool results, want the one Bash call refused", refused)
	}
	return turn
}
