package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNoSpace: the store's file system has less free space than
// Options.MinFree. A reservation is refused before it is written then:
// pebble cannot be reopened in the same process after a commit fails, so
// the daemon does not let one start that may not fit.
var ErrNoSpace = errors.New("store: file system full")

// probeName is the file Writable writes and removes.
const probeName = "akk.probe"

// FreeBytes is what the file system holding dir has free for this user.
func FreeBytes(dir string) (uint64, error) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		return 0, fmt.Errorf("store: statfs %s: %w", dir, err)
	}
	return fs.Bavail * uint64(fs.Bsize), nil
}

// Writable checks that dir can take the store's writes: at least minFree
// bytes free, and a small file written, synced and removed. It is the
// check before Open and the daemon's probe for the way back.
func Writable(dir string, minFree uint64) error {
	free, err := FreeBytes(dir)
	if err != nil {
		return err
	}
	if free < minFree {
		return fmt.Errorf("%w: %s has %s free, the store needs %s: free some space", ErrNoSpace, dir, size(free), size(minFree))
	}
	path := filepath.Join(dir, probeName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return probeError(dir, err)
	}
	_, werr := f.Write(make([]byte, 4096))
	serr := f.Sync()
	cerr := f.Close()
	rerr := os.Remove(path)
	if err := errors.Join(werr, serr, cerr, rerr); err != nil {
		return probeError(dir, err)
	}
	return nil
}

func probeError(dir string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("%w: %s is on a read-only file system", ErrUnavailable, dir)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("%w: %s: no space left", ErrNoSpace, dir)
	}
	return fmt.Errorf("%w: %s cannot be written: %v", ErrUnavailable, dir, err)
}

func size(b uint64) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", b>>10)
}

// roomFor refuses a write that guards a side effect when the file system
// is below MinFree: the store becomes unavailable (nothing is written).
func (s *Store) roomFor() error {
	free, err := FreeBytes(s.dir)
	if err != nil || free >= s.opts.MinFree || s.opts.noRoomCheck {
		return nil // statfs failing is not a reason to refuse; the write says
	}
	cause := fmt.Errorf("%w: %s has %s free, the store needs %s", ErrNoSpace, s.dir, size(free), size(s.opts.MinFree))
	s.h.fail(HealthUnavailable, "", cause)
	return fmt.Errorf("%w: %w", ErrUnavailable, cause)
}
