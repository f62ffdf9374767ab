package outbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/dbustest"
	"github.com/agent-knock-knock/akk/store"
)

// places is a fixed Places.
type places struct {
	p    Place
	link string
}

func (p places) PlaceOf(string) (Place, bool) { return p.p, p.p != Place{} }
func (p places) WebLink(string) string        { return p.link }

func noticeOf(t *testing.T, env api.CallbackEnvelope) *store.Notification {
	t.Helper()
	env.TerminalID = "term_x"
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return &store.Notification{ID: "ntf_1", TerminalID: "term_x", Envelope: b}
}

// bashPrompt is a permission as the projection has it: a closed tool
// name, no screen text.
var bashPrompt = &contract.Interaction{Kind: "permission", Tool: "shell", State: "pending", Agent: "claude",
	Decisions: []contract.Decision{"approve_once", "reject"}}

// TestNoticeOf: what a person reads names the agent, its place and what
// it asks, in plain bounded text.
func TestNoticeOf(t *testing.T) {
	here := places{p: Place{Agent: "claude", Session: "main", Window: "2", Cwd: "~/project"}, link: "https://box.ts.net/?t=term_x"}
	for _, c := range []struct {
		name   string
		env    api.CallbackEnvelope
		places Places
		want   Notice
	}{
		{"a permission", api.CallbackEnvelope{Type: api.CallbackBlocked, Event: api.CallbackInteractionRequired, Interaction: bashPrompt},
			here, Notice{Title: "Claude Code asks permission to run a shell command", Body: "main:2 · ~/project",
				Link: "https://box.ts.net/?t=term_x"}},
		{"a questionnaire of two", api.CallbackEnvelope{Type: api.CallbackBlocked, Event: api.CallbackInteractionRequired,
			Interaction: &contract.Interaction{Kind: "questionnaire", Questions: []contract.Question{
				{Header: "Colour", Prompt: "Which colour?"}, {Prompt: "Which size?"}}}},
			places{p: Place{Agent: "codex", Session: "work", Window: "0"}}, Notice{Title: "Codex asks you a question",
				Body: "work:0\nColour: Which colour? (+1 more)"}},
		{"a block with its reset", api.CallbackEnvelope{Type: api.CallbackBlocked, Event: api.CallbackAgentBlocked,
			Blocked: &api.Blocked{Reason: "usage_limit", ResetsAtShown: "9:36pm (UTC)"}}, here,
			Notice{Title: "Claude Code is blocked: usage limit", Body: "main:2 · ~/project\nresets 9:36pm (UTC)", Link: here.link}},
		{"no place known, the agent from the prompt", api.CallbackEnvelope{Type: api.CallbackBlocked,
			Event: api.CallbackInteractionRequired, Interaction: bashPrompt}, nil,
			Notice{Title: "Claude Code asks permission to run a shell command"}},
		{"a Turn's end", api.CallbackEnvelope{Type: api.CallbackDone, Event: api.CallbackCompleted}, here,
			Notice{Title: "Claude Code finished", Body: "main:2 · ~/project", Link: here.link}},
		{"control characters and a long question", api.CallbackEnvelope{Type: api.CallbackBlocked,
			Event: api.CallbackInteractionRequired, Interaction: &contract.Interaction{Kind: "free_text",
				Questions: []contract.Question{{Prompt: "say\x1b]9;evil\a\nthis " + strings.Repeat("x", 300)}}}},
			places{p: Place{Agent: "codex", Session: "a\x1bb"}}, Notice{Title: "Codex asks you a question",
				Body: "a b\nsay ]9;evil this " + strings.Repeat("x", 159-len("say ]9;evil this ")) + "…"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := NoticeOf(noticeOf(t, c.env), c.places)
			if got != c.want {
				t.Errorf("\n got %#v\nwant %#v", got, c.want)
			}
		})
	}
}

// TestOSCSequence: one whole sequence, BEL-terminated, nothing in it that
// could end it early or start another.
func TestOSCSequence(t *testing.T) {
	nt := Notice{Title: "Codex asks; permission", Body: "main:1 · ~/p\nshell: Run it?"}
	for _, c := range []struct{ osc, want string }{
		{OSC9, "\x1b]9;akk: Codex asks; permission · main:1 · ~/p · shell: Run it?\a"},
		{"", "\x1b]9;akk: Codex asks; permission · main:1 · ~/p · shell: Run it?\a"},
		{OSC777, "\x1b]777;notify;Codex asks, permission;main:1 · ~/p · shell: Run it?\a"},
	} {
		got := string(oscSequence(c.osc, nt))
		if got != c.want {
			t.Errorf("osc %q: %q, want %q", c.osc, got, c.want)
		}
		if strings.Count(got, "\x1b") != 1 || strings.Count(got, "\a") != 1 {
			t.Errorf("osc %q: more than one sequence in %q", c.osc, got)
		}
	}
}

// TestDesktopRoute: a notice reaches a notification server on a private
// D-Bus bus with its title, plain body (markup escaped) and link; a bus
// without a server, or no bus at all, is retryable (no notify-send here
// stands in), never accepted.
func TestDesktopRoute(t *testing.T) {
	bus := dbustest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n := noticeOf(t, api.CallbackEnvelope{Type: api.CallbackBlocked, Event: api.CallbackInteractionRequired,
		Interaction: &contract.Interaction{Kind: "questionnaire", Questions: []contract.Question{
			{Header: "Edit <main.go>", Prompt: "Apply this edit?"}}}})
	at := places{p: Place{Agent: "claude", Session: "main", Window: "1", Cwd: "~/p & q"}, link: "http://127.0.0.1:7717/?t=term_x"}
	route := func(bus string) desktopRoute {
		return desktopRoute{cfg: RouteConfig{Name: "desk", Kind: RouteDesktop, Bus: bus, Timeout: 5 * time.Second}, places: at}
	}

	if d := route(bus.Addr).Send(ctx, n); d.Outcome != store.NtfRetryable || !strings.Contains(d.Detail, "no notification server") {
		t.Errorf("a bus without a server: %+v, want retryable", d)
	}
	if d := route("unix:path="+t.TempDir()+"/none").Send(ctx, n); d.Outcome != store.NtfRetryable || !strings.Contains(d.Detail, "no session bus") {
		t.Errorf("no bus: %+v, want retryable", d)
	}

	srv := bus.Serve(t)
	d := route(bus.Addr).Send(ctx, n)
	if d.Outcome != store.NtfAccepted {
		t.Fatalf("%+v, want accepted", d)
	}
	got, err := srv.Await(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := dbustest.Notice{App: "akk", Summary: "Claude Code asks you a question",
		Body: "main:1 · ~/p &amp; q\nEdit &lt;main.go&gt;: Apply this edit?\nhttp://127.0.0.1:7717/?t=term_x", Expire: -1}
	if g := got[0]; g.App != want.App || g.Summary != want.Summary || g.Body != want.Body || g.Expire != want.Expire {
		t.Errorf("\n got %+v\nwant %+v", g, want)
	}
}
