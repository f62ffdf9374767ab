package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/binding"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Supervisor is the daemon. Build it with New, run it with Run (once).
//
// Its locks keep the order written once in doc.go ("Lock order").
type Supervisor struct {
	cfg     Config
	lg      *slog.Logger
	st      *store.Store
	secret  []byte
	ident   *procid.Classifier
	started time.Time
	binds   *binding.Binder
	tasks   *tasks.Manager // Watches, managed Turn monitors, a person's notices
	out     *outbox.Outbox // callback delivery of what the tasks notify
	disp    *dispatch.Dispatcher
	asks    *asker // questions put to a person (ask.go)
	// env is what every pane shares (set by Run, once the server is known).
	env *terminal.Env

	// writeMu serialises store writes with the wake-up of event followers,
	// so followers see events in sequence order.
	writeMu sync.Mutex

	mu        sync.Mutex  // the registry: guards the fields below
	server    tmuxServer  // replaced when a new server is adopted (server_watch.go)
	watch     serverWatch // is the server up
	sessions  map[controlmode.SessionID]*session
	panes     map[controlmode.PaneID]*terminal.Pane
	stored    map[string]store.Terminal // records not claimed by a pane yet (reconcile)
	followers map[chan struct{}]struct{}
	rescan    chan struct{} // cap 1: the session list may have changed

	wg sync.WaitGroup // session and pane goroutines
	// faultFired: the fault point FaultExitAtPrompt fired (once per daemon).
	faultFired atomic.Bool
	// profiles picks each pane's profile, a qualified binary's included.
	profiles *qualifiedProfiles
	// qual runs qualifications in the background, one at a time.
	qual *qualifier
}

// New checks cfg and prepares a supervisor; it touches neither tmux nor
// the socket until Run.
func New(cfg Config) (*Supervisor, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.ensureDefaults()
	secret, err := cfg.Store.Secret()
	if err != nil {
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	s := &Supervisor{
		cfg: cfg, lg: cfg.Logger, st: cfg.Store, secret: secret,
		ident:     procid.NewClassifier(procid.Options{Rules: agentreg.ProcessRules(), AllowReplicas: cfg.AllowReplicas, ReadReplica: readCastHeader}),
		sessions:  map[controlmode.SessionID]*session{},
		panes:     map[controlmode.PaneID]*terminal.Pane{},
		followers: map[chan struct{}]struct{}{},
		rescan:    make(chan struct{}, 1),
		watch:     serverWatch{ask: make(chan chan struct{})},
	}
	s.profiles = &qualifiedProfiles{st: cfg.Store, ident: s.ident, lg: cfg.Logger}
	s.qual = &qualifier{dir: cfg.QualifyDir, lg: cfg.Logger, st: cfg.Store, ident: s.ident, profiles: s.profiles,
		events: journal{s}, jobs: make(chan qualifyJob, 1), now: cfg.Now, stored: s.pokePanes}
	s.binds = binding.New(binding.Config{Roots: cfg.Roots, Now: cfg.Now, Logger: cfg.Logger}, bindingHost{journal{s}})
	s.out = outbox.New(outbox.Options{Config: cfg.Callbacks, Store: cfg.Store, Logger: cfg.Logger, Now: cfg.Now, Sessions: s, Places: s})
	s.tasks = tasks.New(tasks.Options{Config: cfg.Tasks, Callbacks: cfg.Callbacks, Store: cfg.Store, Secret: secret, Outbox: s.out,
		Now: cfg.Now, Logger: cfg.Logger, Host: taskHost{journal{s}}})
	s.asks = newAsker(cfg.Ask, cfg.Logger, s)
	s.disp = dispatch.New(dispatch.Config{Secret: secret, Now: cfg.Now, Logger: cfg.Logger,
		Terminals: registry{s}, Turns: s.tasks, Store: cfg.Store, Journal: journal{s}, Threads: threads{s},
		Keymaps: keymaps(cfg.Roots)})
	return s, nil
}

// Run attaches to the tmux server and supervises it until ctx ends (then
// it returns nil) or something it cannot survive happens. It reconciles
// the store with what tmux shows before serving the API.
func (s *Supervisor) Run(ctx context.Context) error {
	s.started = s.cfg.Now()
	srv, sessions, err := s.listSessions(ctx)
	if err != nil {
		if s.cfg.Listener != nil {
			s.cfg.Listener.Close()
		}
		return err
	}
	s.server = srv
	s.env = s.newEnv(srv)
	s.lg.Info("attached", "tmux", srv.Socket, "server_pid", srv.PID, "version", srv.Version, "sessions", len(sessions))
	if err := s.loadStored(); err != nil {
		return err
	}
	if err := s.disp.SettleOpen(); err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, si := range sessions {
		s.startSession(gctx, si)
	}
	if err := s.reconcile(gctx); err != nil {
		s.lg.Warn("reconcile", "err", err)
	}
	g.Go(func() error { return s.sessionLoop(gctx) })
	g.Go(func() error { return s.watchServer(gctx) })
	g.Go(func() error { return s.binds.Run(gctx) })
	g.Go(func() error { return s.tasks.Run(gctx) })
	g.Go(func() error {
		// An outbox that cannot start (its store refused) does not end
		// the daemon: the notifications wait in the store, and its error
		// is reported at shutdown, as when the tasks ran it.
		err := s.out.Run(gctx)
		<-gctx.Done()
		return err
	})
	g.Go(func() error { return s.keepAttention(gctx) })
	g.Go(func() error { return s.asks.run(gctx) })
	g.Go(func() error { return s.watchStore(gctx) })
	g.Go(func() error { return s.qual.run(gctx) })
	if s.cfg.Listener != nil {
		g.Go(func() error {
			return api.Serve(gctx, s.cfg.Listener, s, api.ServerOptions{Logger: s.lg, UID: os.Getuid()})
		})
	}
	err = g.Wait()
	s.stopAll()
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil // cancelling ctx is the only stop
	}
	return err
}

// stopAll waits for every session and pane goroutine (they end with ctx).
func (s *Supervisor) stopAll() {
	s.mu.Lock()
	for _, se := range s.sessions {
		se.client.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// poke asks the session loop to list sessions again.
func (s *Supervisor) poke() {
	select {
	case s.rescan <- struct{}{}:
	default:
	}
}

// keymaps is dispatch.Keymaps: each agent's own keybindings, beside its
// records root.
type keymaps map[string]string

func (k keymaps) Remapped(agent string) (string, error) {
	a, ok := agentreg.Lookup(agent)
	if !ok {
		return "", nil
	}
	return a.Remapped(k[agent])
}
