package supervisor

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/agent-knock-knock/akk/agents/registry/rigs" // the scenarios a qualification runs
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestLiveQualifyCrash kills the daemon (the fault hook's SIGKILL, never
// a timed kill) in the middle of a background qualification of Claude
// Code 2.1.337, while the run's tmux server and agent are up in its
// qualify directory. They outlive the kill; the daemon restarted on the
// same store and directory ends them and removes the run's HOME before
// anything else, and no record of the cut-short run counts.
func TestLiveQualifyCrash(t *testing.T) {
	requireFaultHook(t)
	tmuxtest.RequireTmux(t)
	const agent, version = "claude", "2.1.337"
	in, err := rig.Lookup(agent, version)
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed: %v", agent, version, err))
	srv := tmuxtest.StartFixed(t, 120, 40, "sh")
	qdir := filepath.Join(t.TempDir(), "qualify")
	c := startCrashChild(t, srv, FaultQualifyRunning, "AKK_CRASH_QUALIFY_DIR="+qdir)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmuxtest.Await(t, 20*time.Second, func() string {
		if _, err := c.cl.Health(ctx); err != nil {
			return "the child daemon answers: " + err.Error()
		}
		return ""
	})
	started, err := c.cl.Qualify(ctx, api.QualifyRequest{Binary: in.Bin})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.exited:
	case <-ctx.Done():
		t.Fatalf("the child was not killed during qualification %s:\n%s", started.Run, c.out.String())
	}
	if mark, _ := os.ReadFile(filepath.Join(c.dir, "mark")); strings.TrimSpace(string(mark)) != FaultQualifyRunning {
		t.Fatalf("the child died elsewhere (mark %q):\n%s", mark, c.out.String())
	}
	runs, _ := filepath.Glob(filepath.Join(qdir, "akk-rig-*"))
	if len(runs) != 1 || !serverUp(filepath.Join(runs[0], "tmux.sock")) || len(procid.WithEnv("HOME="+filepath.Join(runs[0], "home"))) == 0 {
		t.Fatalf("the kill left no run to clean (runs %v): the test proves nothing", runs)
	}
	run := runs[0]
	t.Cleanup(func() { _, _ = rig.Sweep(context.Background(), qdir) }) // should the daemon not

	d := startDaemon(t, srv, daemonOpts{storeDir: c.storeDir, qualifyDir: qdir})
	tmuxtest.Await(t, 30*time.Second, func() string {
		switch {
		case serverUp(filepath.Join(run, "tmux.sock")):
			return "the run's tmux server is up"
		case len(procid.WithEnv("HOME="+filepath.Join(run, "home"))) > 0:
			return "processes of the run's HOME are left"
		}
		if _, err := os.Stat(run); !os.IsNotExist(err) {
			return "the run's directory is left"
		}
		return ""
	})
	recs, err := d.st.Qualifications()
	if err != nil || len(recs) != 0 {
		t.Fatalf("qualification records after a cut-short run: %+v %v", recs, err)
	}
}

// serverUp: a tmux server answers on socket.
func serverUp(socket string) bool {
	c, err := net.Dial("unix", socket)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
