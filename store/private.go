package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// The store holds the secret that derives every id, and the history: it
// is the user's alone. Its directory is 0700 and its files 0600, also
// when --store names a directory that exists with wider modes (it is
// tightened), and also for the files pebble creates (WAL, MANIFEST, sst,
// OPTIONS, marker files: pebble asks for 0666 less the umask; privateFS
// narrows each one as it is created).

// privateDir creates dir 0700, or narrows an existing one to 0700, and
// narrows the files already in it (a store an older akk left 0644) to
// 0600.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, syscall.EROFS) {
			return probeError(dir, err)
		}
		return fmt.Errorf("store: create %s: %w", dir, err)
	}
	// Lstat: a link in a shared directory (the /tmp/akk-state-<uid>
	// fallback) could be swapped while pebble opens files by path, for a
	// directory of another user's, who could then replace the store's
	// files; and a link to a directory of ours would get it chmodded.
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("store: %s: %w", dir, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("store: %s is a symbolic link, which akk does not follow for its store: give the directory's real path (--store)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("store: %s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("store: %s is owned by uid %d, not by you (uid %d): another user may have made it; remove it or give another --store", dir, st.Uid, os.Geteuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); errors.Is(err, syscall.EROFS) {
			return probeError(dir, err)
		} else if err != nil {
			return fmt.Errorf("store: make %s private (0700): %w", dir, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("store: %s: %w", dir, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(filepath.Join(dir, e.Name()), 0o600); err != nil {
				return fmt.Errorf("store: make %s private (0600): %w", e.Name(), err)
			}
		}
	}
	return nil
}

// privateFS is pebble's file system with every created file 0600 and
// every created directory 0700.
type privateFS struct{ vfs.FS }

func (fs privateFS) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	return private(fs.FS.Create(name, c))
}

func (fs privateFS) OpenReadWrite(name string, c vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	return private(fs.FS.OpenReadWrite(name, c, opts...))
}

func (fs privateFS) ReuseForWrite(oldname, newname string, c vfs.DiskWriteCategory) (vfs.File, error) {
	return private(fs.FS.ReuseForWrite(oldname, newname, c))
}

func (fs privateFS) Lock(name string) (io.Closer, error) {
	c, err := fs.FS.Lock(name)
	if err == nil {
		_ = os.Chmod(name, 0o600)
	}
	return c, err
}

func (fs privateFS) MkdirAll(dir string, _ os.FileMode) error { return fs.FS.MkdirAll(dir, 0o700) }

func private(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	if err := syscall.Fchmod(int(f.Fd()), 0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: make a new file private: %w", err)
	}
	return f, nil
}
