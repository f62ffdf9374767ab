package hosts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// ErrLeftOver: processes of a host's HOME were still there after it
// stopped (they are killed by pid).
var ErrLeftOver = errors.New("hosts: processes left over")

// MCPServer is a stdio MCP server in a host's config.
type MCPServer struct {
	Command string
	Args    []string
}

// Dirs is the isolated world of one host run, all under Root: HOME, the
// directory the host runs in (its workspace) and TMPDIR.
type Dirs struct {
	Root, Home, Work, Tmp string
}

func newDirs(root string) (Dirs, error) {
	d := Dirs{Root: root, Home: filepath.Join(root, "home"), Work: filepath.Join(root, "work"), Tmp: filepath.Join(root, "tmp")}
	for _, p := range []string{d.Home, d.Work, d.Tmp} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return d, fmt.Errorf("hosts: %w", err)
		}
	}
	return d, nil
}

// baseEnv is a host's whole environment (it runs under env -i): its
// HOME, the pinned Node first on PATH, and CI=1 (OpenClaw then sends no
// update check or telemetry).
func baseEnv(d Dirs, in rig.InstalledHost) []string {
	return []string{"HOME=" + d.Home, "TMPDIR=" + d.Tmp, "LANG=C.UTF-8", in.Env(), "CI=1", "DO_NOT_TRACK=1"}
}

// writeJSON writes v as indented JSON, making the directory.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	return nil
}

// FreePort is a loopback port that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("hosts: free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startGroup starts cmd as the leader of its own process group; a cmd
// made with a context is ended with its group when the context is done,
// and nothing else.
func startGroup(cmd *exec.Cmd, withContext bool) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if withContext {
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
	}
	return cmd.Start()
}

// stopGroup ends a host started by startGroup: sig to its leader, up to
// grace for it to exit (done is closed by the goroutine that waits on
// it), then SIGKILL to its group. Then every process still carrying its
// HOME (children that left the group) gets up to 5 s and is killed by
// pid: a leak is reported as ErrLeftOver.
func stopGroup(cmd *exec.Cmd, done <-chan struct{}, sig syscall.Signal, grace time.Duration, home string) error {
	if cmd.Process == nil {
		return nil
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(grace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	return killLeftOver(home)
}

// killLeftOver waits up to 5 s for the processes of home to exit, then
// kills the rest by pid and names them.
func killLeftOver(home string) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		pids := rig.ProcessesOf(home)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			var desc []string
			for _, pid := range pids {
				desc = append(desc, fmt.Sprintf("%d (%s)", pid, procid.Comm(pid)))
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return fmt.Errorf("%w: %v (now killed)", ErrLeftOver, desc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sleepCtx waits d or until ctx is done (false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}
