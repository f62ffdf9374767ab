package rig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// builtAgent is an agent built from source (here a shell script the
// build writes) that talks to no model: it prompts "ready> ", writes one
// journal line under its HOME, and answers a line.
const builtAgent = "rig-built-test"

// builtProgram is the program builtBuild writes.
const builtProgram = `#!/bin/sh
mkdir -p "$HOME/.built" && printf '{"line":1}\n' > "$HOME/.built/j.jsonl"
printf 'ready> '
read line
printf 'you said %s\n' "$line"
read line
`

var builtVersions []string // the versions builtBuild was asked for

func builtBuild(_ context.Context, version, dir string) error {
	builtVersions = append(builtVersions, version)
	if version != "1.0.0" {
		return fmt.Errorf("the source is 1.0.0, not %s", version)
	}
	return os.WriteFile(filepath.Join(dir, "prog"), []byte(builtProgram), 0o755)
}

func init() {
	idle := &Scenario{Name: "idle", Agent: builtAgent, Width: 60, Height: 10, Drive: func(s *Steps) {
		s.Screen("ready>")
		s.Mark("idle", ComposerEmpty)
		s.Type("hi")
		s.Key("Enter")
		s.Screen("you said hi")
		s.Journal("its line", func(m map[string]any) bool { return m["line"] == 1.0 })
	}}
	Register(Agent{Name: builtAgent, Bin: "prog", Build: builtBuild,
		World: func(h *Home, _ *Scenario, _, url string) ([]string, error) {
			if url != "" {
				return nil, fmt.Errorf("a model URL %q for an agent without a model", url)
			}
			return []string{"HOME=" + h.Home, "PATH=/usr/bin:/bin", "TERM=xterm-256color"}, nil
		},
		JournalGlob: ".built/*.jsonl", JournalKind: "built", Scenarios: []*Scenario{idle}})
}

// TestBuild: an agent built from source is built into the directory
// given, for the version asked (its Build's error named), never looked
// up in or installed into the cache; an npm agent is not built; an agent
// without a model has an empty script.
func TestBuild(t *testing.T) {
	ctx, lg := context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := filepath.Join(t.TempDir(), "b")
	in, err := Build(ctx, lg, builtAgent, "1.0.0", dir)
	if err != nil || in.Bin != filepath.Join(dir, "prog") || in.Dir != dir || in.Version != "1.0.0" {
		t.Fatalf("Build: %+v, %v", in, err)
	}
	if b, err := os.ReadFile(in.Bin); err != nil || string(b) != builtProgram {
		t.Errorf("the program built: %q, %v", b, err)
	}
	if _, err := Build(ctx, lg, builtAgent, "2.0.0", t.TempDir()); err == nil || !strings.Contains(err.Error(), "not 2.0.0") {
		t.Errorf("Build of another version: %v", err)
	}
	run := t.TempDir()
	if in, err := program(ctx, lg, agentFor(t, builtAgent), Config{Version: "1.0.0"}, run); err != nil || in.Bin != filepath.Join(run, "agent", "prog") {
		t.Errorf("a run's program: %+v, %v", in, err)
	}
	// A qualification's binary runs as given, built or installed agent
	// alike; a missing one is an error before anything starts.
	own := filepath.Join(t.TempDir(), "mine")
	if err := os.WriteFile(own, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if in, err := program(ctx, lg, agentFor(t, builtAgent), Config{Version: "1.0.0", Binary: own, BinaryVersion: "1.0.1"}, run); err != nil || in.Bin != own || in.Version != "1.0.1" {
		t.Errorf("a given binary: %+v, %v", in, err)
	}
	if _, err := program(ctx, lg, agentFor(t, builtAgent), Config{Version: "1.0.0", Binary: own + "-gone"}, run); err == nil {
		t.Error("a missing binary was accepted")
	}
	for _, f := range []func() error{
		func() error { _, err := Lookup(builtAgent, "1.0.0"); return err },
		func() error { _, err := Install(ctx, lg, builtAgent, "1.0.0"); return err },
	} {
		if err := f(); !errors.Is(err, errBuilt) || errors.Is(err, ErrNotInstalled) {
			t.Errorf("the cache of a built agent: %v", err)
		}
	}
	Register(Agent{Name: "rig-npm-test", Package: "npm-test", Bin: "npm-test"})
	if _, err := Build(ctx, lg, "rig-npm-test", "1.0.0", t.TempDir()); err == nil {
		t.Error("an npm agent was built")
	}
	if s := Script(builtAgent, "1.0.0"); len(s.Keywords) != 0 || s.AfterTool != nil {
		t.Errorf("the script of an agent without a model: %+v", s)
	}
	if len(builtVersions) != 3 {
		t.Errorf("Build asked for %v", builtVersions)
	}
}

func agentFor(t *testing.T, name string) *Agent {
	a, err := agentOf(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTmuxRunBuilt: a run of an agent built from source with no model
// records its scenario (the marker, the keys sent, the screen) and keeps
// its journal; the files written are the cast, the final screen and the
// journal, no model replies.
func TestTmuxRunBuilt(t *testing.T) {
	_, err := exec.LookPath("tmux")
	tmuxtest.Require(t, "tmux", err == nil, "tmux not found in PATH")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out := t.TempDir()
	res, err := Run(ctx, Config{Agent: builtAgent, Version: "1.0.0", Scenario: "idle", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	ms, _, err := recordings.Markers(res.Recording)
	if err != nil || len(ms) != 1 || ms[0].State != contract.ScreenIdle {
		t.Errorf("markers %+v, %v", ms, err)
	}
	var sent []string
	for _, in := range recordings.Inputs(res.Recording) {
		sent = append(sent, string(in.Data))
	}
	if strings.Join(sent, "|") != "hi|\r" {
		t.Errorf("inputs %q", sent)
	}
	if string(res.Journal) != "{\"line\":1}\n" || !strings.Contains(string(res.Final.Capture), "you said hi") {
		t.Errorf("journal %q, final screen:\n%s", res.Journal, res.Final.Capture)
	}
	files, _ := os.ReadDir(out)
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if strings.Join(names, " ") != "idle.built.jsonl idle.cast idle.final.txt" {
		t.Errorf("files written: %v", names)
	}
}
