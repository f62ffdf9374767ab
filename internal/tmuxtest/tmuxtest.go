// Package tmuxtest starts isolated tmux servers for tests and decides
// whether a test tier may be skipped.
//
// Every server runs on its own socket (tmux -L akk-test-<random>) with no
// configuration file, and is killed by the test that made it, through that
// socket only. Tests never touch the user's tmux server.
package tmuxtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Require skips t when ok is false, unless AKK_REQUIRE names tier: then a
// missing prerequisite fails the test instead (CI must not pass by skipping).
func Require(t testing.TB, tier string, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	for _, req := range strings.Split(os.Getenv("AKK_REQUIRE"), ",") {
		if strings.TrimSpace(req) == tier {
			t.Fatalf("tier %q is required (AKK_REQUIRE) but unavailable: %s", tier, why)
		}
	}
	t.Skipf("tier %q unavailable: %s", tier, why)
}

// RequireTmux skips t on a machine without tmux in PATH (fails it when
// AKK_REQUIRE names the tier "tmux"): a test calls it before costly
// preparation, such as building akk, that would be wasted.
func RequireTmux(t testing.TB) {
	t.Helper()
	_, err := exec.LookPath("tmux")
	Require(t, "tmux", err == nil, "tmux not found in PATH")
}

// Mkfifo makes a named pipe at path, failing t if it cannot: the pane
// that reads it waits until the test writes (a replica starts when the
// test is ready to follow it).
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Server is an isolated tmux server owned by one test.
type Server struct {
	t      testing.TB
	Name   string // the -L name
	Socket string // absolute socket path, for -S
	Env    []string
	pid    int // the server process, 0 when unknown
	// Cred runs the server and every tmux command as another user
	// (StartAs); nil: as the test.
	Cred *syscall.Credential
}

// User is another Unix user a server runs as.
type User struct {
	UID, GID uint32
	Home     string
}

// Start starts a tmux server on a fresh private socket with one session
// named "main" whose first pane runs cmd (a shell command) at the given
// size. The server is killed in t.Cleanup.
func Start(t testing.TB, width, height int, cmd string) *Server {
	t.Helper()
	return start(t, nil, width, height, cmd)
}

// StartFixed is Start with the server's default-size set to the session's
// size: the windows a test opens later get that size too, so a replica of
// a recording made at it draws without a resize.
func StartFixed(t testing.TB, width, height int, cmd string) *Server {
	t.Helper()
	s := start(t, nil, width, height, cmd)
	s.MustRun("set-option", "-g", "default-size", fmt.Sprintf("%dx%d", width, height))
	return s
}

// StartAs is Start with the server and its panes run as u (a test run
// as root: the other machine of a test over ssh).
func StartAs(t testing.TB, u User, width, height int, cmd string) *Server {
	t.Helper()
	return start(t, &u, width, height, cmd)
}

func start(t testing.TB, u *User, width, height int, cmd string) *Server {
	t.Helper()
	RequireTmux(t)
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("tmuxtest: random name: %v", err)
	}
	name := "akk-test-" + hex.EncodeToString(b[:])
	// Not t.TempDir(): it holds the test's name, and a long one (a
	// recording named api-error-overloaded-stream) makes the socket path
	// longer than a unix socket's 108 bytes. Removed after Kill (cleanups
	// run last-registered first).
	tmpdir, err := os.MkdirTemp("", "akkt-")
	if err != nil {
		t.Fatalf("tmuxtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmpdir) })
	uid := os.Getuid()
	s := &Server{t: t, Name: name}
	// A private TMUX_TMPDIR keeps the socket inside the test's temp dir;
	// unsetting TMUX keeps a surrounding tmux from redirecting us.
	s.Env = append(filteredEnv(), "TMUX_TMPDIR="+tmpdir, "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
	if u != nil {
		uid = int(u.UID)
		s.Cred = &syscall.Credential{Uid: u.UID, Gid: u.GID}
		s.Env = append(s.Env, "HOME="+u.Home, "USER=", "LOGNAME=")
		if err := os.Chown(tmpdir, uid, int(u.GID)); err != nil {
			t.Fatalf("tmuxtest: %v", err)
		}
	}
	s.Socket = filepath.Join(tmpdir, fmt.Sprintf("tmux-%d", uid), name)
	args := []string{"new-session", "-d", "-s", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}
	if cmd != "" {
		args = append(args, cmd)
	}
	if _, err := s.run(append([]string{"-f", "/dev/null"}, args...)...); err != nil {
		t.Fatalf("tmuxtest: start server: %v", err)
	}
	t.Cleanup(s.Kill)
	if out, err := s.run("display-message", "-p", "#{pid}"); err == nil {
		s.pid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	// Options that keep oracle captures stable: no status line stealing a
	// row, a dead pane stays for capture.
	s.MustRun("set-option", "-g", "status", "off")
	s.MustRun("set-option", "-g", "remain-on-exit", "on")
	return s
}

func filteredEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") ||
			strings.HasPrefix(kv, "TMUX_TMPDIR=") || strings.HasPrefix(kv, "LANG=") ||
			strings.HasPrefix(kv, "LC_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// Command returns an exec.Cmd for tmux on this server's socket.
func (s *Server) Command(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-S", s.Socket}, args...)...)
	cmd.Env = s.Env
	s.as(cmd)
	return cmd
}

// as runs cmd as the server's user.
func (s *Server) as(cmd *exec.Cmd) {
	if s.Cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.Cred}
	}
}

func (s *Server) run(args ...string) ([]byte, error) {
	return s.RunContext(context.Background(), args...)
}

// RunContext is Run with a context: the tmux client is killed when ctx
// ends.
func (s *Server) RunContext(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-L", s.Name}, args...)...)
	cmd.Env = s.Env
	s.as(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Run runs one tmux command against this server and returns its stdout.
func (s *Server) Run(args ...string) ([]byte, error) { return s.run(args...) }

// MustRun is Run that fails the test on error.
func (s *Server) MustRun(args ...string) []byte {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmuxtest: %v", err)
	}
	return out
}

// Kill kills the server through its own socket, waits for the server
// process and every process of its panes' sessions to exit (an agent
// writes its files as it exits: a test's TempDir cleanup must come after)
// and removes the socket file (tmux 3.3a leaves it behind). It is
// idempotent.
func (s *Server) Kill() {
	var sessions []int
	if out, err := s.run("list-panes", "-a", "-F", "#{pane_pid}"); err == nil {
		for _, f := range strings.Fields(string(out)) {
			if pid, err := strconv.Atoi(f); err == nil {
				sessions = append(sessions, pid)
			}
		}
	}
	_, _ = s.run("kill-server")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !(s.pid <= 0 || exited(s.pid)) {
		time.Sleep(5 * time.Millisecond)
	}
	for time.Now().Before(deadline) && sessionLives(sessions) {
		time.Sleep(10 * time.Millisecond)
	}
	_ = os.Remove(s.Socket)
}

// sessionLives reports whether a live process belongs to one of the
// sessions (a pane's process leads its own session: its pid is the
// session id of everything it started that did not leave it).
func sessionLives(sessions []int) bool {
	if len(sessions) == 0 {
		return false
	}
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range dir {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue // not a process
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if sid, err := strconv.Atoi(f[3]); err == nil && slices.Contains(sessions, sid) {
			return true
		}
	}
	return false
}

// exited reports whether pid has exited: gone, or a zombie. The server
// daemonizes, so its parent is init, which may reap it late (seen here:
// seconds, the whole of Kill's wait, for every test server); a zombie
// holds no socket, pty or file any more.
func exited(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}
