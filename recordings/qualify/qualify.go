package qualify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/vt"
)

// Config is one qualification.
type Config struct {
	Agent string
	// Binary is the agent program to qualify, as the user runs it (an
	// executable, or npm's .bin link to it); Version is its version
	// (procid.Classifier.Program says both).
	Binary, Version string
	// Base is the pinned version whose profile reads the binary's
	// screens; "" picks Nearest.
	Base string
	// Scenarios run in order; nil runs the agent's core set (rig.Core),
	// or with Full every scenario recorded for the base.
	Scenarios []string
	Full      bool
	// OutDir, when set, keeps each scenario's recording there (NAME.cast,
	// NAME.final.txt, the journal), as the corpus keeps a pinned
	// version's: to look at a difference, or to pin a version that passed
	// with its recordings.
	OutDir string
	// Parent is where each run's directory goes (rig.Config.Parent).
	Parent string
	// Environs change every scenario (rig.Config.Environs): the user's
	// own theme (rig.UserTheme).
	Environs []rig.Environ
	// Classifier and Hasher read the running binary's identity the way
	// the daemon does (procid.Classifier.IdentityFiles, Hasher.Identity),
	// so that the record names what the daemon will see.
	Classifier *procid.Classifier
	Hasher     *procid.Hasher
	Logger     *slog.Logger
	// Progress, when set, hears each scenario as it ends.
	Progress func(ScenarioResult)
	// Running, when set, is called in each scenario while the binary runs
	// (its identity is read then): the daemon's fault point for a kill
	// in the middle of a run.
	Running func()
}

// Outcome is what a qualification found of a surface.
type Outcome string

// Outcomes.
const (
	Passed     Outcome = "passed"      // read exactly as the base reads it, with the recorded effect
	Failed     Outcome = "failed"      // reached, and read differently or without the effect
	NotReached Outcome = "not_reached" // the run never drew it
	// ReadOnly: drawn and read exactly as the base reads it, but the rig
	// answered with a native alternative akk never sends (Enter on the
	// highlighted row, Esc), so the effect of akk's own keys is not
	// proven here. Alone it does not pass a surface.
	ReadOnly Outcome = "read_only"
)

// Finding is one marker of one scenario.
type Finding struct {
	Marker  int                 `json:"marker"`
	Surface recognizers.Surface `json:"surface"`
	Outcome Outcome             `json:"outcome"`
	// Detail says why it failed or was not reached.
	Detail string `json:"detail,omitempty"`
	// Screen is the binary's screen at the marker, for a failure.
	Screen string `json:"screen,omitempty"`
}

// ScenarioResult is one scenario's run.
type ScenarioResult struct {
	Name     string        `json:"name"`
	Took     time.Duration `json:"took_ns"`
	Err      string        `json:"error,omitempty"` // the rig's error: a wait timed out, an effect did not follow
	Findings []Finding     `json:"findings"`
	// Final is the screen the run ended on, when it did not finish.
	Final string `json:"final,omitempty"`
}

// SurfaceResult is one surface over every scenario that shows it.
type SurfaceResult struct {
	Surface   recognizers.Surface `json:"surface"`
	Outcome   Outcome             `json:"outcome"`
	Scenarios []string            `json:"scenarios"`
}

// Report is a whole qualification.
type Report struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	Base    string `json:"base"`
	// Identity is the binary's identity hash, as the daemon computes it
	// of the running process.
	Identity string `json:"identity"`
	// Environs name the axes every scenario ran in ("theme-light": the
	// user's own theme).
	Environs  []string         `json:"environs,omitempty"`
	Scenarios []ScenarioResult `json:"scenarios"`
	Surfaces  []SurfaceResult  `json:"surfaces"`
	Took      time.Duration    `json:"took_ns"`
}

// Outcomes lists the report's surfaces with outcome o.
func (r *Report) Outcomes(o Outcome) []recognizers.Surface {
	var out []recognizers.Surface
	for _, s := range r.Surfaces {
		if s.Outcome == o {
			out = append(out, s.Surface)
		}
	}
	return out
}

// ErrBase: no pinned version of the agent can be the base.
var ErrBase = errors.New("qualify: no base")

// Nearest is the pinned version of agent with recordings closest to
// version: the one that agrees with it in the most leading components,
// then the one closest in the first component they differ in (2.1.337
// is nearest 2.1.332 of 2.1.267 and 2.1.332; 0.170.0 nearest 0.171.0 of
// 0.155.1 and 0.171.0), the older of two as close.
func Nearest(agent, version string) (string, error) {
	best, bestD := "", distance{}
	for _, v := range Bases(agent) { // oldest first: a tie keeps the older
		if !recognizers.Lookup(agent, v).Exact {
			continue
		}
		if d := distanceOf(version, v); best == "" || d.less(bestD) {
			best, bestD = v, d
		}
	}
	if best == "" {
		return "", fmt.Errorf("%w: %s has no pinned version with recordings", ErrBase, agent)
	}
	return best, nil
}

// distance between two dotted versions: how many leading components they
// share (more is nearer), then how far apart the first differing one is.
type distance struct{ shared, gap int }

func (d distance) less(e distance) bool {
	return d.shared > e.shared || d.shared == e.shared && d.gap < e.gap
}

func distanceOf(a, b string) distance {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	var d distance
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx != nil || erry != nil || x != y {
			if errx == nil && erry == nil {
				d.gap = max(x-y, y-x)
			}
			return d
		}
		d.shared++
	}
	return d
}

// Run qualifies cfg.Binary. An error means the qualification could not be
// made (no base, an unknown scenario, the binary is not the agent, two
// runs saw two binaries); a surface that fails is a finding, not an
// error.
func Run(ctx context.Context, cfg Config) (Report, error) {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rep := Report{Agent: cfg.Agent, Version: cfg.Version, Base: cfg.Base}
	for _, e := range cfg.Environs {
		rep.Environs = append(rep.Environs, e.Suffix)
	}
	start := time.Now()
	if rep.Base == "" {
		b, err := Nearest(cfg.Agent, cfg.Version)
		if err != nil {
			return rep, err
		}
		rep.Base = b
	}
	base, err := baseProfile(cfg.Agent, rep.Base)
	if err != nil {
		return rep, err
	}
	names, err := scenarioSet(cfg, rep.Base)
	if err != nil {
		return rep, err
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		sr, identity, err := runOne(ctx, cfg, lg, base, name)
		if err != nil {
			return rep, err
		}
		switch {
		case identity == "":
		case rep.Identity == "":
			rep.Identity = identity
		case identity != rep.Identity:
			return rep, fmt.Errorf("qualify: %s ran as another binary (identity %.12s, before %.12s): was it updated meanwhile?", name, identity, rep.Identity)
		}
		rep.Scenarios = append(rep.Scenarios, sr)
		if cfg.Progress != nil {
			cfg.Progress(sr)
		}
	}
	if rep.Identity == "" {
		return rep, fmt.Errorf("qualify: no run of %s reached the point where its identity is read", cfg.Binary)
	}
	rep.Surfaces = Summarize(rep.Scenarios)
	rep.Took = time.Since(start)
	return rep, nil
}

// UserEnvirons are the axes a qualification of agent runs in for the user
// whose HOME is home: their own theme, read from its one named key
// (rig.UserTheme); none when they keep the rig's.
func UserEnvirons(agent, home string) []rig.Environ {
	if e, ok := rig.UserTheme(agent, home); ok {
		return []rig.Environ{e}
	}
	return nil
}

// baseProfile is the pinned profile of agent@base, which must have
// recordings to compare with.
func baseProfile(agent, base string) (recognizers.Profile, error) {
	p := recognizers.Lookup(agent, base)
	if !p.Exact || !slices.Contains(Bases(agent), base) {
		return p, fmt.Errorf("%w: %s %s is not a pinned version with recordings (have %v)", ErrBase, agent, base, Bases(agent))
	}
	return p, nil
}

// scenarioSet is what cfg runs, each recorded for base.
func scenarioSet(cfg Config, base string) ([]string, error) {
	names := cfg.Scenarios
	switch {
	case names != nil:
	case cfg.Full:
		names = Scenarios(cfg.Agent, base)
	default:
		core, err := rig.Core(cfg.Agent)
		if err != nil {
			return nil, err
		}
		names = core
	}
	for _, n := range names {
		if _, ok := Expected(cfg.Agent, base, n); !ok {
			return nil, fmt.Errorf("qualify: %s %s has no recording of scenario %q to compare with", cfg.Agent, base, n)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("qualify: no scenario to run for %s %s", cfg.Agent, base)
	}
	return names, nil
}

// runOne runs scenario name with the binary and judges its markers.
func runOne(ctx context.Context, cfg Config, lg *slog.Logger, base recognizers.Profile, name string) (ScenarioResult, string, error) {
	sr := ScenarioResult{Name: name}
	var identity string
	var identErr error
	res, runErr := rig.Run(ctx, rig.Config{Agent: cfg.Agent, Version: base.Version, Scenario: name, Logger: lg,
		OutDir: cfg.OutDir, Parent: cfg.Parent, Environs: cfg.Environs, Binary: cfg.Binary, BinaryVersion: cfg.Version, Inspect: func(pid int) {
			identity, identErr = identify(cfg, pid)
			if cfg.Running != nil {
				cfg.Running()
			}
		}})
	if ctx.Err() != nil {
		return sr, "", ctx.Err()
	}
	if identErr != nil {
		return sr, "", identErr
	}
	if res != nil {
		sr.Took = res.Took
	}
	var marks []replaycheck.Mark
	if res != nil && res.Recording != nil {
		var err error
		if marks, err = replaycheck.Read(res.Recording, base); err != nil {
			return sr, "", err
		}
	}
	if runErr != nil {
		sr.Err = runErr.Error()
		if res != nil && res.Recording != nil {
			if scr, err := res.Final.VT(vt.Options{}); err == nil {
				sr.Final = scr.String()
			}
		}
	}
	expected, _ := Expected(cfg.Agent, base.Version, name)
	sr.Findings = Judge(expected, marks, runErr)
	return sr, identity, nil
}

// identify reads the identity of the binary running in the pane whose
// first process is pid.
func identify(cfg Config, pid int) (string, error) {
	id, err := cfg.Classifier.Identify(pid)
	if err != nil {
		return "", fmt.Errorf("qualify: identify the running binary: %w", err)
	}
	if id.Agent != cfg.Agent {
		return "", fmt.Errorf("qualify: the running program is %q, not %s (%s)", id.Agent, cfg.Agent, id.Why)
	}
	files := cfg.Classifier.IdentityFiles(id)
	if len(files) == 0 {
		return "", fmt.Errorf("qualify: no identity files for the running %s", cfg.Agent)
	}
	return cfg.Hasher.Identity(files...)
}
