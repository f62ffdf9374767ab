// Package uidtest runs parts of a test as a second Unix user: a squatter
// of akk's socket directory, a process of another uid answering on a
// socket, a browser's tunnel of another uid. The test runs as root; the
// other user is akkremote (scripts/install-sshd creates it for the ssh
// tier) when it exists, else nobody (65534): root may run a process as
// any uid, named or not.
//
// A child is the test binary itself, copied where the other user may run
// it (go test's build directory is 0700), started with -test.run naming
// the one test and an environment variable that sends that test down its
// child branch (the os/exec tests' pattern).
//
// It does not switch the test process's own uid: credentials are per
// process in Go, and a test that changed them would change them for every
// test of the binary.
package uidtest

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// Tier is the AKK_REQUIRE name of tests that need root.
const Tier = "root"

// User is the second user.
type User struct{ UID, GID int }

// Credential runs a process as u.
func (u User) Credential() *syscall.Credential {
	return &syscall.Credential{Uid: uint32(u.UID), Gid: uint32(u.GID)}
}

// Other is the second user. Without root the test is skipped, unless
// AKK_REQUIRE names "root": then it fails.
func Other(t testing.TB) User {
	t.Helper()
	tmuxtest.Require(t, Tier, os.Getuid() == 0, "needs root to act as a second uid (uid "+strconv.Itoa(os.Getuid())+")")
	if u, err := user.Lookup("akkremote"); err == nil {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return User{UID: uid, GID: gid}
	}
	return User{UID: 65534, GID: 65534}
}

// Child is the test binary run as u with -test.run=^test$ and env added:
// the caller sets Stdout, ExtraFiles and so on, and starts it. The copy
// is removed when t ends.
func Child(t testing.TB, u User, test string, env ...string) *exec.Cmd {
	t.Helper()
	dir := SharedDir(t, "akk-uid-")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(exe))
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.Credential()}
	return cmd
}

// SharedDir is a new directory (named from pattern, as os.MkdirTemp's)
// that every user may enter and read, for what another uid runs or reads:
// t.TempDir and go test's build directory are 0700. It is removed when t
// ends.
func SharedDir(t testing.TB, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
