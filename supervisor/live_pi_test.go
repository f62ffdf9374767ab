package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/hosts"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// piAdapter is the trusted side of Pi, which has no inbound hook: akk's
// command route runs a shell line that writes each envelope (stdin) to a
// file named by its notification id (written aside, then renamed: a file
// that is there is whole), and the driver of Pi's RPC process forwards
// each wake-up once, as the openclaw route words it (outbox.WakeText), as
// a prompt when Pi has settled.
type piAdapter struct {
	dir       string
	forwarded map[string]bool
}

func newPiAdapter(t *testing.T) *piAdapter {
	return &piAdapter{dir: t.TempDir(), forwarded: map[string]bool{}}
}

// route is the command route that hands envelopes to the adapter.
func (a *piAdapter) route() outbox.RouteConfig {
	line := `f="$0/$AKK_NOTIFICATION_ID"; cat > "$f.part" && mv "$f.part" "$f.json"`
	return outbox.RouteConfig{Name: "pi", Kind: outbox.RouteCommand, Command: []string{"sh", "-c", line, a.dir}}
}

// next waits for the next wake-up not yet forwarded (the oldest first)
// and returns it as the message for Pi's model.
func (a *piAdapter) next(t *testing.T) (string, api.CallbackEnvelope) {
	t.Helper()
	var env api.CallbackEnvelope
	var text string
	tmuxtest.Await(t, 90*time.Second, func() string {
		files, _ := filepath.Glob(filepath.Join(a.dir, "ntf_*.json"))
		var envs []api.CallbackEnvelope
		bodies := map[string][]byte{}
		for _, f := range files {
			b, err := os.ReadFile(f)
			var e api.CallbackEnvelope
			if err != nil || json.Unmarshal(b, &e) != nil {
				return fmt.Sprintf("an unreadable envelope %s: %v", f, err)
			}
			if !a.forwarded[e.NotificationID] {
				envs = append(envs, e)
				bodies[e.NotificationID] = b
			}
		}
		if len(envs) == 0 {
			return "a wake-up from akk's command route"
		}
		slices.SortFunc(envs, func(x, y api.CallbackEnvelope) int { return x.Time.Compare(y.Time) })
		env = envs[0]
		a.forwarded[env.NotificationID] = true
		text = outbox.WakeText(&store.Notification{Envelope: bodies[env.NotificationID]})
		return ""
	})
	return text, env
}

// TestLivePiHost: the chat loop of TestLiveOpenClawHost through Pi (pinned,
// RPC mode, offline) with the real `akk mcp --controller pi` as its MCP
// server (exposure direct) and the fake model acting by the same host
// rules. "run the tests in the codex pane": list, send to the real Codex
// row; Codex asks approval; akk's wake-up goes through a command route
// to the test's adapter, which prompts Pi with it; the host looks at the
// status by the turn_id it read there and asks the user; "yes": a fresh
// status and approve by turn_id; the command runs once; the last wake-up
// says done and the host says so. Every id the model sent, it read in an
// earlier tool result.
func TestLivePiHost(t *testing.T) {
	start := time.Now()
	in := requireAgentHost(t, "pi", hosts.PiVersion)
	la := startLive(t, "codex", "0.155.1", hostCodexScript())
	a := newPiAdapter(t)
	d := startDaemon(t, la.srv, daemonOpts{codexSessions: filepath.Join(la.home, ".codex", "sessions"),
		callbacks: outbox.Config{Routes: []outbox.RouteConfig{a.route()}, Default: []string{},
			Owners: map[string][]string{"mcp:pi": {"pi"}}}})
	log := fakemodel.NewLog(nil)
	model, err := fakemodel.Anthropic(fakemodel.Script{Rules: hostChatRules()}, log, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	awaitCodexIdle(t, d, la)
	lap := time.Now()
	p, err := hosts.StartPi(in, t.TempDir(), hosts.PiConfig{ModelURL: model.URL(), MCP: map[string]hosts.MCPServer{
		"akk": {Command: buildAkk(t), Args: []string{"mcp", "--socket", d.sock, "--controller", "pi"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Pi's stderr:\n%s\nthe host model's requests:\n%s", p.Stderr(), modelChoices(log))
		}
		if err := p.Stop(); err != nil {
			t.Error(err)
		}
	})
	say := func(message, want string) {
		t.Helper()
		r, err := p.Prompt(ctx, message)
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != want {
			t.Fatalf("Pi's answer to %.80q: %q after %v, want %q; the host model chose:\n%s", message, r.Text, r.ToolCalls, want, modelChoices(log))
		}
	}
	say(chatCodex, chatSent)
	wake, asked := a.next(t)
	say(wake, chatAsk)
	say("yes", chatActed)
	wake, done := a.next(t)
	say(wake, hostDone)
	reqs := log.Requests()
	turn := checkChatApproved(t, d, la, reqs)
	if asked.TurnID != turn || asked.Event != api.CallbackInteractionRequired || done.TurnID != turn || done.Event != api.CallbackCompleted {
		t.Errorf("the wake-ups forwarded: %s %s, %s %s; want %s's interaction_required, then completed",
			asked.TurnID, asked.Event, done.TurnID, done.Event, turn)
	}
	var prompts int
	for _, r := range reqs {
		if r.Kind == "main" && strings.HasPrefix(r.Prompt, "akk callback:") {
			prompts++
		}
	}
	if files, _ := filepath.Glob(filepath.Join(a.dir, "ntf_*.json")); len(files) != 2 || prompts != 2 {
		t.Errorf("%d wake-ups reached the adapter and %d reached Pi's model, want 2 each", len(files), prompts)
	}
	t.Logf("pi loop (turn %s): %d host model requests in %v", turn, len(reqs), time.Since(lap).Round(time.Millisecond))
	t.Logf("TestLivePiHost wall time %v", time.Since(start).Round(time.Millisecond))
}
