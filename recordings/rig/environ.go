package rig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The environment matrix (issue "every dialog the agents really show"):
// the idle, draft and permission-approve scenarios of each agent again in
// the environments users have and the rig's standard one is not: other
// pane sizes, an agent's other themes or backgrounds, a long working
// directory, a long model name. Each variant is its base scenario with
// one axis changed, named <base>-<axis>. The axes shared by every agent
// are here; an agent lists its axes (Agent.Environs), its own among them.

// Environ is one axis value: a name suffix and the change it makes.
type Environ struct {
	Suffix string
	Apply  func(s *Scenario)
}

// matrixBases are the scenarios every agent is recorded in each of its
// environments.
var matrixBases = []string{"idle", "draft", "permission-approve"}

// Size is the axis value of a pane of width x height, named suffix.
func Size(suffix string, width, height int) Environ {
	return Environ{suffix, func(s *Scenario) { s.Width, s.Height = width, height }}
}

// The pane sizes of the matrix.
var (
	W60  = Size("w60", 60, 24)
	W80  = Size("w80", 80, 24)
	W200 = Size("w200", 200, 40)
	W250 = Size("w250", 250, 40)
	H15  = Size("h15", 120, 15)
	H50  = Size("h50", 120, 50)
)

// Colors256 is the axis of a terminal that does not say it has true
// colour (no COLORTERM): an agent may warn, and use its 256-colour
// palette.
var Colors256 = Environ{"colors256", WithSetup(func(h *Home, env []string) ([]string, error) {
	return slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, "COLORTERM=") }), nil
})}

// Cwd120 is the axis of a 120-character project directory (MoveWork);
// configs are the files under HOME that name the project (the agent's
// World wrote them).
func Cwd120(configs ...string) Environ {
	return Environ{"cwd120", WithSetup(func(h *Home, env []string) ([]string, error) {
		return env, MoveWork(h, configs...)
	})}
}

// WithSetup chains a change after the scenario's own Setup.
func WithSetup(f func(h *Home, env []string) ([]string, error)) func(s *Scenario) {
	return func(s *Scenario) {
		prev := s.Setup
		s.Setup = func(h *Home, version, url string, env []string) ([]string, error) {
			if prev != nil {
				var err error
				if env, err = prev(h, version, url, env); err != nil {
					return env, err
				}
			}
			return f(h, env)
		}
	}
}

// WithoutEnv drops the variables named (NAME=) from env.
func WithoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// longCwd is the project directory of the cwd120 variants: 120
// characters under HOME, so the agents print a long path in their
// headers and status rows.
var longCwd = filepath.Join("projects", "client-work", "acme-corporation", "backend-services",
	"payments-reconciliation-service", "src", "internal", "adapters")

// MoveWork moves the run's project to a directory whose path is 120
// characters long, trusted as the standard one is: configs (files under
// HOME) name h.Work, rewritten here; a config that does not exist is
// skipped.
func MoveWork(h *Home, configs ...string) error {
	old := h.Work
	long := filepath.Join(h.Home, longCwd)
	for len(long) < 120 {
		long += "-x"
	}
	long = long[:120]
	if strings.HasSuffix(long, "/") {
		long = long[:119] + "x"
	}
	if err := os.MkdirAll(filepath.Dir(long), 0o755); err != nil {
		return err
	}
	if err := os.Rename(old, long); err != nil {
		return err
	}
	h.Work = long
	for _, rel := range configs {
		cfg := filepath.Join(h.Home, rel)
		b, err := os.ReadFile(cfg)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(string(b), old, long)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Variant is base in the environment e, named <base>-<suffix>.
func Variant(base *Scenario, e Environ) *Scenario {
	v := *base
	v.Name = base.Name + "-" + e.Suffix
	e.Apply(&v)
	return &v
}
