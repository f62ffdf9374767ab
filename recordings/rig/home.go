package rig

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Home is the isolated world of one run: HOME, the project directory the
// agent runs in, and a TMPDIR outside both.
type Home struct {
	Root string // everything of the run lives under it
	Home string
	Work string // the agent's cwd (resolved, as pwd -P gives it)
	Tmp  string
}

// NewHome makes the isolated world of a run under root: HOME, the project
// in it, a TMPDIR beside it.
func NewHome(root string) (*Home, error) {
	h := &Home{Root: root, Home: filepath.Join(root, "home"), Work: filepath.Join(root, "home", "project"),
		Tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{h.Work, h.Tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("rig: home: %w", err)
		}
	}
	work, err := filepath.EvalSymlinks(h.Work)
	if err != nil {
		return nil, fmt.Errorf("rig: home: %w", err)
	}
	h.Work = work
	return h, nil
}

// WriteFile writes content to path, making its directory.
func WriteFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	return nil
}

// moduleRoot is the repository's root (this file is recordings/rig/...).
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// BuildFakeMCP builds recordings/cmd/fakemcp, an MCP server with one echo
// tool, into the run (h.Root/bin) and returns its path, for a scenario
// that configures it as the agent's MCP server.
func BuildFakeMCP(h *Home) (string, error) {
	bin := filepath.Join(h.Root, "bin", "fakemcp")
	cmd := exec.Command("go", "build", "-o", bin, "./recordings/cmd/fakemcp")
	cmd.Dir = moduleRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("rig: build fakemcp: %v\n%s", err, out)
	}
	return bin, nil
}
