package binding

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

// Pane is the monitor the binder hands its results to (terminal.Pane).
type Pane interface {
	SetBinding(terminal.Binding)
	Gone() bool
}

// Host is what the binder needs of the daemon: the journal, the recorded
// bindings, and the tasks that take the bound files' evidence.
type Host interface {
	Commit(store.Change) error
	StoredBinding(terminalID string) terminal.Binding
	// Evidence hands one event of a terminal's bound file to the exact
	// Watches and Turn monitors.
	Evidence(terminalID string, generation uint64, ev watchers.Event)
}

// Config is the binder's part of the daemon's configuration.
type Config struct {
	ClaudeProjects, CodexSessions string // the agents' file roots
	Now                           func() time.Time
	Logger                        *slog.Logger
}

// Binder resolves native sessions off the pane goroutines (the file scans
// can take a while) and follows bound files through the watchers for
// durable activity.
type Binder struct {
	cfg  Config
	host Host
	lg   *slog.Logger
	wake chan struct{}

	mu      sync.Mutex // a leaf lock: guards the fields below
	pending map[Pane]bindRequest
	// unresolved: the last request of each pane whose agent's session was
	// not found; retried when files appear under the agent's root.
	unresolved map[Pane]bindRequest
	files      map[string]*boundFile // by path
	byTerm     map[string]string     // terminal id -> bound path
	watch      map[watchers.Agent]*watchers.Watcher
	events     chan watchers.Event
}

type bindRequest struct {
	id    string
	ident procid.Identity
}

// boundFile is a bound transcript/rollout: the durable state parsed so far.
type boundFile struct {
	m       Pane
	termID  string // the terminal bound to it
	state   terminal.Binding
	file    watchers.FileID
	end     int64 // parsed up to here (a line boundary)
	durable Durable
}

// New prepares a binder; Run runs it.
func New(cfg Config, host Host) *Binder {
	return &Binder{cfg: cfg, host: host, lg: cfg.Logger, wake: make(chan struct{}, 1), pending: map[Pane]bindRequest{}, unresolved: map[Pane]bindRequest{},
		files: map[string]*boundFile{}, byTerm: map[string]string{}, watch: map[watchers.Agent]*watchers.Watcher{},
		events: make(chan watchers.Event, 256)}
}

// IdentityChanged queues a resolution for the monitor's new process. It
// never blocks (the caller holds the terminal lock).
func (b *Binder) IdentityChanged(m Pane, id string, ident procid.Identity) {
	b.mu.Lock()
	b.pending[m] = bindRequest{id: id, ident: ident}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// Run resolves and follows until ctx ends.
func (b *Binder) Run(ctx context.Context) error {
	defer b.closeWatchers()
	roots := make(chan struct{})
	go func() {
		defer close(roots)
		specs := []watchers.RootSpec{{Path: b.cfg.ClaudeProjects, Agent: watchers.Claude, Depth: 1},
			{Path: b.cfg.CodexSessions, Agent: watchers.Codex, Depth: 3}}
		watchers.WatchRoots(ctx, specs, b.lg, func(a watchers.Agent) { b.retryUnresolved(string(a)) })
	}()
	defer func() { <-roots }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-b.wake:
			b.resolvePending(ctx)
		case ev := <-b.events:
			b.evidence(ev)
		}
	}
}

// retryUnresolved queues again the panes of agent whose session was not
// found (or was ambiguous).
func (b *Binder) retryUnresolved(agent string) {
	b.mu.Lock()
	n := 0
	for m, r := range b.unresolved {
		if r.ident.Agent == agent {
			if _, queued := b.pending[m]; !queued {
				b.pending[m] = r
				n++
			}
		}
	}
	b.mu.Unlock()
	if n > 0 {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

func (b *Binder) closeWatchers() {
	b.mu.Lock()
	ws := b.watch
	b.watch = map[watchers.Agent]*watchers.Watcher{}
	b.mu.Unlock()
	for _, w := range ws {
		w.Close()
	}
}

func (b *Binder) resolvePending(ctx context.Context) {
	b.mu.Lock()
	reqs := b.pending
	b.pending = map[Pane]bindRequest{}
	b.mu.Unlock()
	for m, r := range reqs {
		if ctx.Err() != nil {
			return
		}
		b.resolve(ctx, m, r)
	}
}

func (b *Binder) resolve(ctx context.Context, m Pane, r bindRequest) {
	var ni watchers.NativeIdentity
	switch {
	case r.ident.Agent == api.AgentCodex && !r.ident.Replica && b.cfg.CodexSessions != "":
		var pids []int
		for _, p := range r.ident.Members {
			pids = append(pids, p.Stat.PID)
		}
		ni, _ = watchers.ResolveCodex(ctx, watchers.CodexQuery{PIDs: pids, SessionsRoot: b.cfg.CodexSessions})
	case r.ident.Agent == api.AgentClaude && !r.ident.Replica && b.cfg.ClaudeProjects != "":
		ni, _ = watchers.ResolveClaude(ctx, watchers.ClaudeQuery{ProjectsRoot: b.cfg.ClaudeProjects,
			Cwd: r.ident.Cwd, Since: procid.StartWall(r.ident.AgentStart)})
	}
	b.lg.Debug("native session", "terminal", r.id, "agent", r.ident.Agent, "state", ni.State, "reason", ni.Reason, "path", ni.Path)
	b.adopt(ctx, m, r, ni)
}

// adopt makes ni the terminal's binding. The file it is already bound to
// stays bound as it is: parsing it afresh would move the parsed end past
// lines the watcher has read but not yet handed on, and evidence drops
// those as counted, so the tasks would never see them (a Codex turn's
// task_complete, read just as the idle screen asked for this resolution,
// left its Turn running for good).
func (b *Binder) adopt(ctx context.Context, m Pane, r bindRequest, ni watchers.NativeIdentity) {
	var st terminal.Binding
	if ni.State != "" {
		st = terminal.Binding{State: string(ni.State), SessionID: ni.SessionID, Path: ni.Path, Reason: ni.Reason}
	}
	kept := ni.State == watchers.Resolved && b.keep(r.id, ni.Path)
	if !kept {
		b.unbind(r.id)
	}
	b.mu.Lock()
	delete(b.unresolved, m)
	if ni.State != watchers.Resolved && !m.Gone() && (r.ident.Agent == api.AgentClaude || r.ident.Agent == api.AgentCodex) && !r.ident.Replica {
		b.unresolved[m] = r
	}
	b.mu.Unlock()
	// The generation is known before the file is bound: the bound file's
	// state (which evidence hands to the monitor) carries it.
	prev := b.host.StoredBinding(r.id)
	st.Generation = prev.Generation
	if prev.State != st.State || prev.SessionID != st.SessionID || prev.Path != st.Path {
		st.Generation++
		b.recordBinding(r.id, r.ident.Agent, st)
	}
	switch {
	case kept:
		b.mu.Lock()
		f := b.files[ni.Path]
		f.m, f.state = m, st
		f.durable.apply(&st)
		b.mu.Unlock()
	case ni.State == watchers.Resolved:
		b.bind(ctx, m, r.id, watchers.Agent(r.ident.Agent), ni, st).apply(&st)
	}
	m.SetBinding(st)
}

// keep says whether terminal id is bound to path already, and path is
// still the file it was bound to (not replaced by another).
func (b *Binder) keep(id, path string) bool {
	var cur watchers.FileID
	if fi, err := os.Stat(path); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			cur = watchers.FileID{Dev: uint64(st.Dev), Ino: st.Ino}
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[path]
	return b.byTerm[id] == path && f != nil && f.termID == id && cur.Ino != 0 && f.file == cur
}

func (b *Binder) recordBinding(id, agent string, st terminal.Binding) {
	rec := store.Binding{TerminalID: id, Generation: st.Generation, Agent: agent, State: st.State,
		SessionID: st.SessionID, Path: st.Path, Reason: st.Reason, Since: b.cfg.Now()}
	ev := store.Event{Type: api.EventBindingChanged, TerminalID: id, Attrs: map[string]string{
		"generation": strconv.FormatUint(st.Generation, 10), "native_identity_state": st.State,
		"native_session_id": st.SessionID}}
	if err := b.host.Commit(store.Change{Bindings: []store.Binding{rec}, Events: []store.Event{ev}}); err != nil {
		b.lg.Error("record binding", "terminal", id, "err", err)
	}
}

func (b *Binder) unbind(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := b.byTerm[id]; ok {
		delete(b.files, p)
		delete(b.byTerm, id)
	}
}

// bind parses the bound file once from its start for the current durable
// state, then has the agent's watcher follow it. The watcher reads the
// file from its start too (its parsers need the earlier lines to read
// the later ones: the turn, the pending tools), and evidence drops what
// the first parse already counted (same file, ending at or before it).
func (b *Binder) bind(ctx context.Context, m Pane, termID string, agent watchers.Agent, ni watchers.NativeIdentity, st terminal.Binding) Durable {
	durable, fid, end := ParseDurable(agent, ni.Path)
	b.mu.Lock()
	b.files[ni.Path] = &boundFile{m: m, termID: termID, state: st, file: fid, end: end, durable: durable}
	b.byTerm[termID] = ni.Path
	w := b.watch[agent]
	b.mu.Unlock()
	if w == nil {
		b.startWatcher(ctx, agent)
	}
	return durable
}

func (b *Binder) startWatcher(ctx context.Context, agent watchers.Agent) {
	opts := watchers.CodexOptions()
	root := b.cfg.CodexSessions
	if agent == watchers.Claude {
		opts, root = watchers.ClaudeOptions(), b.cfg.ClaudeProjects
	}
	// Only bound files are followed: the roots hold every past session.
	opts.Match = func(name string) bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		for p := range b.files {
			if filepath.Base(p) == name {
				return true
			}
		}
		return false
	}
	opts.Logger = b.lg.With("watcher", string(agent))
	w, err := watchers.New(opts)
	if err != nil {
		b.lg.Warn("watcher", "agent", agent, "err", err)
		return
	}
	if err := w.Add(root); err != nil {
		b.lg.Warn("watcher", "agent", agent, "root", root, "err", err)
		w.Close()
		return
	}
	b.mu.Lock()
	b.watch[agent] = w
	b.mu.Unlock()
	go func() {
		for ev := range w.Evidence() {
			select {
			case b.events <- ev:
			case <-ctx.Done():
			}
		}
	}()
}

// evidence folds one event of a bound file into its durable state.
func (b *Binder) evidence(ev watchers.Event) {
	at := ev.At()
	b.mu.Lock()
	f := b.files[at.Path]
	if f == nil || (at.File == f.file && at.End <= f.end) {
		b.mu.Unlock()
		return
	}
	if at.File == f.file {
		f.end = at.End
	}
	next := f.durable.Next(ev)
	changed := next != f.durable
	f.durable = next
	st := f.state
	next.apply(&st)
	m := f.m
	b.mu.Unlock()
	if changed {
		m.SetBinding(st)
	}
	b.host.Evidence(f.termID, st.Generation, ev)
}
