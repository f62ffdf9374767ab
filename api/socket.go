package api

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// SocketName is the socket's file name in its directory.
const SocketName = "akk.sock"

// DefaultSocketDir is $XDG_RUNTIME_DIR/akk, or /tmp/akk-<uid> when that is
// not set (a directory only we may enter).
func DefaultSocketDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "akk")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("akk-%d", os.Getuid()))
}

// DefaultSocket is the daemon's default socket path.
func DefaultSocket() string { return filepath.Join(DefaultSocketDir(), SocketName) }

// Listen creates the socket at path: its directory 0700 (created if
// needed; an existing one must be ours and is tightened to 0700), the
// socket 0600. A socket file nobody answers on (a daemon killed with
// SIGKILL) is removed; a live one is ErrInUse.
func Listen(path string) (*net.UnixListener, error) {
	dir := filepath.Dir(path)
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%w: %s", ErrInUse, path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("api: remove stale socket %s: %w", path, err)
		}
	}
	// The umask makes the socket 0600 from the moment it exists; the
	// chmod after is belt and braces.
	old := syscall.Umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("api: listen %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("api: chmod %s: %w", path, err)
	}
	return ln, nil
}

// ErrInUse: another daemon answers on the socket.
var ErrInUse = errors.New("api: socket in use by another akk attach")

func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("api: socket directory %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("api: socket directory %s: %w", dir, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("api: socket directory %s is not owned by uid %d", dir, os.Getuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("api: socket directory %s: %w", dir, err)
		}
	}
	return nil
}
