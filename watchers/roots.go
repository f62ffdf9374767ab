package watchers

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/fsnotify/fsnotify"
)

// RootSpec is one agent's file root and the directory levels below it
// that hold its files (Claude projects: 1; Codex sessions/YYYY/MM/DD: 3).
type RootSpec struct {
	Path  string
	Agent evidence.Agent
	Depth int
}

// WatchRoots reports, until ctx ends, when files appear or grow under the
// agents' roots: changed(agent), at most once per rootGap per agent, and
// always once more after the last change (an event inside the gap is
// deferred to its end, never dropped: a transcript created just after its
// directory must still be seen). The daemon resolves an agent whose native
// session was not found yet again when its transcript or rollout is
// written, instead of polling. A root that does not exist yet is waited
// for through its nearest existing parent. It returns at once (logging
// why) if no watch can be made.
func WatchRoots(ctx context.Context, specs []RootSpec, lg *slog.Logger, changed func(evidence.Agent)) {
	rw, err := newRootWatch(specs)
	if err != nil {
		lg.Warn("watch agent roots", "err", err)
		return
	}
	defer rw.w.Close()
	last := map[evidence.Agent]time.Time{} // the last report
	due := map[evidence.Agent]time.Time{}  // a report owed at this time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	arm := func() { // for the earliest report owed
		var first time.Time
		for _, at := range due {
			if first.IsZero() || at.Before(first) {
				first = at
			}
		}
		if !first.IsZero() {
			timer.Reset(max(time.Until(first), time.Millisecond))
		}
	}
	owe := func(a evidence.Agent, at time.Time) {
		if at.After(due[a]) {
			due[a] = at
		}
	}
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
			agent, newDir, ok := rw.onEvent(ev)
			if !ok {
				continue
			}
			now := time.Now()
			if now.Sub(last[agent]) >= rootGap {
				last[agent] = now
				changed(agent)
			} else {
				owe(agent, last[agent].Add(rootGap)) // inside the gap: at its end, never dropped
			}
			if newDir {
				// Files made in it before its watch was added send no
				// event: report once more, a gap after it was watched.
				owe(agent, now.Add(rootGap))
			}
			timer.Stop()
			arm()
		case <-timer.C:
			now := time.Now()
			for agent, at := range due {
				if !at.After(now) {
					delete(due, agent)
					last[agent] = now
					changed(agent)
				}
			}
			arm()
		}
	}
}

// rootGap spaces the reports of one agent's root (a burst of writes is one
// resolution).
const rootGap = 100 * time.Millisecond

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
// existing parent when root does not exist yet; it says whether root is
// watched now. A directory made between the parent's look and its watch
// sends no event (MkdirAll makes the whole path at once): the path is
// looked at again after each watch, until root exists or the nearest
// parent is watched with nothing new below it.
func (rw *rootWatch) ensure(root string, sp RootSpec) bool {
	for {
		if _, err := os.Stat(root); err == nil {
			rw.addTree(root, sp.Depth)
			return true
		}
		p := filepath.Dir(root)
		for ; p != filepath.Dir(p); p = filepath.Dir(p) {
			if _, err := os.Stat(p); err == nil {
				break
			}
		}
		if rw.w.Add(p) != nil {
			return false
		}
		// The next directory toward root, made meanwhile, is not watched:
		// look again.
		rel, err := filepath.Rel(p, root)
		if err != nil {
			return false
		}
		next := filepath.Join(p, strings.Split(rel, string(filepath.Separator))[0])
		if _, err := os.Stat(next); err != nil {
			return false
		}
	}
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
// none), after watching new directories; newDir says the event made one.
func (rw *rootWatch) onEvent(ev fsnotify.Event) (agent evidence.Agent, newDir, ok bool) {
	if ev.Op&^fsnotify.Chmod == 0 {
		// A change of mode or owner says nothing of a session. SQLite
		// (OpenCode's store) changes the owner of the files every reader
		// opens: answered with a resolution, which reads the store, each
		// would feed the next.
		return "", false, false
	}
	for root, sp := range rw.roots {
		rel, err := filepath.Rel(root, ev.Name)
		if err != nil || strings.HasPrefix(rel, "..") {
			if strings.HasPrefix(root, ev.Name+string(filepath.Separator)) && ev.Has(fsnotify.Create) && rw.ensure(root, sp) {
				// A parent of the root appeared, and the root with it: its
				// files may be older than its watch.
				return sp.Agent, true, true
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
				newDir = true
			}
		}
		return sp.Agent, newDir, true
	}
	return "", false, false
}
