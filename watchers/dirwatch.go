package watchers

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// ErrDirWatch wraps an error the kernel's watch reported (an overflow, a
// read error): the watch goes on, but a change may have been missed, so
// the caller looks at what it waits for once more.
var ErrDirWatch = errors.New("watchers: directory watch")

// ErrDirWatchClosed: the watch was closed; nothing more will come.
var ErrDirWatchClosed = errors.New("watchers: directory watch closed")

// DirWatch reports the files created or written in one directory (not
// its subdirectories): the port's response files. It is fsnotify's face
// for the packages that must not import it.
type DirWatch struct {
	w *fsnotify.Watcher
}

// WatchDir starts watching dir. Watch before creating what will be
// answered in it, so that no change can come unseen.
func WatchDir(dir string) (*DirWatch, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDirWatch, dir, err)
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrDirWatch, dir, err)
	}
	return &DirWatch{w: w}, nil
}

// Next waits for the next file created or written in the directory and
// returns its base name. It returns ctx's error when ctx ends,
// ErrDirWatchClosed after Close, and an error wrapping ErrDirWatch when
// the kernel reported one (the watch goes on: look again).
func (d *DirWatch) Next(ctx context.Context) (string, error) {
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case err, ok := <-d.w.Errors:
			if !ok {
				return "", ErrDirWatchClosed
			}
			return "", fmt.Errorf("%w: %w", ErrDirWatch, err)
		case ev, ok := <-d.w.Events:
			if !ok {
				return "", ErrDirWatchClosed
			}
			if ev.Has(fsnotify.Create | fsnotify.Write) {
				return filepath.Base(ev.Name), nil
			}
		}
	}
}

// Close ends the watch.
func (d *DirWatch) Close() error { return d.w.Close() }
