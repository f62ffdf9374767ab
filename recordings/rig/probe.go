package rig

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"
)

// Probe is what RunProbe shows its callback while the agent still runs.
type Probe struct {
	Home *Home
	// PanePID is the pane's process: the agent itself (the pane's shell
	// execs it), or a launcher whose children are the agent.
	PanePID int
	// Journal is the newest of the agent's journals under Home (its
	// JournalGlob), "" when there is none.
	Journal string
}

// RunProbe runs one scenario as Run does (the agent must be installed; it
// writes nothing) and, once the scenario's drive has finished and before
// the agent is stopped, calls probe. A probe error fails the run. It lets
// a test look at a live agent's processes and files (native identity)
// with the scenario's knowledge of when they are there.
func RunProbe(ctx context.Context, cfg Config, probe func(Probe) error) (*Result, error) {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	base, err := FindScenario(cfg.Agent, cfg.Scenario)
	if err != nil {
		return nil, err
	}
	if !base.Supports(cfg.Version) {
		return nil, fmt.Errorf("rig: scenario %s does not apply to %s %s", base.Name, cfg.Agent, cfg.Version)
	}
	in, err := Lookup(cfg.Agent, cfg.Version)
	if err != nil {
		return nil, err
	}
	sc := *base
	sc.Drive = func(s *Steps) {
		base.Drive(s)
		s.Do(func() error {
			d := s.d
			out, err := d.tmux.run(d.ctx, "display-message", "-p", "-t", session, "#{pane_pid}")
			if err != nil {
				return err
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
			if err != nil {
				return fmt.Errorf("rig: pane pid %q: %w", out, err)
			}
			return probe(Probe{Home: d.Home, PanePID: pid, Journal: d.dialect.newestJournal(d.Home.Home)})
		})
	}
	start := time.Now()
	dir, err := os.MkdirTemp("", "akk-rig-")
	if err != nil {
		return nil, fmt.Errorf("rig: %w", err)
	}
	res := &Result{Dir: dir}
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	r := &run{cfg: cfg, sc: &sc, in: in, lg: lg.With("agent", cfg.Agent, "version", cfg.Version, "scenario", sc.Name, "probe", true), dir: dir, res: res}
	err = r.do(ctx)
	res.Took = time.Since(start)
	if err != nil {
		return res, fmt.Errorf("rig: %s %s %s: %w", cfg.Agent, cfg.Version, sc.Name, err)
	}
	return res, nil
}
