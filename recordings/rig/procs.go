package rig

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// processesOf lists the processes whose environment has HOME=home: the
// processes of one run (the agent and anything it started).
func processesOf(home string) []int { return procid.WithEnv("HOME=" + home) }

// checkNoneLeft waits up to 5 s for the run's processes to exit. After
// the first second it sends those still there SIGHUP once, as a user's
// shell passes its terminal's hangup to its jobs: the rig's agent is the
// pane's first process, where no shell does that (Gemini CLI, its pane's
// session leader, outlives the hangup until it gets its own). Any still
// there at the end are the run's own (they carry its HOME): they are
// killed by pid and reported as an error, so a leak (a daemon that
// outlives the TUI) fails the run instead of going unnoticed.
func checkNoneLeft(ctx context.Context, home string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	hangup := time.Now().Add(time.Second)
	for {
		pids := processesOf(home)
		if len(pids) == 0 {
			return nil
		}
		if !hangup.IsZero() && time.Now().After(hangup) {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGHUP)
			}
			hangup = time.Time{}
		}
		select {
		case <-ctx.Done():
			var desc []string
			for _, pid := range pids {
				desc = append(desc, fmt.Sprintf("%d (%s)", pid, procid.Comm(pid)))
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return fmt.Errorf("rig: processes of the run's HOME left after its tmux server was killed (now killed): %v", desc)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
