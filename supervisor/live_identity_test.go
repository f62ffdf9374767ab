package supervisor

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestLiveIdentityFromShell: a person starts a real, pinned Claude Code
// or Codex from the shell of a pane the daemon already knows as a plain
// shell (the shell forks, the child execs env, env execs the agent; the
// npm codex is a Node launcher whose native child appears later under the
// same pane_current_command). Both then sit idle. Every run must be
// identified within identityDeadline of the agent process's start; the
// latencies (from that start, and from the typed command) are printed.
func TestLiveIdentityFromShell(t *testing.T) {
	for _, av := range [][2]string{{"claude", "2.1.267"}, {"codex", "0.155.1"}} {
		t.Run(av[0], func(t *testing.T) { liveIdentity(t, av[0], av[1]) })
	}
}

func liveIdentity(t *testing.T, agent, version string) {
	la := prepareLive(t, agent, version, rig.Script(agent, version))
	d := startDaemon(t, la.srv, daemonOpts{})
	line := fmt.Sprintf("cd %s && %s", shq(la.work), la.command)
	fromStart, fromKeys := &latencies{}, &latencies{}
	for i := range identityRuns(t) {
		pane := newWindow(t, la.srv, 120, 40, "sh")
		// The output differs from the typed line: keys typed before the
		// shell printed its prompt are echoed by the tty first, so the
		// typed text alone proves nothing ran.
		la.srv.MustRun("send-keys", "-t", pane, "-l", "echo akk-shell-$((40+2))")
		la.srv.MustRun("send-keys", "-t", pane, "Enter")
		tmuxtest.Await(t, 10*time.Second, func() string { return d.shellSeen(pane, "akk-shell-42", true) })
		la.srv.MustRun("send-keys", "-t", pane, "-l", line)
		typed := time.Now()
		la.srv.MustRun("send-keys", "-t", pane, "Enter")
		// The deadline counts from the agent process's start, which comes
		// a little after the keys: the poll itself may wait longer.
		var pid int
		err := tmuxtest.Poll(context.Background(), identityDeadline+5*time.Second, func() string {
			l, err := d.cl.List(context.Background())
			if err != nil {
				return err.Error()
			}
			row, _ := rowOf(l, pane)
			pid = row.PID
			return d.identified(pane, agent, version, false)
		})
		seen := time.Now()
		if err != nil {
			t.Fatalf("run %d: %v\nscreen:\n%s", i, err, d.screenText(pane))
		}
		age, aerr := processAge(pid)
		if aerr != nil {
			t.Fatalf("run %d: agent pid %d: %v", i, pid, aerr)
		}
		fromStart.add(age)
		fromKeys.add(seen.Sub(typed))
		if age > identityDeadline {
			t.Errorf("run %d: %s identified %v after its process started (pid %d), want within %v", i, agent, age, pid, identityDeadline)
		}
		la.srv.MustRun("kill-window", "-t", pane)
	}
	reportIdentity(t, agent+" "+version+": agent process start -> identified", fromStart)
	reportIdentity(t, agent+" "+version+": command typed -> identified", fromKeys)
}

// processAge is how long ago pid started, from /proc/uptime and the
// process's start time (both in hundredths of a second; USER_HZ is 100).
func processAge(pid int) (time.Duration, error) {
	st, err := procid.ReadStat(pid)
	if err != nil {
		return 0, err
	}
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, err
	}
	up, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		return 0, err
	}
	return time.Duration(up*float64(time.Second)) - time.Duration(st.StartTime)*10*time.Millisecond, nil
}
