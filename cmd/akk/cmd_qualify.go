package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	_ "github.com/agent-knock-knock/akk/agents/registry/rigs" // every agent's scenarios
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/qualify"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/store"
)

// QualifyCmd is `akk qualify [AGENT|TERMINAL] [--binary PATH] [--base
// VERSION]`: prove that the agent binary the user runs draws the surfaces
// akk acts on exactly as a pinned version does, offline, and store the
// record the daemon acts on (issue 41). With a daemon answering, the
// daemon runs it in the background (niced, one at a time) and this
// command follows its events; without one (or --local) it runs here and
// writes the store itself.
type QualifyCmd struct {
	DaemonFlags
	Target string `arg:"" optional:"" help:"An agent (${agents}): its command on PATH; or a terminal (%3, term_…, @REF): the binary running there (through the daemon)."`
	Binary string `help:"The agent program to qualify (default: the agent's command on PATH)." placeholder:"PATH"`
	Base   string `help:"The pinned version whose profile reads it (default: the nearest pinned version)." placeholder:"VERSION"`
	Full   bool   `help:"Run every scenario recorded for the base, not only the core set."`
	Local  bool   `help:"Run here, not in the daemon, and write the store directly (the daemon must not hold it)."`
	// Scenario runs the named scenarios only (repeatable), for a
	// maintainer chasing one surface: with it, --out and --dry-run the
	// qualification runs here.
	Scenario []string `help:"Run only these scenarios (repeatable; runs here)." placeholder:"NAME"`
	Store    string   `help:"With --local: the store directory to write the record to (default: $XDG_STATE_HOME/akk)." placeholder:"DIR"`
	DryRun   bool     `help:"Run and report, but write no record (runs here)."`
	Out      string   `help:"Keep each scenario's recording in DIR (akk recognize --explain reads them; runs here)." placeholder:"DIR" type:"path"`
}

// Run qualifies the binary and reports a line per scenario as it ends.
func (c *QualifyCmd) Run(ctx context.Context, cl *api.Client, g *Globals, lg *slog.Logger, stdout io.Writer, kctx *kong.Context) error {
	local := c.Local || c.DryRun || c.Out != "" || len(c.Scenario) > 0
	if !local {
		if _, err := cl.Health(ctx); err == nil {
			return c.viaDaemon(ctx, cl, g, stdout, kctx.Stderr)
		} else if c.isTerminal() {
			return fmt.Errorf("qualifying the binary in %s needs the daemon: %w", c.Target, err)
		}
	}
	return c.here(ctx, g, lg, stdout, kctx.Stderr)
}

// isTerminal: the target names a terminal, not an agent.
func (c *QualifyCmd) isTerminal() bool {
	_, agent := agentreg.Lookup(c.Target)
	return c.Target != "" && !agent
}

// here runs the qualification in this process.
func (c *QualifyCmd) here(ctx context.Context, g *Globals, lg *slog.Logger, stdout, stderr io.Writer) error {
	cl := procid.NewClassifier(procid.Options{Rules: agentreg.ProcessRules()})
	bin, err := c.binary()
	if err != nil {
		return err
	}
	agent, version, err := cl.Program(bin)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.Target != "" && c.Target != agent {
		return fmt.Errorf("%w: %s is %s %s, not %s", errUsage, bin, agent, version, c.Target)
	}
	if p := recognizers.Lookup(agent, version); p.Exact && c.Base == "" {
		fmt.Fprintf(stderr, "%s %s is pinned: akk acts on it without a qualification (give --base to qualify it against another version)\n", agent, version)
		return nil
	}
	cfg := qualify.Config{Agent: agent, Binary: bin, Version: version, Base: c.Base, Full: c.Full, Scenarios: c.Scenario, OutDir: c.Out,
		Classifier: cl, Hasher: &procid.Hasher{}, Logger: lg}
	if home, err := os.UserHomeDir(); err == nil {
		cfg.Environs = qualify.UserEnvirons(agent, home)
	}
	if cfg.Base == "" {
		if cfg.Base, err = qualify.Nearest(agent, version); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "qualifying %s %s (%s) against %s%s, offline: a private tmux server, a throw-away HOME, the fake model on 127.0.0.1\n",
		agent, version, bin, cfg.Base, inEnvirons(cfg.Environs))
	cfg.Progress = func(sr qualify.ScenarioResult) { fmt.Fprintln(stderr, "  "+sr.Line()) }
	rep, err := qualify.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if !c.DryRun {
		if err := c.save(rep); err != nil {
			return err
		}
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(rep)
	}
	writeReport(stdout, &rep)
	return nil
}

// binary is --binary, else the agent's command on PATH.
func (c *QualifyCmd) binary() (string, error) {
	if c.Binary != "" {
		return c.Binary, nil
	}
	if c.Target == "" {
		return "", fmt.Errorf("%w: name the agent or give --binary", errUsage)
	}
	a, ok := agentreg.Lookup(c.Target)
	if !ok {
		return "", fmt.Errorf("%w: no agent %q (a terminal's binary is qualified through the daemon)", errUsage, c.Target)
	}
	p, err := exec.LookPath(a.Command())
	if err != nil {
		return "", fmt.Errorf("%w: %s is not on PATH: give --binary", errUsage, a.Command())
	}
	return p, nil
}

// save writes the report as the store's qualification record.
func (c *QualifyCmd) save(rep qualify.Report) error {
	dir := c.Store
	if dir == "" {
		dir = defaultStoreDir()
	}
	st, err := store.Open(dir, nil)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w: the daemon holds the store %s: stop akk attach to record the qualification (or --dry-run)", err, dir)
	}
	if err != nil {
		return storeError(err, dir)
	}
	defer st.Close()
	return st.PutQualification(rep.Record(time.Now()))
}

// writeReport prints the surfaces, then what failed or was not reached
// and why, with the screen of each failure.
func writeReport(w io.Writer, rep *qualify.Report) {
	passed := len(rep.Outcomes(qualify.Passed))
	fmt.Fprintf(w, "%s %s: qualified as %s on %d/%d surfaces (identity %.12s, %s)\n", rep.Agent, rep.Version, rep.Base,
		passed, len(rep.Surfaces), rep.Identity, rep.Took.Round(time.Second))
	for _, s := range rep.Surfaces {
		fmt.Fprintf(w, "  %-26s %-11s %s\n", s.Surface, s.Outcome, strings.Join(s.Scenarios, " "))
	}
	for _, sc := range rep.Scenarios {
		for _, f := range sc.Findings {
			if f.Outcome == qualify.Passed || f.Outcome == qualify.ReadOnly {
				continue
			}
			fmt.Fprintf(w, "\n%s, marker %d (%s): %s: %s\n", sc.Name, f.Marker, f.Surface, f.Outcome, f.Detail)
			if scr := cmp(f.Screen, sc.Final); scr != "" {
				fmt.Fprintln(w, indent(strings.TrimRight(scr, "\n "), "  | "))
			}
		}
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// inEnvirons says the axes a qualification runs in (" in your theme-light").
func inEnvirons(es []rig.Environ) string {
	out := ""
	for _, e := range es {
		out += " in your " + e.Suffix
	}
	return out
}
