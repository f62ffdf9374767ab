package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers"
)

// bindingState is what a monitor knows of its terminal's native session.
type bindingState struct {
	Generation uint64
	State      string // watchers.IdentityState; "" until resolved once
	SessionID  string
	Path       string
	Reason     string
	Durable    string // durable_activity_state from the bound file
	// LastCall is the newest tool_use id (Claude) or call_id (Codex) the
	// bound file announced: the durable evidence that tells a new prompt
	// from a byte-identical repeat (DESIGN invariant 6).
	LastCall string
}

func (b bindingState) identityState(id *procid.Identity) string {
	if id.Agent == api.AgentNone || id.Replica || b.State == "" {
		return string(watchers.Unavailable)
	}
	return b.State
}

// durableState is durable_activity_state: the bound file's word, idle
// when the agent verifiably has no session file yet (before its first
// prompt), unknown when several files fit, unavailable otherwise.
func (b bindingState) durableState(id *procid.Identity) string {
	if id.Agent == api.AgentNone || id.Replica {
		return durableUnavailable
	}
	switch watchers.IdentityState(b.State) {
	case watchers.Resolved:
		if b.Durable == "" {
			return durableUnknown
		}
		return b.Durable
	case watchers.VerifiedAbsent:
		return durableIdle
	case watchers.Ambiguous:
		return durableUnknown
	}
	return durableUnavailable
}

func bindingFromStore(s *Supervisor, id string) bindingState {
	b, err := s.st.Binding(id)
	if err != nil {
		return bindingState{}
	}
	return bindingState{Generation: b.Generation, State: b.State, SessionID: b.SessionID, Path: b.Path, Reason: b.Reason}
}

// setBinding installs a binding result and asks for a pass to record it.
func (m *paneMonitor) setBinding(b bindingState) {
	m.mu.Lock()
	m.bind = b
	m.mu.Unlock()
	m.poke()
}

// binder resolves native sessions off the pane goroutines (the file scans
// can take a while) and follows bound files through the watchers for
// durable activity.
type binder struct {
	s    *Supervisor
	wake chan struct{}

	mu      sync.Mutex // a leaf lock: guards the fields below
	pending map[*paneMonitor]bindRequest
	// unresolved: the last request of each pane whose agent's session was
	// not found; retried when files appear under the agent's root.
	unresolved map[*paneMonitor]bindRequest
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
	m        *paneMonitor
	termID   string // the terminal bound to it
	state    bindingState
	file     watchers.FileID
	end      int64 // parsed up to here (a line boundary)
	durable  string
	lastCall string // the newest tool call id (bindingState.LastCall)
}

func newBinder(s *Supervisor) *binder {
	return &binder{s: s, wake: make(chan struct{}, 1), pending: map[*paneMonitor]bindRequest{}, unresolved: map[*paneMonitor]bindRequest{},
		files: map[string]*boundFile{}, byTerm: map[string]string{}, watch: map[watchers.Agent]*watchers.Watcher{},
		events: make(chan watchers.Event, 256)}
}

// identityChanged queues a resolution for the monitor's new process. It
// never blocks (the caller holds the terminal lock).
func (b *binder) identityChanged(m *paneMonitor, id string, ident procid.Identity) {
	b.mu.Lock()
	b.pending[m] = bindRequest{id: id, ident: ident}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *binder) run(ctx context.Context) error {
	defer b.closeWatchers()
	roots := make(chan struct{})
	go func() {
		defer close(roots)
		specs := []watchers.RootSpec{{Path: b.s.cfg.ClaudeProjects, Agent: watchers.Claude, Depth: 1},
			{Path: b.s.cfg.CodexSessions, Agent: watchers.Codex, Depth: 3}}
		watchers.WatchRoots(ctx, specs, b.s.lg, func(a watchers.Agent) { b.retryUnresolved(string(a)) })
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
func (b *binder) retryUnresolved(agent string) {
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

func (b *binder) closeWatchers() {
	b.mu.Lock()
	ws := b.watch
	b.watch = map[watchers.Agent]*watchers.Watcher{}
	b.mu.Unlock()
	for _, w := range ws {
		w.Close()
	}
}

func (b *binder) resolvePending(ctx context.Context) {
	b.mu.Lock()
	reqs := b.pending
	b.pending = map[*paneMonitor]bindRequest{}
	b.mu.Unlock()
	for m, r := range reqs {
		if ctx.Err() != nil {
			return
		}
		b.resolve(ctx, m, r)
	}
}

func (b *binder) resolve(ctx context.Context, m *paneMonitor, r bindRequest) {
	var st bindingState
	var ni watchers.NativeIdentity
	switch {
	case r.ident.Agent == api.AgentCodex && !r.ident.Replica && b.s.cfg.CodexSessions != "":
		var pids []int
		for _, p := range r.ident.Members {
			pids = append(pids, p.Stat.PID)
		}
		ni, _ = watchers.ResolveCodex(ctx, watchers.CodexQuery{PIDs: pids, SessionsRoot: b.s.cfg.CodexSessions})
	case r.ident.Agent == api.AgentClaude && !r.ident.Replica && b.s.cfg.ClaudeProjects != "":
		ni, _ = watchers.ResolveClaude(ctx, watchers.ClaudeQuery{ProjectsRoot: b.s.cfg.ClaudeProjects,
			Cwd: r.ident.Cwd, Since: procid.StartWall(r.ident.AgentStart)})
	}
	b.s.lg.Debug("native session", "terminal", r.id, "agent", r.ident.Agent, "state", ni.State, "reason", ni.Reason, "path", ni.Path)
	if ni.State != "" {
		st = bindingState{State: string(ni.State), SessionID: ni.SessionID, Path: ni.Path, Reason: ni.Reason}
	}
	b.unbind(r.id)
	b.mu.Lock()
	delete(b.unresolved, m)
	if ni.State != watchers.Resolved && !m.isGone() && (r.ident.Agent == api.AgentClaude || r.ident.Agent == api.AgentCodex) && !r.ident.Replica {
		b.unresolved[m] = r
	}
	b.mu.Unlock()
	// The generation is known before the file is bound: the bound file's
	// state (which evidence hands to the monitor) carries it.
	prev := bindingFromStore(b.s, r.id)
	st.Generation = prev.Generation
	if prev.State != st.State || prev.SessionID != st.SessionID || prev.Path != st.Path {
		st.Generation++
		b.recordBinding(r.id, r.ident.Agent, st)
	}
	if ni.State == watchers.Resolved {
		st.Durable = b.bind(ctx, m, watchers.Agent(r.ident.Agent), ni, st)
	}
	m.setBinding(st)
}

func (b *binder) recordBinding(id, agent string, st bindingState) {
	rec := store.Binding{TerminalID: id, Generation: st.Generation, Agent: agent, State: st.State,
		SessionID: st.SessionID, Path: st.Path, Reason: st.Reason, Since: b.s.cfg.Now()}
	ev := store.Event{Type: api.EventBindingChanged, TerminalID: id, Attrs: map[string]string{
		"generation": strconv.FormatUint(st.Generation, 10), "native_identity_state": st.State,
		"native_session_id": st.SessionID}}
	if _, err := b.s.commit(store.Change{Bindings: []store.Binding{rec}, Events: []store.Event{ev}}); err != nil {
		b.s.lg.Error("record binding", "terminal", id, "err", err)
	}
}

func (b *binder) unbind(id string) {
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
func (b *binder) bind(ctx context.Context, m *paneMonitor, agent watchers.Agent, ni watchers.NativeIdentity, st bindingState) string {
	durable, fid, end := parseDurable(agent, ni.Path)
	b.mu.Lock()
	b.files[ni.Path] = &boundFile{m: m, termID: m.id, state: st, file: fid, end: end, durable: durable}
	b.byTerm[m.id] = ni.Path
	w := b.watch[agent]
	b.mu.Unlock()
	if w == nil {
		b.startWatcher(ctx, agent)
	}
	return durable
}

func (b *binder) startWatcher(ctx context.Context, agent watchers.Agent) {
	opts := watchers.CodexOptions()
	root := b.s.cfg.CodexSessions
	if agent == watchers.Claude {
		opts, root = watchers.ClaudeOptions(), b.s.cfg.ClaudeProjects
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
	opts.Logger = b.s.lg.With("watcher", string(agent))
	w, err := watchers.New(opts)
	if err != nil {
		b.s.lg.Warn("watcher", "agent", agent, "err", err)
		return
	}
	if err := w.Add(root); err != nil {
		b.s.lg.Warn("watcher", "agent", agent, "root", root, "err", err)
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
func (b *binder) evidence(ev watchers.Event) {
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
	next := foldDurable(f.durable, ev)
	changed := next != f.durable
	f.durable = next
	switch e := ev.(type) {
	case watchers.ToolPending:
		changed = changed || f.lastCall != e.CallID
		f.lastCall = e.CallID
	case watchers.ApprovalRequested:
		if e.CallID != "" {
			changed = changed || f.lastCall != e.CallID
			f.lastCall = e.CallID
		}
	}
	st := f.state
	st.Durable, st.LastCall = next, f.lastCall
	m := f.m
	b.mu.Unlock()
	if changed {
		m.setBinding(st)
	}
	b.s.tasks.evidence(f.termID, st.Generation, ev) // exact Watches and Turn monitors (tasks.go)
}

// foldDurable is durable_activity_state after one event.
func foldDurable(cur string, ev watchers.Event) string {
	switch ev.(type) {
	case watchers.TurnStarted, watchers.PromptAccepted, watchers.ToolPending, watchers.ToolResult, watchers.QuestionAnswered:
		return durableWorking
	case watchers.ApprovalRequested:
		return durableAwaitingInput
	case watchers.TurnCompleted, watchers.TurnAborted, watchers.TurnFailed:
		return durableIdle
	case watchers.SessionIdentity:
		if cur == "" {
			return durableIdle
		}
	}
	return cur
}

// maxBoundParse bounds the first read of a bound file.
const maxBoundParse = 64 << 20

// parseDurable reads a bound file's complete lines once.
func parseDurable(agent watchers.Agent, path string) (durable string, id watchers.FileID, end int64) {
	f, err := os.Open(path)
	if err != nil {
		return "", id, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", id, 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id = watchers.FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	}
	if fi.Size() > maxBoundParse {
		return durableUnknown, id, 0
	}
	data := make([]byte, fi.Size())
	n, err := f.ReadAt(data, 0)
	if err != nil && !errors.Is(err, os.ErrClosed) && n < len(data) && n == 0 {
		return "", id, 0
	}
	data = data[:n]
	p := watchers.NewParser(agent)
	var out []watchers.Event
	off := int64(0)
	for len(data) > 0 {
		i := indexNL(data)
		if i < 0 {
			break
		}
		w := watchers.Where{Agent: agent, Path: path, File: id, Offset: off, End: off + int64(i) + 1, Time: time.Time{}}
		out = p.Parse(w, data[:i], out[:0])
		for _, ev := range out {
			durable = foldDurable(durable, ev)
		}
		off += int64(i) + 1
		data = data[i+1:]
	}
	return durable, id, off
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}
