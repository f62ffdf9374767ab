package registry

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The live tier: a real pinned agent, installed in the rig's cache, runs
// the rig's "send" scenario (prompt "hello there", one finished turn)
// against the fake model; while it still runs, native identity must find
// the very file the agent is writing, and the typed prompt must be
// accepted there by its request hash. Skipped without the installed agent
// unless AKK_REQUIRE names "live".

func runLiveIdentity(t *testing.T, agent string, check func(t *testing.T, p rig.Probe, since time.Time) (watchers.NativeIdentity, error)) {
	version := agenttest.NewestPinned(t, agent)
	_, err := rig.Lookup(agent, version)
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v", agent, version, agent, version, err))
	_, err = exec.LookPath("tmux")
	tmuxtest.Require(t, "live", err == nil, "tmux not found in PATH")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	since := time.Now()
	probed := false
	res, err := rig.RunProbe(ctx, rig.Config{Agent: agent, Version: version, Scenario: "send"}, func(p rig.Probe) error {
		probed = true
		if p.Journal == "" {
			return fmt.Errorf("the agent wrote no %s journal", agent)
		}
		id, err := check(t, p, since)
		if err != nil {
			return err
		}
		t.Logf("%s %s: %s %s (%s; %d checked)", agent, version, id.State, id.Path, id.Reason, id.Checked)
		if id.State != contract.IdentityResolved || id.Path != p.Journal || id.Version != version {
			return fmt.Errorf("identity %+v, want resolved to %s (version %s)", id, p.Journal, version)
		}
		// The session the file itself names, and the prompt the scenario
		// typed accepted there.
		data, err := os.ReadFile(p.Journal)
		if err != nil {
			return err
		}
		a, _ := Lookup(agent)
		evs, _ := evidencetest.ParseFile(t, a.Records(), p.Journal, data[:lastNewline(data)])
		var session string
		for _, ev := range evs {
			if s, ok := ev.(evidence.SessionIdentity); ok && s.Version != "" {
				session = s.SessionID
			}
		}
		if session == "" || id.SessionID != session {
			return fmt.Errorf("resolved session %q, the file says %q", id.SessionID, session)
		}
		r, err := watchers.Accept(ctx, "hello there", 0, watchers.Anchor{Agent: a.Records().Agent, Path: p.Journal, Absent: true, SessionID: session})
		if err != nil || r.Verdict != watchers.Accepted {
			return fmt.Errorf("prompt not accepted: %+v %v", r, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !probed {
		t.Fatal("the probe never ran")
	}
	t.Logf("%s %s send: %s", agent, version, res.Summary())
}

// lastNewline is the length of data's complete lines.
func lastNewline(data []byte) int {
	return bytes.LastIndexByte(data, '\n') + 1
}

// TestLiveCodexIdentity: the rollout the native codex process (a child
// of the pane's launcher) holds open is the rig's rollout.
func TestLiveCodexIdentity(t *testing.T) {
	runLiveIdentity(t, "codex", func(t *testing.T, p rig.Probe, _ time.Time) (watchers.NativeIdentity, error) {
		a, _ := Lookup("codex")
		return a.Resolve(context.Background(), filepath.Join(p.Home.Home, ".codex", "sessions"), agents.SessionQuery{PIDs: []int{p.PanePID}}), nil
	})
}

// TestLiveClaudeIdentity: the transcript whose records carry the agent's
// cwd, appended since it started, is the rig's transcript.
func TestLiveClaudeIdentity(t *testing.T) {
	runLiveIdentity(t, "claude", func(t *testing.T, p rig.Probe, since time.Time) (watchers.NativeIdentity, error) {
		cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.PanePID))
		if err != nil {
			return watchers.NativeIdentity{}, err
		}
		if cwd != p.Home.Work {
			return watchers.NativeIdentity{}, fmt.Errorf("the agent runs in %s, not %s", cwd, p.Home.Work)
		}
		a, _ := Lookup("claude")
		return a.Resolve(context.Background(), filepath.Join(p.Home.Home, ".claude", "projects"), agents.SessionQuery{Cwd: cwd, Since: since}), nil
	})
}
