package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agent-knock-knock/akk/api"
)

// rootWatch tells the binder when files appear or grow under an agent's
// root (~/.claude/projects, $CODEX_HOME/sessions), so that an agent whose
// native session was not found yet is resolved again when its transcript
// or rollout is written, instead of polling. A root that does not exist
// yet is waited for through its nearest existing parent.
type rootWatch struct {
	w     *fsnotify.Watcher
	roots map[string]rootSpec // by root path
}

type rootSpec struct {
	agent string
	depth int // directory levels below the root that hold files
}

func newRootWatch(b *binder) (*rootWatch, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	rw := &rootWatch{w: w, roots: map[string]rootSpec{}}
	if r := b.s.cfg.ClaudeProjects; r != "" {
		rw.roots[filepath.Clean(r)] = rootSpec{agent: api.AgentClaude, depth: 1}
	}
	if r := b.s.cfg.CodexSessions; r != "" {
		rw.roots[filepath.Clean(r)] = rootSpec{agent: api.AgentCodex, depth: 3}
	}
	for r, sp := range rw.roots {
		rw.ensure(r, sp)
	}
	return rw, nil
}

// ensure watches root and its directories down to depth, or the nearest
// existing parent when root does not exist yet.
func (rw *rootWatch) ensure(root string, sp rootSpec) {
	if _, err := os.Stat(root); err != nil {
		for p := filepath.Dir(root); p != filepath.Dir(p); p = filepath.Dir(p) {
			if _, err := os.Stat(p); err == nil {
				_ = rw.w.Add(p)
				return
			}
		}
		return
	}
	rw.addTree(root, sp.depth)
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

// onEvent returns the agent whose root the event concerns ("" if none),
// after watching new directories.
func (rw *rootWatch) onEvent(ev fsnotify.Event) string {
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
				rw.addTree(ev.Name, sp.depth-level)
			}
		}
		return sp.agent
	}
	return ""
}

// watchRoots runs the root watch until ctx ends; each relevant event asks
// for the unresolved panes of that agent to be resolved again, at most
// every 100 ms per agent.
func (b *binder) watchRoots(ctx context.Context) {
	rw, err := newRootWatch(b)
	if err != nil {
		b.s.lg.Warn("watch agent roots", "err", err)
		return
	}
	defer rw.w.Close()
	last := map[string]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-rw.w.Errors:
			if !ok {
				return
			}
			b.s.lg.Debug("watch agent roots", "err", err)
		case ev, ok := <-rw.w.Events:
			if !ok {
				return
			}
			agent := rw.onEvent(ev)
			if agent == "" || time.Since(last[agent]) < 100*time.Millisecond {
				continue
			}
			last[agent] = time.Now()
			b.retryUnresolved(agent)
		}
	}
}
