package rig

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// runPrefix names a run's directory under its parent.
const runPrefix = "akk-rig-"

// Sweep ends what runs cut short left under parent (Config.Parent): for
// each run directory, its tmux server (by its own socket), the processes
// that carry its HOME (the agent and its children, by pid), and the
// directory itself. It is for a daemon restarted after a crash during a
// run it started; it touches nothing outside parent. It returns how many
// run directories it removed.
func Sweep(ctx context.Context, parent string) (int, error) {
	dirs, err := filepath.Glob(filepath.Join(parent, runPrefix+"*"))
	if err != nil {
		return 0, fmt.Errorf("rig: sweep: %w", err)
	}
	var errs []error
	n := 0
	for _, dir := range dirs {
		if sock := filepath.Join(dir, "tmux.sock"); exists(sock) {
			(&tmuxServer{Socket: sock}).kill()
		}
		if err := checkNoneLeft(ctx, filepath.Join(dir, "home")); err != nil {
			// The leftovers were killed: what is left to say is that
			// there were some.
			errs = append(errs, err)
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, fmt.Errorf("rig: sweep: %w", err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
