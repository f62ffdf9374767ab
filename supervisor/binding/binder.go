package binding

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
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
	Evidence(terminalID string, generation uint64, ev evidence.Event)
	// FileBound says a terminal's file was bound afresh: the watcher hands
	// on only what is written after this, so the monitors read what it
	// already holds (a turn can end while its file is briefly unbound).
	FileBound(terminalID, path string)
}

// Config is the binder's part of the daemon's configuration.
type Config struct {
	// Roots are the agents' record roots, by agent (agents.Agent.Records
	// says what each holds); an agent with none is not resolved.
	Roots  map[string]string
	Now    func() time.Time
	Logger *slog.Logger
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
	// followed: the last request of each agent pane, resolved or not,
	// retried when files appear under the agent's root.
	followed map[Pane]bindRequest
	files    map[string]*boundFile // by path
	byTerm   map[string]string     // terminal id -> bound path
	watch    map[evidence.Agent]follower
	events   chan evidence.Event
	// transit: the native thread transitions in progress, by terminal id
	// (Expect).
	transit map[string]terminal.Transition
	// detach: sessions reconcile_binding detached, not yet recorded.
	detach map[string][]store.BindingDetach
	// seq orders the bindings handed to panes (terminal.Binding.Seq): a
	// resolution and a bound file's event each read the state under mu
	// and hand it on after, so they may arrive in the other order.
	seq uint64
}

// follower is an agent's follower of its bound records: a Watcher of
// line files, or a StoreFollower of OpenCode's store.
type follower interface {
	Evidence() <-chan evidence.Event
	Close() error
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
	file    evidence.FileID
	end     int64 // parsed up to here (a line boundary)
	durable Durable
}

// New prepares a binder; Run runs it.
func New(cfg Config, host Host) *Binder {
	return &Binder{cfg: cfg, host: host, lg: cfg.Logger, wake: make(chan struct{}, 1), pending: map[Pane]bindRequest{}, followed: map[Pane]bindRequest{},
		files: map[string]*boundFile{}, byTerm: map[string]string{}, watch: map[evidence.Agent]follower{},
		events: make(chan evidence.Event, 256), transit: map[string]terminal.Transition{},
		detach: map[string][]store.BindingDetach{}}
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
		var specs []watchers.RootSpec
		for _, a := range registry.All {
			root, rec := b.cfg.Roots[a.Name()], a.Records()
			switch {
			case root == "":
			case rec.OpenStore != nil:
				// A store grows at each commit (its -wal file).
				specs = append(specs, watchers.RootSpec{Path: filepath.Dir(root), Agent: rec.Agent})
			default:
				specs = append(specs, watchers.RootSpec{Path: root, Agent: rec.Agent, Depth: rec.Depth})
			}
		}
		watchers.WatchRoots(ctx, specs, b.lg, func(a evidence.Agent) { b.retryFollowed(string(a)) })
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

// retryFollowed queues again the panes of agent: files appeared under
// its root, which may hold a session not found before, or one a person
// moved the agent to.
func (b *Binder) retryFollowed(agent string) {
	b.mu.Lock()
	n := 0
	for m, r := range b.followed {
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
	b.watch = map[evidence.Agent]follower{}
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
	b.mu.Lock()
	tr, inTransit := b.transit[r.id]
	detached := b.detach[r.id]
	delete(b.detach, r.id)
	b.mu.Unlock()
	inc := r.ident.Incarnation()
	inTransit = inTransit && tr.Incarnation == inc
	// The conversations the process left (transitions, reconcile_binding):
	// not candidates while their files do not grow. In a transition, the
	// one it leaves joins them and the one it enters leaves them.
	stored := b.host.StoredBinding(r.id)
	left := append(thisProcess(stored.Detached, inc), detached...)
	if inTransit {
		left = append(leaving(left, tr), tr.Leave...)
	}
	quiet := terminal.Binding{Detached: left}.Quiet(inc)
	var pids []int
	for _, p := range r.ident.Members {
		pids = append(pids, p.Stat.PID)
	}
	var ni watchers.NativeIdentity
	if a, ok := registry.Lookup(r.ident.Agent); ok && !r.ident.Replica && b.cfg.Roots[a.Name()] != "" {
		q := agents.SessionQuery{PIDs: pids, Cwd: r.ident.Cwd, Since: procid.StartWall(r.ident.AgentStart), Quiet: quiet}
		if inTransit {
			q.Transition = &agents.Transition{Since: tr.Since, Target: tr.Target, Left: tr.From.SessionID}
		}
		ni = a.Resolve(ctx, b.cfg.Roots[a.Name()], q)
	}
	b.lg.Debug("native session", "terminal", r.id, "agent", r.ident.Agent, "state", ni.State, "reason", ni.Reason, "path", ni.Path, "transition", inTransit)
	if inTransit && !transitionMet(tr, ni) {
		// Not there yet (Claude writes the file at once, Codex opens the
		// resumed rollout a little later): keep the binding before, and
		// look again when files appear or the transition asks.
		b.mu.Lock()
		if !m.Gone() {
			b.followed[m] = r
		}
		b.mu.Unlock()
		return
	}
	var last *store.BindingTransition
	if inTransit {
		last = &store.BindingTransition{Op: tr.Op, Receipt: tr.Receipt, Incarnation: tr.Incarnation, Previous: tr.From.SessionID,
			Next: ni.SessionID, At: tr.Since}
		b.mu.Lock()
		delete(b.transit, r.id)
		b.mu.Unlock()
	} else if len(detached) == 0 {
		left = nil // unchanged: adopt keeps the stored list
	}
	b.adopt(ctx, m, r, ni, last, left)
}

// thisProcess is the entries of ds made for the process inc.
func thisProcess(ds []store.BindingDetach, inc string) []store.BindingDetach {
	var out []store.BindingDetach
	for _, d := range ds {
		if d.Incarnation == inc {
			out = append(out, d)
		}
	}
	return out
}

// leaving is left with the conversation tr leaves added (at its file's
// size now) and the one it enters taken out.
func leaving(left []store.BindingDetach, tr terminal.Transition) []store.BindingDetach {
	out := make([]store.BindingDetach, 0, len(left)+1)
	for _, d := range left {
		if d.SessionID != tr.Target && d.Path != tr.From.Path {
			out = append(out, d)
		}
	}
	if tr.From.Path != "" {
		if fi, err := os.Stat(tr.From.Path); err == nil {
			out = append(out, store.BindingDetach{Incarnation: tr.Incarnation, SessionID: tr.From.SessionID, Path: tr.From.Path, Size: fi.Size()})
		}
	}
	return out
}

// transitionMet says whether ni is the binding tr expects: the resumed
// session, or (new thread) a session other than the one left; Codex has
// no rollout for a new conversation until its first prompt.
func transitionMet(tr terminal.Transition, ni watchers.NativeIdentity) bool {
	if tr.Target != "" {
		return ni.State == contract.IdentityResolved && ni.SessionID == tr.Target
	}
	switch ni.State {
	case contract.IdentityResolved:
		return ni.SessionID != tr.From.SessionID
	case contract.IdentityVerifiedAbsent:
		a, ok := registry.Lookup(string(ni.Agent))
		return ok && a.Traits().NewThreadUnwritten
	}
	return false
}

// Expect holds a terminal's binding while a native thread transition
// runs: resolutions keep the binding before until they find what tr
// expects, which then becomes the binding with one generation step.
func (b *Binder) Expect(id string, tr terminal.Transition) {
	b.mu.Lock()
	b.transit[id] = tr
	b.mu.Unlock()
}

// Detach records that reconcile_binding proved d stale for the terminal's
// process, and looks for its session again without it (the caller holds
// the terminal's dispatch lock; the binder is the binding's one writer).
func (b *Binder) Detach(m Pane, id string, ident procid.Identity, d store.BindingDetach) {
	b.mu.Lock()
	b.detach[id] = append(b.detach[id], d)
	b.mu.Unlock()
	b.IdentityChanged(m, id, ident)
}

// Unexpect drops the expectation of a transition that ended without its
// binding (uncertain): the ordinary rules apply again. It reports whether
// the expectation was still held (the binding was not adopted).
func (b *Binder) Unexpect(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, held := b.transit[id]
	delete(b.transit, id)
	return held
}

// adopt makes ni the terminal's binding. The file it is already bound to
// stays bound as it is: parsing it afresh would move the parsed end past
// lines the watcher has read but not yet handed on, and evidence drops
// those as counted, so the tasks would never see them (a Codex turn's
// task_complete, read just as the idle screen asked for this resolution,
// left its Turn running for good).
//
// left, when not nil, replaces the conversations the process left (a
// transition's or reconcile_binding's new list).
func (b *Binder) adopt(ctx context.Context, m Pane, r bindRequest, ni watchers.NativeIdentity, last *store.BindingTransition, left []store.BindingDetach) {
	var st terminal.Binding
	if ni.State != "" {
		st = terminal.Binding{State: ni.State, SessionID: ni.SessionID, Path: ni.Path, Reason: ni.Reason}
	}
	if ni.State == contract.IdentityAmbiguous {
		for _, c := range ni.Candidates {
			st.Candidates = append(st.Candidates, terminal.BindingCandidate{SessionID: c.SessionID, Path: c.Path})
		}
	}
	kept := ni.State == contract.IdentityResolved && b.keep(r.id, evidence.Agent(r.ident.Agent), ni.Path)
	if !kept {
		b.unbind(r.id)
	}
	b.mu.Lock()
	delete(b.followed, m)
	// Resolved panes too: a new file under the agent's root may be a
	// person's /clear or /resume in it (its screen stays idle throughout,
	// so the pane asks for no resolution of its own).
	if !m.Gone() && registry.Known(r.ident.Agent) && !r.ident.Replica {
		b.followed[m] = r
	}
	b.mu.Unlock()
	// The generation is known before the file is bound: the bound file's
	// state (which evidence hands to the monitor) carries it.
	prev := b.host.StoredBinding(r.id)
	st.Generation, st.Last = prev.Generation, prev.Last
	st.Detached = thisProcess(prev.Detached, r.ident.Incarnation())
	if left != nil {
		st.Detached = left
	}
	if last != nil {
		st.Last = last
	} else if l := prev.Last; l != nil && l.Next == "" && l.Incarnation == r.ident.Incarnation() && unbound(prev.State) &&
		st.State == contract.IdentityResolved && st.SessionID != l.Previous {
		// Codex writes a new conversation's rollout only at its first
		// prompt: the first session this process resolves to after the
		// transition is the one it entered. Between, the new rollout may
		// be open before its session_meta is written (unavailable), a
		// window a loaded CI machine caught (TestLiveCodexThreads saw no
		// previous candidate).
		next := *l
		next.Next = st.SessionID
		st.Last = &next
	}
	switch {
	case st.State == contract.IdentityResolved:
	case prev.State == contract.IdentityResolved:
		st.Left, st.LeftPath = prev.SessionID, prev.Path
	default:
		st.Left, st.LeftPath = prev.Left, prev.LeftPath
	}
	if prev.State != st.State || prev.SessionID != st.SessionID || prev.Path != st.Path || last != nil ||
		prev.Left != st.Left || !slices.Equal(prev.Detached, st.Detached) {
		st.Generation++
		b.recordBinding(r.id, r.ident.Agent, st)
	}
	switch {
	case kept:
		b.mu.Lock()
		f := b.files[ni.Path]
		f.m, f.state = m, st
		f.durable.apply(&st)
		st.Seq = b.nextSeq()
		b.mu.Unlock()
	case ni.State == contract.IdentityResolved:
		d, seq := b.bind(ctx, m, r.id, evidence.Agent(r.ident.Agent), ni, st)
		d.apply(&st)
		st.Seq = seq
	default:
		b.mu.Lock()
		st.Seq = b.nextSeq()
		b.mu.Unlock()
	}
	m.SetBinding(st)
}

// keep says whether terminal id is bound to path already, and path is
// still the file it was bound to (not replaced by another).
func (b *Binder) keep(id string, agent evidence.Agent, path string) bool {
	cur, _ := watchers.RecordID(agent, path)
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[path]
	return b.byTerm[id] == path && f != nil && f.termID == id && cur.Ino != 0 && f.file == cur
}

func (b *Binder) recordBinding(id, agent string, st terminal.Binding) {
	rec := store.Binding{TerminalID: id, Generation: st.Generation, Agent: agent, State: st.State,
		SessionID: st.SessionID, Path: st.Path, Reason: st.Reason, Since: b.cfg.Now(), Transition: st.Last,
		Left: st.Left, LeftPath: st.LeftPath, Detached: st.Detached}
	ev := store.Event{Type: api.EventBindingChanged, TerminalID: id, Attrs: map[string]string{
		"generation": strconv.FormatUint(st.Generation, 10), "native_identity_state": string(st.State),
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
func (b *Binder) bind(ctx context.Context, m Pane, termID string, agent evidence.Agent, ni watchers.NativeIdentity, st terminal.Binding) (Durable, uint64) {
	durable, fid, end := ParseDurable(agent, ni.Path)
	b.mu.Lock()
	b.files[ni.Path] = &boundFile{m: m, termID: termID, state: st, file: fid, end: end, durable: durable}
	b.byTerm[termID] = ni.Path
	w := b.watch[agent]
	seq := b.nextSeq()
	b.mu.Unlock()
	switch w := w.(type) {
	case nil:
		b.startWatcher(ctx, agent)
	case *watchers.StoreFollower:
		w.Poke() // read the new record now: no commit may come soon
	}
	b.host.FileBound(termID, ni.Path)
	return durable, seq
}

// nextSeq is the order of a binding read now. Called with mu held.
func (b *Binder) nextSeq() uint64 {
	b.seq++
	return b.seq
}

func (b *Binder) startWatcher(ctx context.Context, agent evidence.Agent) {
	a, ok := registry.Lookup(string(agent))
	if !ok {
		return
	}
	rec, root := a.Records(), b.cfg.Roots[a.Name()]
	if rec.OpenStore != nil {
		f, err := watchers.NewStoreFollower(agent, root, func(rec string) bool {
			b.mu.Lock()
			defer b.mu.Unlock()
			return b.files[rec] != nil
		}, b.lg.With("watcher", string(agent)))
		if err != nil {
			b.lg.Warn("watcher", "agent", agent, "err", err)
			return
		}
		b.follow(ctx, agent, f)
		return
	}
	opts := watchers.Options{Agent: rec.Agent, Depth: rec.Depth}
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
	b.follow(ctx, agent, w)
}

// follow hands the follower's evidence on to Run.
func (b *Binder) follow(ctx context.Context, agent evidence.Agent, w follower) {
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
func (b *Binder) evidence(ev evidence.Event) {
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
	st.Seq = b.nextSeq()
	m := f.m
	b.mu.Unlock()
	if changed {
		m.SetBinding(st)
	}
	b.host.Evidence(f.termID, st.Generation, ev)
}

// unbound: a binding state that names no session (none open yet, or not
// readable yet).
func unbound(state contract.Identity) bool {
	return state == contract.IdentityVerifiedAbsent || state == contract.IdentityUnavailable
}
