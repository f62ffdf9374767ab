package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockName is the file whose exclusive flock marks the store as in use.
// pebble has a LOCK of its own, but its error names no holder; ours says
// which process has the store so the message can tell the user what to do.
const lockName = "akk.lock"

// lockDir takes the store's lock without waiting and writes our pid into
// the lock file. The lock ends with the process (flock), so a daemon
// killed with SIGKILL leaves nothing stale behind.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is held by pid %s", ErrLocked, dir, holderPID(holder))
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

func holderPID(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "?"
	}
	return s
}
