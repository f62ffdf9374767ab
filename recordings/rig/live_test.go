package rig_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The live tier: the real pinned agents, installed in the cache by the
// rig (.ci/run runs `go run ./recordings/cmd/rig -install ...` first),
// against the fake model servers. A change that breaks the rig or the
// offline setup fails here.

func runLive(t *testing.T, agent, version, scenario string, wantMarkers []string) {
	t.Helper()
	_, err := rig.Lookup(agent, version)
	tmuxtest.Require(t, "live", err == nil, "agent not installed (go run ./recordings/cmd/rig -install "+agent+"@"+version+"): "+errString(err))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := rig.Run(ctx, rig.Config{Agent: agent, Version: version, Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s %s: %s", agent, version, scenario, res.Summary())
	problems, err := recordings.Verify(res.Recording, res.Final)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	ms, _, err := recordings.Markers(res.Recording)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, string(m.State))
	}
	if len(got) != len(wantMarkers) {
		t.Fatalf("markers %v, want %v", got, wantMarkers)
	}
	for i := range got {
		if got[i] != wantMarkers[i] {
			t.Errorf("marker %d is %s, want %s", i, got[i], wantMarkers[i])
		}
	}
	if len(res.Journal) == 0 {
		t.Error("no transcript/rollout")
	}
}

func errString(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, rig.ErrNotInstalled):
		return "not in the cache"
	}
	return err.Error()
}

func TestLiveClaudePermission(t *testing.T) {
	runLive(t, "claude", "2.1.267", "permission-approve", []string{"awaiting_approval", "idle"})
}

func TestLiveClaudeQuestion(t *testing.T) {
	runLive(t, "claude", "2.1.267", "question-digit", []string{"questionnaire", "idle"})
}

func TestLiveCodexPermission(t *testing.T) {
	runLive(t, "codex", "0.155.1", "permission-approve", []string{"awaiting_approval", "idle"})
}

func TestLiveCodexQuestion(t *testing.T) {
	runLive(t, "codex", "0.155.1", "question-digit", []string{"questionnaire", "idle"})
}
