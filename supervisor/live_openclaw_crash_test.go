package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/hosts"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// The crash run's session, and its host model's answer to a wake-up.
const (
	openclawCrashKey = "agent:main:akk-crash"
	crashNoted       = "Noted: akk's wake-up."
)

// TestLiveOpenClawHookCrash: a duplicate delivery inside the Gateway's
// five-minute replay window, as akk makes one. The daemon (a child with
// the fault hook) is killed at outbox.after_send: the Gateway has
// answered the hook that carries a real Codex Turn's done wake-up, and
// the outcome is not recorded; the Gateway runs the wake-up's turn.
// Restarted on the same store, the daemon
// finds the attempt it never closed (interrupted) and sends the wake-up
// again with the same Idempotency-Key; the Gateway takes it as the run it
// already has: the session holds the message once and its model ran one
// turn for it. One run (a Gateway's start is ~20 s), in the crash tier.
func TestLiveOpenClawHookCrash(t *testing.T) {
	requireFaultHook(t)
	start := time.Now()
	in := requireAgentHost(t, "openclaw", hosts.OpenClawVersion)
	la := startLive(t, "codex", "0.155.1", hostCodexScript())
	log := fakemodel.NewLog(nil)
	model, err := fakemodel.Anthropic(fakemodel.Script{Rules: []fakemodel.Rule{{Name: "noted", Prompt: chatWake, Text: crashNoted}}},
		log, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	o, err := hosts.NewOpenClaw(in, t.TempDir(), hosts.OpenClawConfig{ModelURL: model.URL(), HookPrefix: "agent:main:akk-"})
	if err != nil {
		t.Fatal(err)
	}
	token := filepath.Join(t.TempDir(), "hooks.token")
	if err := os.WriteFile(token, []byte(o.HookToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	callbacks := outbox.Config{Routes: []outbox.RouteConfig{{Name: "openclaw", Kind: outbox.RouteOpenClaw, URL: o.URL(),
		SessionKey: openclawCrashKey, TokenFile: token, Timeout: 30 * time.Second}},
		Default: []string{}, Owners: map[string][]string{"mcp:crash": {"openclaw"}}}
	cb, _ := json.Marshal(callbacks)
	sessions := filepath.Join(la.home, ".codex", "sessions")
	c := startCrashChild(t, la.srv, "outbox.after_send", "AKK_CRASH_CODEX_SESSIONS="+sessions, "AKK_CRASH_CALLBACKS="+string(cb))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	t.Cleanup(func() {
		if err := o.Stop(); err != nil {
			t.Error(err)
		}
	})
	if err := o.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%v ready in %v", o, o.Ready.Round(time.Millisecond))

	turn := crashSend(t, ctx, c, la)
	first := crashKilled(t, c, turn)
	// The Gateway acted on the killed attempt: its model is woken by it.
	if _, _, err := log.Wait(ctx, 0, func(r fakemodel.Request) bool {
		return r.Kind == "main" && strings.Contains(r.Prompt, first.ID)
	}); err != nil {
		t.Fatalf("the Gateway never ran the killed attempt's wake-up: %v", err)
	}
	d := startDaemon(t, la.srv, daemonOpts{storeDir: c.storeDir, codexSessions: sessions, callbacks: callbacks})
	var n store.Notification
	tmuxtest.Await(t, 60*time.Second, func() string {
		var err error
		if n, err = d.st.Notification(first.ID); err != nil || !n.Final() {
			return fmt.Sprintf("after the restart the wake-up is %s (%v)", n.State, err)
		}
		return ""
	})
	if n.State != store.NtfAccepted || len(n.Attempts) != 2 || n.Attempts[0].Outcome != "interrupted" || n.IdempotencyKey != first.IdempotencyKey {
		t.Errorf("after the restart: %s, attempts %+v, key %s; want the killed attempt interrupted, then accepted, with the key %s",
			n.State, n.Attempts, n.IdempotencyKey, first.IdempotencyKey)
	}
	h := &openclawHost{t: t, ctx: ctx, o: o, log: log, d: d}
	hist := h.awaitLast(t, openclawCrashKey, crashNoted)
	turns := 0
	for _, r := range log.Requests() {
		if fakemodel.Main(r) && strings.Contains(r.Prompt, n.ID) {
			turns++
		}
	}
	if got := countMessages(hist, n.ID); got != 1 || turns != 1 {
		t.Errorf("the wake-up sent twice is %d times in the session and started %d model turns, want once each", got, turns)
	}
	t.Logf("sent twice with key %s (%s, then %s %s), one message and one model turn; %v in all",
		n.IdempotencyKey, n.Attempts[0].Detail, n.Attempts[1].Outcome, n.Attempts[1].Detail, time.Since(start).Round(time.Millisecond))
}

// crashSend sends a task to the idle Codex pane through the child daemon
// as the controller whose owner's route is the Gateway's hook, and
// returns its Turn: Codex answers in text, the Turn completes, and its
// done wake-up goes out.
func crashSend(t *testing.T, ctx context.Context, c *crashChild, la *liveAgent) string {
	t.Helper()
	row := c.awaitRowFunc(t, ctx, la.pane, func(r api.Terminal) string {
		if _, ok := r.AvailableActions["send"]; !ok || r.Agent != "codex" || r.ScreenState != contract.ScreenIdle {
			return "codex idle with send advertised"
		}
		return ""
	})
	c.cl.SetController("mcp:crash#live")
	res, err := c.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: "crash-note"})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("send: %+v %v", res, err)
	}
	return res.TurnID
}

// crashKilled waits for the child to die at outbox.after_send and
// returns the Turn's one notification as the kill left it: in flight, its
// one attempt without an outcome.
func crashKilled(t *testing.T, c *crashChild, turn string) store.Notification {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("the daemon did not die at outbox.after_send:\n%s", c.out.String())
	}
	if mark, _ := os.ReadFile(filepath.Join(c.dir, "mark")); strings.TrimSpace(string(mark)) != "outbox.after_send" {
		t.Fatalf("killed at %q, not at outbox.after_send:\n%s", mark, c.out.String())
	}
	st, err := store.Open(c.storeDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ns, err := st.Notifications(func(n *store.Notification) bool { return n.Subject == turn })
	if err != nil || len(ns) != 1 || ns[0].State != store.NtfInFlight || len(ns[0].Attempts) != 1 || ns[0].Attempts[0].Outcome != "" {
		t.Fatalf("at kill time the wake-ups of %s are %+v (%v), want one in flight, its attempt open", turn, ns, err)
	}
	return ns[0]
}
