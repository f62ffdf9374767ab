package rig

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotInstalled: the agent is not in the cache (and installing was not
// asked for).
var ErrNotInstalled = errors.New("rig: agent not installed")

// CacheDir is $XDG_CACHE_HOME/akk/agents (~/.cache/akk/agents by default).
func CacheDir() (string, error) {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("rig: cache dir: %w", err)
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "akk", "agents"), nil
}

// Installed is an installed agent version.
type Installed struct {
	Agent   Agent
	Version string
	Dir     string // <cache>/<agent>@<version>
	Bin     string // the command to run
}

// Lookup finds agent@version in the cache.
func Lookup(agent, version string) (Installed, error) {
	a, err := agentOf(agent)
	if err != nil {
		return Installed{}, err
	}
	if a.Build != nil {
		return Installed{Agent: *a, Version: version}, fmt.Errorf("%w: %s", errBuilt, agent)
	}
	cache, err := CacheDir()
	if err != nil {
		return Installed{}, err
	}
	in := Installed{Agent: *a, Version: version, Dir: filepath.Join(cache, agent+"@"+version)}
	in.Bin = filepath.Join(in.Dir, "node_modules", ".bin", a.Bin)
	if v, err := packageVersion(filepath.Join(in.Dir, "node_modules", a.Package, "package.json")); err != nil || v != version {
		return in, fmt.Errorf("%w: %s@%s in %s", ErrNotInstalled, agent, version, in.Dir)
	}
	if _, err := os.Stat(in.Bin); err != nil {
		return in, fmt.Errorf("%w: %s: %v", ErrNotInstalled, in.Bin, err)
	}
	return in, nil
}

func packageVersion(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var p struct{ Version string }
	if err := json.Unmarshal(b, &p); err != nil {
		return "", err
	}
	return p.Version, nil
}

// errBuilt: an agent built from source (Agent.Build) is never in the
// cache.
var errBuilt = errors.New("rig: built from source (rig.Build), never installed")

// Build builds agent@version from source (Agent.Build) into dir and
// returns its program there.
func Build(ctx context.Context, lg *slog.Logger, agent, version, dir string) (Installed, error) {
	a, err := agentOf(agent)
	if err != nil {
		return Installed{}, err
	}
	in := Installed{Agent: *a, Version: version, Dir: dir, Bin: filepath.Join(dir, a.Bin)}
	if a.Build == nil {
		return in, fmt.Errorf("rig: %s is installed with npm, not built", agent)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return in, fmt.Errorf("rig: build: %w", err)
	}
	lg.Info("rig: build", "agent", agent, "version", version, "dir", dir)
	if err := a.Build(ctx, version, dir); err != nil {
		return in, fmt.Errorf("rig: build %s@%s: %w", agent, version, err)
	}
	if _, err := os.Stat(in.Bin); err != nil {
		return in, fmt.Errorf("rig: build %s@%s: %w", agent, version, err)
	}
	return in, nil
}

// program is the agent's program for a run in dir: built from source
// into it (Agent.Build), else the npm install in the cache, installed
// first when install is set.
func program(ctx context.Context, lg *slog.Logger, a *Agent, cfg Config, dir string) (Installed, error) {
	version := cfg.Version
	if cfg.Binary != "" {
		bin, err := filepath.Abs(cfg.Binary)
		if err == nil {
			_, err = os.Stat(bin)
		}
		if err != nil {
			return Installed{}, fmt.Errorf("rig: binary: %w", err)
		}
		return Installed{Agent: *a, Version: cmpOr(cfg.BinaryVersion, version), Dir: filepath.Dir(bin), Bin: bin}, nil
	}
	if a.Build != nil {
		return Build(ctx, lg, a.Name, version, filepath.Join(dir, "agent"))
	}
	in, err := Lookup(a.Name, version)
	if errors.Is(err, ErrNotInstalled) && cfg.Install {
		in, err = Install(ctx, lg, a.Name, version)
	}
	return in, err
}

// Install installs agent@version into the cache with npm unless it is
// there already. It installs into a fresh directory beside the target and
// renames it into place, so a cut-short install is never reused.
func Install(ctx context.Context, lg *slog.Logger, agent, version string) (Installed, error) {
	in, err := Lookup(agent, version)
	if err == nil || !errors.Is(err, ErrNotInstalled) {
		return in, err
	}
	if err := os.MkdirAll(filepath.Dir(in.Dir), 0o755); err != nil {
		return in, fmt.Errorf("rig: install: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(in.Dir), ".install-"+agent+"@"+version+"-")
	if err != nil {
		return in, fmt.Errorf("rig: install: %w", err)
	}
	defer os.RemoveAll(tmp)
	lg.Info("rig: npm install", "package", in.Agent.Package+"@"+version, "dir", in.Dir)
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
		"--prefix", tmp, in.Agent.Package+"@"+version)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return in, fmt.Errorf("rig: npm install %s@%s: %w: %s", in.Agent.Package, version, err, strings.TrimSpace(string(out)))
	}
	if err := os.RemoveAll(in.Dir); err != nil {
		return in, fmt.Errorf("rig: install: %w", err)
	}
	if err := os.Rename(tmp, in.Dir); err != nil {
		return in, fmt.Errorf("rig: install: %w", err)
	}
	return Lookup(agent, version)
}
