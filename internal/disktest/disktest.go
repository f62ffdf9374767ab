// Package disktest gives tests a small file system of their own to fill:
// a tmpfs mounted under the test's temp dir (root only) and a filler that
// writes it full to the last byte. It does not fake a disk: the store and
// the daemon meet the kernel's own ENOSPC and EROFS.
package disktest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// Tmpfs mounts a tmpfs with mount options opts ("size=2m", "size=1m,ro")
// under a temp dir of t, unmounted in cleanup. Without root, or where
// mounting is not allowed, the test skips, unless AKK_REQUIRE names root:
// then it fails (CI cannot pass it by skipping).
func Tmpfs(t testing.TB, opts string) string {
	t.Helper()
	tmuxtest.Require(t, "root", os.Geteuid() == 0, "mounting a tmpfs needs root")
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput()
	tmuxtest.Require(t, "root", err == nil, "mount tmpfs: "+string(out))
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// Fill writes dir's file system full, the last partial pages included,
// and returns a func that frees it.
func Fill(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "fill")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{64 << 10, 4096, 512, 1} {
		buf := make([]byte, n)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("fill: %v", err)
				}
				break
			}
		}
	}
	return func() { os.Remove(path) }
}
