package hosts

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// TestLivePiSmoke: the pinned Pi in RPC mode, offline with the fake model
// as its only provider and `akk mcp` and fakemcp as direct MCP servers,
// answers two prompts in one conversation (the model saw
// mcp__akk__agent_knock_knock_* and called mcp__echo__echo each time),
// and every process of its HOME is gone after Stop.
func TestLivePiSmoke(t *testing.T) {
	in := requireHost(t, "pi", PiVersion)
	servers := smokeServers(t)
	srv, log := startModel(t, smokeRules("mcp__echo__echo"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lap := time.Now()
	p, err := StartPi(in, t.TempDir(), PiConfig{ModelURL: srv.URL(), MCP: servers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop() })
	for i, prompt := range []string{"Say smoke.", "Say smoke again."} {
		reply, err := p.Prompt(ctx, prompt)
		if err != nil {
			t.Fatal(err)
		}
		if reply.Text != smokeText || !slices.Equal(reply.ToolCalls, []string{"mcp__echo__echo"}) {
			t.Fatalf("prompt %d: text %q, tool calls %v; want %q after one mcp__echo__echo; model choices %v",
				i+1, reply.Text, reply.ToolCalls, smokeText, mainChoices(log))
		}
		t.Logf("prompt %d settled %v after %s", i+1, time.Since(lap).Round(time.Millisecond), map[int]string{0: "the start", 1: "the first"}[i])
		lap = time.Now()
	}
	first, _, err := log.Wait(ctx, 0, fakemodel.Main)
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, first, "mcp__akk__agent_knock_knock_list", "mcp__akk__agent_knock_knock_status",
		"mcp__akk__agent_knock_knock_send", "mcp__akk__agent_knock_knock_approve", "mcp__echo__echo")
	if got := mainChoices(log); !slices.Equal(got, []string{"rule:echo", "rule:done", "rule:echo", "rule:done"}) {
		t.Errorf("model choices %v, want echo then done, twice", got)
	}
	lap = time.Now()
	if err := p.Stop(); err != nil {
		t.Error(err)
	}
	t.Logf("pi stopped in %v", time.Since(lap).Round(time.Millisecond))
}
