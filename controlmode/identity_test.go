package controlmode

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxIdentity: pane facts from tmux, with and without a job in the
// foreground (the foreground job from /proc: internal/procid).
func TestTmuxIdentity(t *testing.T) {
	checkLeaks(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	srv := startTmux(t, 80, 24, "cd "+dir+" && exec bash --norc --noprofile -i")
	c := attach(t, srv)
	ctx := ctxTest(t)
	info, err := c.PaneInfo(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if info.Pane != 0 || info.PID <= 0 || !strings.HasPrefix(info.TTY, "/dev/") || info.Width != 80 || info.Height != 24 || info.Dead || info.InMode {
		t.Fatalf("PaneInfo %+v", info)
	}
	panes, err := c.Panes(ctx)
	if err != nil || len(panes) != 1 || panes[0] != info {
		t.Fatalf("Panes %+v %v", panes, err)
	}
	// A foreground pipeline: tmux names its first process.
	if err := c.SendText(ctx, 0, "sleep 30 | cat"); err != nil {
		t.Fatal(err)
	}
	c.SendKeys(ctx, 0, "Enter")
	tmuxtest.Await(t, 5*time.Second, func() string {
		if info2, _ := c.PaneInfo(ctx, 0); info2.CurrentCommand != "sleep" {
			return "current command " + info2.CurrentCommand
		}
		return ""
	})
	info2, _ := c.PaneInfo(ctx, 0)
	if info2.CurrentCommand != "sleep" || info2.CurrentPath != dir {
		t.Errorf("tmux says current %q in %q", info2.CurrentCommand, info2.CurrentPath)
	}
	c.SendKeys(ctx, 0, "C-c")
}
