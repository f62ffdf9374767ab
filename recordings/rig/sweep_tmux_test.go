package rig

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxSweep: a run cut short (its tmux server and agent still up)
// is ended by Sweep of its parent, and nothing beside it is touched.
func TestTmuxSweep(t *testing.T) {
	tmuxtest.RequireTmux(t)
	parent := t.TempDir()
	run, err := os.MkdirTemp(parent, runPrefix)
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(run, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(parent, "not-a-run")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(run, "tmux.sock")
	// The "agent": a process of the run's HOME, detached from the
	// server's pane so that only Sweep's kill by HOME can end it.
	cmd := exec.Command("tmux", "-S", sock, "new-session", "-d", "-x", "80", "-y", "24",
		"env HOME="+home+" sh -c 'setsid env HOME="+home+" sleep 600 & exec sleep 600'")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	tmuxtest.Await(t, 5*time.Second, func() string {
		if len(processesOf(home)) < 2 {
			return "the run's processes are not up"
		}
		return ""
	})
	n, err := Sweep(context.Background(), parent)
	if n != 1 {
		t.Fatalf("swept %d runs (%v)", n, err)
	}
	if left := processesOf(home); len(left) != 0 {
		t.Errorf("processes of the run left: %v", left)
	}
	if _, err := os.Stat(run); !os.IsNotExist(err) {
		t.Errorf("the run's directory is still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("Sweep touched a directory that is not a run's: %v", err)
	}
}
