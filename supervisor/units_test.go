package supervisor

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestReplicaNeedsAllowReplicas runs a real `akk replica` (its exe is an
// akk binary, argv[1] is replica): an agent only with allowReplicas.
func TestReplicaNeedsAllowReplicas(t *testing.T) {
	akk := buildAkk(t)
	cast, _ := filepath.Abs(filepath.Join(corpusDir, "codex", "0.155.1", "draft.cast"))
	cmd := exec.Command(akk, "replica", cast)
	cmd.Dir = filepath.Dir(cast)
	stdin, _ := cmd.StdinPipe() // the replica waits for its first input
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	var pr procid.Process
	tmuxtest.Await(t, 5*time.Second, func() string {
		var err error
		if pr, err = procid.ReadProcess(cmd.Process.Pid); err != nil || len(pr.Argv) < 2 {
			return "no process yet"
		}
		return ""
	})
	fg := procid.Foreground{PGID: pr.Stat.PID, Leader: pr, Members: []procid.Process{pr}}
	classifier := func(allow bool) *procid.Classifier {
		return procid.NewClassifier(procid.Options{Rules: agentreg.ProcessRules(), AllowReplicas: allow, ReadReplica: readCastHeader})
	}
	if p := classifier(false).Classify(fg); p.Agent != api.AgentNone || p.Replica {
		t.Errorf("without allowReplicas: %+v", p)
	}
	if p := classifier(true).Classify(fg); p.Agent != "codex" || p.Version != "0.155.1" || !p.Replica {
		t.Errorf("with allowReplicas: agent %q version %q replica %v (%s)", p.Agent, p.Version, p.Replica, p.Why)
	}
}
