package hosts

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// TestLiveOpenClawSmoke: the pinned OpenClaw Gateway, offline on a
// loopback port of its own with the fake model as its only provider and
// `akk mcp` and fakemcp as its MCP servers, answers one turn through
// `openclaw agent` (the model saw akk__agent_knock_knock_* and called
// echo__echo), and a /hooks/agent with the hooks' token wakes that same
// session: its message reaches the model wrapped as external untrusted
// content and lands in chat.history; a wrong token is 401, a key outside
// the allowed prefixes 400, a replayed Idempotency-Key the same run and
// no second turn. chat.send adds one more turn. Every process of the
// Gateway's HOME is gone after Stop.
func TestLiveOpenClawSmoke(t *testing.T) {
	in := requireHost(t, "openclaw", OpenClawVersion)
	servers := smokeServers(t)
	srv, log := startModel(t, smokeRules("echo__echo"))
	o, err := NewOpenClaw(in, t.TempDir(), OpenClawConfig{ModelURL: srv.URL(), MCP: servers, HookPrefix: "agent:main:akk-"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	t.Cleanup(func() { _ = o.Stop() })
	if err := o.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("gateway ready in %v on port %d", o.Ready.Round(time.Millisecond), o.Port)

	key := "agent:main:akk-smoke"
	lap := time.Now()
	reply, err := o.Agent(ctx, key, "Say smoke.")
	if err != nil {
		t.Fatal(err)
	}
	if reply.Status != "ok" || reply.Text() != smokeText {
		t.Fatalf("openclaw agent: status %q text %q, want ok and %q; model choices %v", reply.Status, reply.Text(), smokeText, mainChoices(log))
	}
	t.Logf("openclaw agent: one turn in %v", time.Since(lap).Round(time.Millisecond))
	first, _, err := log.Wait(ctx, 0, fakemodel.Main)
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, first, "akk__agent_knock_knock_list", "akk__agent_knock_knock_status", "akk__agent_knock_knock_send",
		"akk__agent_knock_knock_approve", "echo__echo")
	if got := mainChoices(log); !slices.Equal(got, []string{"rule:echo", "rule:done"}) {
		t.Errorf("model choices %v, want echo then done", got)
	}

	checkHooks(t, ctx, o, log, key)

	lap = time.Now()
	if _, err := o.ChatSend(ctx, key, "Say smoke once more.", "smoke-send-1"); err != nil {
		t.Fatal(err)
	}
	hist := awaitHistory(t, ctx, o, key, 3)
	t.Logf("chat.send: the turn is in chat.history after %v (%d messages)", time.Since(lap).Round(time.Millisecond), len(hist))

	lap = time.Now()
	if err := o.Stop(); err != nil {
		t.Error(err)
	}
	t.Logf("gateway stopped in %v", time.Since(lap).Round(time.Millisecond))
}

// checkHooks: /hooks/agent's answers, and the hook's turn in the same
// session.
func checkHooks(t *testing.T, ctx context.Context, o *OpenClaw, log *fakemodel.Log, key string) {
	t.Helper()
	msg := "akk: the Codex agent is waiting for your approval."
	if r, err := o.Hook(ctx, "wrong-"+o.HookToken, "smoke-wake-0", AgentHook(key, msg)); err != nil || r.Status != http.StatusUnauthorized {
		t.Errorf("hook with a wrong token: %+v (%v), want 401", r, err)
	}
	if r, err := o.Hook(ctx, o.HookToken, "smoke-wake-x", AgentHook("agent:main:other", msg)); err != nil || r.Status != http.StatusBadRequest {
		t.Errorf("hook into a key outside the prefixes: %+v (%v), want 400", r, err)
	}
	before := log.Len()
	lap := time.Now()
	r1, err := o.Hook(ctx, o.HookToken, "smoke-wake-1", AgentHook(key, msg))
	if err != nil || r1.Status != http.StatusOK || !r1.OK || r1.RunID == "" {
		t.Fatalf("hook: %+v %s (%v), want 200 with a runId", r1, r1.Body, err)
	}
	r2, err := o.Hook(ctx, o.HookToken, "smoke-wake-1", AgentHook(key, msg))
	if err != nil || r2.Status != http.StatusOK || r2.RunID != r1.RunID {
		t.Errorf("the same hook again: %+v (%v), want 200 and run %s", r2, err, r1.RunID)
	}
	woke, _, err := log.Wait(ctx, before, func(r fakemodel.Request) bool { return fakemodel.Main(r) && r.Prompt != "" })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(woke.Prompt, "<<<EXTERNAL_UNTRUSTED_CONTENT") || !strings.Contains(woke.Prompt, msg) {
		t.Errorf("the hook's prompt to the model %q, want the message wrapped as external untrusted content", woke.Prompt)
	}
	hist := awaitHistory(t, ctx, o, key, 2)
	t.Logf("hook: 200 in the same session, its turn in chat.history after %v", time.Since(lap).Round(time.Millisecond))
	var wrapped int
	for _, m := range hist {
		if m.Role == "user" && strings.Contains(m.Text(), msg) {
			wrapped++
		}
	}
	if wrapped != 1 {
		t.Errorf("chat.history has the hook's message %d times, want once", wrapped)
	}
}

// awaitHistory polls chat.history until it has users user messages and
// ends with the model's last word.
func awaitHistory(t *testing.T, ctx context.Context, o *OpenClaw, key string, users int) []ChatMessage {
	t.Helper()
	for {
		hist, err := o.ChatHistory(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range hist {
			if m.Role == "user" {
				n++
			}
		}
		if n > users {
			t.Fatalf("chat.history has %d user messages, want %d", n, users)
		}
		if last := len(hist) - 1; n == users && last >= 0 && hist[last].Role == "assistant" && hist[last].Text() == smokeText {
			return hist
		}
		if !sleepCtx(ctx, 500*time.Millisecond) {
			t.Fatalf("chat.history of %s never had %d user messages and the last word: %+v", key, users, hist)
		}
	}
}
