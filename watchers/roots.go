package watchers

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// RootSpec is one agent's file root and the directory levels below it
// that hold its files (Claude projects: 1; Codex sessions/YYYY/MM/DD: 3).
type RootSpec struct {
	Path  string
	Agent Agent
	Depth int
}

// WatchRoots reports, until ctx ends, when files appear or grow under the
// agents' roots: changed(agent), at most once per 100 ms per agent. The
// daemon resolves an agent whose native session was not found yet again
// when its transcript or rollout is written, instead of polling. A root
// that does not exist yet is waited for through its nearest existing
// parent. It returns at once (logging why) if no watch can be made.
func WatchRoots(ctx context.Context, specs []RootSpec, lg *slog.Logger, changed func(Agent)) {
	rw, err := newRootWatch(specs)
	if err != nil {
		lg.Warn("watch agent roots", "err", err)
		return
	}
	defer rw.w.Close()
	last := map[Agent]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-rw.w.Errors:
			if !ok {
				return
			}
			lg.Debug("watch agent roots", "err", err)
		case ev, ok := <-rw.w.Events:
			if !ok {
				return
			}
			agent, ok := rw.onEvent(ev)
			if !ok || time.Since(last[agent]) < 100*time.Millisecond {
				continue
			}
			last[agent] = time.Now()
			changed(agent)
		}
	}
}

type rootWatch struct {
	w     *fsnotify.Watcher
	roots map[string]RootSpec // by cleaned root path
}

func newRootWatch(specs []RootSpec) (*rootWatch, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	rw := &rootWatch{w: w, roots: map[string]RootSpec{}}
	for _, sp := range specs {
		if sp.Path != "" {
			rw.roots[filepath.Clean(sp.Path)] = sp
		}
	}
	for r, sp := range rw.roots {
		rw.ensure(r, sp)
	}
	return rw, nil
}

// ensure watches root and its directories down to depth, or the nearest
// existing parent when root does not exist yet.
func (rw *rootWatch) ensure(root string, sp RootSpec) {
	if _, err := os.Stat(root); err != nil {
		for p := filepath.Dir(root); p != filepath.Dir(p); p = filepath.Dir(p) {
			if _, err := os.Stat(p); err == nil {
				_ = rw.w.Add(p)
				return
			}
		}
		return
	}
	rw.addTree(root, sp.Depth)
}

func (rw *rootWatch) addTree(dir string, depth int) {
	if err := rw.w.Add(dir); err != nil || depth == 0 {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.IsDir() {
			rw.addTree(filepath.Join(dir, e.Name()), depth-1)
		}
	}
}

// onEvent returns the agent whose root the event concerns (ok false if
// none), after watching new directories.
func (rw *rootWatch) onEvent(ev fsnotify.Event) (Agent, bool) {
	for root, sp := range rw.roots {
		rel, err := filepath.Rel(root, ev.Name)
		if err != nil || strings.HasPrefix(rel, "..") {
			if strings.HasPrefix(root, ev.Name+string(filepath.Separator)) && ev.Has(fsnotify.Create) {
				rw.ensure(root, sp) // a parent of the root appeared
			}
			continue
		}
		if ev.Has(fsnotify.Create) {
			if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
				level := len(strings.Split(rel, string(filepath.Separator)))
				if rel == "." {
					level = 0
				}
				rw.addTree(ev.Name, sp.Depth-level)
			}
		}
		return sp.Agent, true
	}
	return "", false
}
