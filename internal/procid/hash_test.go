package procid

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHasher: a file's digest is read once while its device, inode, size
// and time stay; one byte changed (same size, a new time) is another
// identity; a copy of the same bytes is the same identity; this process's
// /proc/self/exe hashes as its executable's file does; the order of the
// files and their count are part of an identity.
func TestHasher(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "agent")
	if err := os.WriteFile(bin, []byte("ELF agent 2.1.337"), 0o755); err != nil {
		t.Fatal(err)
	}
	reads := 0
	h := &Hasher{read: func(p string) (io.ReadCloser, error) { reads++; return os.Open(p) }}
	a, err := h.Identity(bin)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := h.Identity(bin); b != a || reads != 1 {
		t.Fatalf("again: %s (was %s), %d reads; want the same, 1 read", b, a, reads)
	}
	cp := filepath.Join(dir, "copy")
	os.WriteFile(cp, []byte("ELF agent 2.1.337"), 0o755)
	if c, _ := h.Identity(cp); c != a {
		t.Errorf("a copy of the same bytes: %s, want %s", c, a)
	}
	os.WriteFile(bin, []byte("ELF agent 2.1.338"), 0o755)
	later := time.Now().Add(time.Minute)
	os.Chtimes(bin, later, later)
	if b, _ := h.Identity(bin); b == a {
		t.Error("one byte changed: the same identity")
	}
	if x, y := must(h.Identity(bin, cp)), must(h.Identity(cp, bin)); x == y {
		t.Error("two files in either order: the same identity")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	self, err := h.File(ExeFile(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := h.File(exe); self != want {
		t.Errorf("/proc/self/exe %s, the executable %s", self, want)
	}
	if _, err := h.Identity(); err == nil {
		t.Error("an identity of no file")
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
