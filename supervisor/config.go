package supervisor

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"os"
	"strings"
	"time"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/vt"
)

// Config is every dependency of a Supervisor, given explicitly.
type Config struct {
	// Logger receives the daemon's log (required).
	Logger *slog.Logger
	// Store is the open store (required). The supervisor does not close it:
	// whoever opened it closes it after Run returns.
	Store *store.Store
	// TmuxSocket is the tmux server's socket path, always passed as -S
	// (required).
	TmuxSocket string
	// TmuxEnv is the environment of the tmux commands the supervisor runs
	// (nil: ours without TMUX and TMUX_PANE).
	TmuxEnv []string
	// Listener, if set, serves the API; Run closes it.
	Listener *net.UnixListener
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// AllowReplicas makes `akk replica` panes agents (tests, akk demo).
	AllowReplicas bool
	// Roots are the agents' record roots, by agent; an agent with none
	// given gets its own default from the home and environment
	// (agents.Agent.Root: ~/.claude/projects, $CODEX_HOME/sessions, ...).
	Roots map[string]string
	// PauseAfter is the control clients' pause-after (0: 10 s).
	PauseAfter time.Duration
	// QualifyDir is where the daemon runs qualifications (issue 41: a
	// run's HOME, tmux socket and logs, each in its own directory, swept
	// at start after a crash); "" runs none (akk qualify then runs
	// without the daemon).
	QualifyDir string
	// Qualify is what the daemon does when it meets an agent binary it
	// does not pin and no qualification covers: QualifyAsk ("": tell the
	// person's routes once), QualifyAuto, QualifyOff.
	Qualify string

	// Callbacks are the outbox's routes and retry policy; Tasks the
	// monitors' and Watches' windows.
	Callbacks outbox.Config
	Tasks     TaskConfig
	// Ask: whether a managed Turn's permission prompt is put to a person
	// through the interaction port (ask.go).
	Ask AskConfig

	// Restart is called when a store that could not be written can be
	// written again (store_watch.go): the daemon's state is on disk, and
	// pebble cannot be reopened in this process after a failed write, so
	// `akk attach` re-executes itself. nil: the daemon stays degraded
	// until it is restarted by hand. It returns only on failure.
	Restart func() error

	// recognize replaces the recognizers call (benchmarks of the pipeline).
	recognize func(agent, version string, scr *vt.Screen) terminal.Recognition
	// onCommand sees every command a control client issues (tests count
	// input commands: zero input is a count, not a screen's look).
	onCommand func(cmds []controlmode.Cmd)
}

func (c *Config) ensureDefaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.PauseAfter == 0 {
		c.PauseAfter = 10 * time.Second
	}
	c.Callbacks.EnsureDefaults()
	home, _ := os.UserHomeDir()
	roots := maps.Clone(c.Roots)
	if roots == nil {
		roots = map[string]string{}
	}
	for _, a := range agentreg.All {
		if roots[a.Name()] == "" {
			roots[a.Name()] = a.Root(home, os.Getenv)
		}
	}
	c.Roots = roots
	if c.TmuxEnv == nil {
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
				c.TmuxEnv = append(c.TmuxEnv, kv)
			}
		}
	}
}

// TaskConfig configures the managed Turn monitors and the Watches.
type TaskConfig = tasks.Config

// TurnSpec is what the managed Turn monitor follows of a Turn.
type TurnSpec = tasks.TurnSpec

// TurnLedger is the managed Turns' durable side.
type TurnLedger = tasks.TurnLedger

// ErrConfig: New was given a Config it cannot use.
var ErrConfig = errors.New("supervisor: bad config")

func (c *Config) validate() error {
	var errs []error
	if c.Logger == nil {
		errs = append(errs, fmt.Errorf("%w: Logger is required", ErrConfig))
	}
	if c.Store == nil {
		errs = append(errs, fmt.Errorf("%w: Store is required", ErrConfig))
	}
	if c.TmuxSocket == "" {
		errs = append(errs, fmt.Errorf("%w: TmuxSocket is required", ErrConfig))
	}
	errs = append(errs, c.Callbacks.Validate(), c.Ask.validate())
	return errors.Join(errs...)
}
