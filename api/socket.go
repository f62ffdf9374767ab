package api

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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

// The socket's directory is where a user's akk processes meet: the
// daemon's socket, the MCP token, `akk web`'s announcement and control
// socket. In /tmp (no XDG_RUNTIME_DIR) another local user may create that
// path first (a squat), or make it a symbolic link to a directory of
// ours (a swap, to be replaced by theirs later). So both ends check it
// before they use it (DESIGN invariant 10):
//   - the directory is a directory, not a symbolic link, owned by this
//     uid, mode 0700 (the daemon creates it so; it tightens a directory of
//     its own that others may read, and refuses one others may write);
//   - the socket is a socket owned by this uid;
//   - after connect and before any byte is written, the process that
//     answers runs as this uid (SO_PEERCRED works on the client's end
//     too): what the daemon checks of its clients, its clients check of
//     the daemon.
//
// A refusal names what is wrong and how to fix it, and nothing was sent.
var (
	// ErrSocketNotOwned: the socket's directory or the socket is not this
	// user's own (a symbolic link, another uid's, open to others).
	ErrSocketNotOwned = errors.New("api: socket_not_owned")
	// ErrServerNotOwned: the process answering on the socket runs as
	// another uid: not this user's akk.
	ErrServerNotOwned = errors.New("api: server_not_owned")
)

// fixDir is how to get a directory akk accepts.
const fixDir = "use a directory only you can enter: set XDG_RUNTIME_DIR (e.g. /run/user/<uid>), or give --socket DIR/akk.sock in a directory of yours"

// Listen creates the socket at path: its directory 0700 (created if
// needed; an existing one must be ours, not a symbolic link, and not
// writable by others; one others may read is tightened to 0700), the
// socket 0600. A socket file nobody answers on (a daemon killed with
// SIGKILL) is removed; a live one is ErrInUse.
func Listen(path string) (*net.UnixListener, error) {
	dir := filepath.Dir(path)
	if err := PrivateDir(dir); err != nil {
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

// PrivateDir makes dir this user's private directory, or refuses it
// (ErrSocketNotOwned): created 0700 when missing; an existing one must
// be a directory (not a symbolic link: it is opened O_NOFOLLOW, so a
// victim's directory behind a link is never touched), owned by this uid,
// and not writable by group or others (what others could have put in it
// stays there); one others may only read or enter is tightened to 0700.
func PrivateDir(dir string) error {
	mkErr := os.MkdirAll(dir, 0o700) // a link to a directory: nothing made
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if fi, lerr := os.Lstat(dir); lerr == nil {
			if perr := dirProblem(dir, fi, true); perr != nil {
				return perr
			}
		}
		return fmt.Errorf("api: socket directory %s: %w", dir, errors.Join(mkErr, err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("api: socket directory %s: %w", dir, err)
	}
	if err := dirProblem(dir, fi, true); err != nil {
		return err
	}
	if fi.Mode().Perm() != 0o700 {
		if err := f.Chmod(0o700); err != nil {
			return fmt.Errorf("api: socket directory %s: %w", dir, err)
		}
	}
	return nil
}

// CheckPrivateDir is a reader's check of dir before it trusts a file of
// its own there (the MCP token, `akk web`'s announcement): a directory
// (not a symbolic link), owned by this uid, that group and others may not
// write (so nobody else put or swapped a file in it). DialOwned wants the
// socket's directory exactly 0700, as the daemon leaves it. A missing one
// is the Lstat error (fs.ErrNotExist: no daemon made it).
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	return dirProblem(dir, fi, true)
}

// dirProblem is what is wrong with the directory fi, or nil. loose: a
// mode that only others' reading or entering makes wrong is not (the
// daemon tightens it, a reader of its own 0600 file need not care);
// otherwise it must be 0700.
func dirProblem(dir string, fi fs.FileInfo, loose bool) error {
	uid := os.Getuid()
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(dir)
		return fmt.Errorf("%w: socket directory %s is a symbolic link (to %s), which akk never follows: remove the link (rm %s), or %s",
			ErrSocketNotOwned, dir, target, dir, fixDir)
	case !fi.IsDir():
		return fmt.Errorf("%w: socket directory %s is not a directory: remove it, or %s", ErrSocketNotOwned, dir, fixDir)
	}
	if owner := ownerOf(fi); owner != uid {
		return fmt.Errorf("%w: socket directory %s is owned by uid %d, not by you (uid %d): another user may have made it; %s",
			ErrSocketNotOwned, dir, owner, uid, fixDir)
	}
	perm := fi.Mode().Perm()
	if perm&0o022 != 0 || !loose && perm != 0o700 {
		return fmt.Errorf("%w: socket directory %s has mode %#o, not 0700: others may enter or write it; chmod 700 %s, or %s",
			ErrSocketNotOwned, dir, perm, dir, fixDir)
	}
	return nil
}

// checkSocketFile refuses a socket path that is not a socket of this
// uid. A missing one is the Lstat error.
func checkSocketFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	uid := os.Getuid()
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%w: %s is not a socket (mode %v): remove it, or %s", ErrSocketNotOwned, path, fi.Mode(), fixDir)
	}
	if owner := ownerOf(fi); owner != uid {
		return fmt.Errorf("%w: socket %s is owned by uid %d, not by you (uid %d): another user may have made it; %s",
			ErrSocketNotOwned, path, owner, uid, fixDir)
	}
	return nil
}

func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// DialOwned connects to the unix socket at path only when it is this
// user's own: its directory passes CheckPrivateDir, the socket is this
// uid's, and the process that answers runs as this uid (checked on the
// connected socket, before the caller writes a byte). Otherwise the
// connection (if any) is closed and the error is ErrSocketNotOwned or
// ErrServerNotOwned; a missing directory or socket is the dial's error
// (fs.ErrNotExist / ENOENT: nothing listens).
func DialOwned(ctx context.Context, path string) (net.Conn, error) {
	dir := filepath.Dir(path)
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if err := dirProblem(dir, fi, true); err != nil {
		return nil, err
	}
	// A missing socket is "nothing listens" before the directory's exact
	// mode is; either way nothing is sent.
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	if err := dirProblem(dir, fi, false); err != nil {
		return nil, err
	}
	if err := checkSocketFile(path); err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	peer, err := PeerUID(c)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrServerNotOwned, path, err)
	}
	if uid := os.Getuid(); peer != uid {
		c.Close()
		return nil, fmt.Errorf("%w: the process answering on %s runs as uid %d, not as you (uid %d): it is not your akk, and nothing was sent to it; find out who started it (ss -xlp), or %s",
			ErrServerNotOwned, path, peer, uid, fixDir)
	}
	return c, nil
}
