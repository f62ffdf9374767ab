package registry

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// TestProcessRules: each agent's own rule recognises its installation as
// the registry hands it to the daemon: the npm packages' binaries and
// their platform packages, Claude Code's native installer, Gemini CLI's
// Node script through npm's .bin link; another package's binary of the
// same name is the agent with its version unknown, and a node script of
// another package is no agent.
func TestProcessRules(t *testing.T) {
	dir := t.TempDir()
	install := func(pkgDir, name, version, bin string) string {
		t.Helper()
		full := filepath.Join(dir, pkgDir)
		if err := os.MkdirAll(filepath.Join(full, filepath.Dir(bin)), 0o755); err != nil {
			t.Fatal(err)
		}
		if name != "" {
			os.WriteFile(filepath.Join(full, "package.json"), []byte(`{"name":"`+name+`","version":"`+version+`"}`), 0o644)
		}
		exe := filepath.Join(full, bin)
		os.WriteFile(exe, []byte("ELF"), 0o755)
		return exe
	}
	gemini := install("node_modules/@google/gemini-cli", "@google/gemini-cli", "0.61.0", "bundle/gemini.js")
	other := install("node_modules/some-tool", "some-tool", "1.0.0", "index.js")
	id := procid.NewClassifier(procid.Options{Rules: ProcessRules()})
	for _, tc := range []struct {
		name, exe      string
		argv           []string
		agent, version string
	}{
		{"claude npm", install("node_modules/@anthropic-ai/claude-code", "@anthropic-ai/claude-code", "2.1.267", "bin/claude.exe"), nil, "claude", "2.1.267"},
		{"claude native", install(".local/share/claude/versions", "", "", "2.1.332"), nil, "claude", "2.1.332"},
		{"codex platform package", install("node_modules/@openai/codex-linux-x64", "@openai/codex", "0.171.0-linux-x64", "vendor/bin/codex"), nil, "codex", "0.171.0"},
		{"codex elsewhere", install("opt", "", "", "codex"), nil, "codex", ""},
		{"opencode npm", install("node_modules/opencode-ai", "opencode-ai", "1.18.33", "bin/opencode.exe"), nil, "opencode", "1.18.33"},
		{"opencode platform package", install("node_modules/opencode-linux-x64", "opencode-linux-x64", "1.18.33", "bin/opencode"), nil, "opencode", "1.18.33"},
		{"gemini node script", "/usr/bin/node", []string{"node", gemini}, "gemini", "0.61.0"},
		{"another node script", "/usr/bin/node", []string{"node", other}, procid.AgentNone, ""},
	} {
		m := procid.Process{Stat: procid.ProcStat{PID: 100, PGRP: 100, Comm: filepath.Base(tc.exe)}, Exe: tc.exe, Argv: tc.argv, Cwd: dir}
		p := id.Classify(procid.Foreground{PGID: 100, Leader: m, Members: []procid.Process{m}})
		if p.Agent != tc.agent || p.Version != tc.version {
			t.Errorf("%s: agent %q version %q (%s); want %q %q", tc.name, p.Agent, p.Version, p.Why, tc.agent, tc.version)
		}
		// What its identity hash is taken of: the running image, or a
		// Node agent's package.json and entry script.
		want := []string{procid.ExeFile(100)}
		switch {
		case tc.agent == procid.AgentNone:
			want = nil
		case tc.agent == "gemini":
			want = []string{filepath.Join(filepath.Dir(filepath.Dir(gemini)), "package.json"), gemini}
		}
		if got := id.IdentityFiles(p); !slices.Equal(got, want) {
			t.Errorf("%s: identity files %q, want %q", tc.name, got, want)
		}
	}
	for _, a := range All {
		if got, ok := Lookup(a.Name()); !ok || got.Display() == "" {
			t.Errorf("%s: lookup %v %v", a.Name(), got, ok)
		}
	}
}

// TestRoots: each agent's records root on a machine, from the home and
// the environment the daemon has (the defaults of `akk attach`).
func TestRoots(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		home string
		want map[string]string
	}{
		{nil, "/h", map[string]string{"claude": "/h/.claude/projects", "codex": "/h/.codex/sessions",
			"gemini": "/h/.gemini/tmp", "opencode": "/h/.local/share/opencode/opencode.db"}},
		{map[string]string{"CODEX_HOME": "/ch", "XDG_DATA_HOME": "/data"}, "/h", map[string]string{"claude": "/h/.claude/projects",
			"codex": "/ch/sessions", "gemini": "/h/.gemini/tmp", "opencode": "/data/opencode/opencode.db"}},
		{nil, "", map[string]string{"claude": "", "codex": "", "gemini": "", "opencode": ""}},
	} {
		for _, a := range All {
			if got := a.Root(tc.home, func(k string) string { return tc.env[k] }); got != tc.want[a.Name()] {
				t.Errorf("%s, home %q env %v: root %q, want %q", a.Name(), tc.home, tc.env, got, tc.want[a.Name()])
			}
		}
	}
}

// testOnly is an agent of the table marked as akk's own test agent.
type testOnly struct{ agents.Agent }

func (testOnly) Name() string    { return "test-only-agent" }
func (testOnly) Display() string { return "Test-only agent" }
func (testOnly) Traits() agents.Traits {
	return agents.Traits{TestOnly: true}
}

// TestUsers: an agent marked TestOnly stays in the table (Lookup, Known,
// its process rule) but out of what akk shows its users: Users, Names,
// Displays.
func TestUsers(t *testing.T) {
	saved := All
	t.Cleanup(func() { All = saved })
	users, names, displays := len(Users()), Names(","), Displays(nil)
	All = append(slices.Clone(saved[:1]), append([]agents.Agent{testOnly{saved[0]}}, saved[1:]...)...)
	if len(Users()) != users || slices.ContainsFunc(Users(), func(a agents.Agent) bool { return a.Traits().TestOnly }) {
		t.Errorf("Users() lists a test agent: %v", Users())
	}
	if Names(",") != names || Displays(nil) != displays || strings.Contains(Displays(func(agents.Agent) bool { return true }), "Test-only") {
		t.Errorf("names %q, displays %q: the test agent is shown", Names(","), Displays(nil))
	}
	if !Known("test-only-agent") || len(ProcessRules()) != len(saved)+1 {
		t.Errorf("the test agent left the table: known %v, %d rules", Known("test-only-agent"), len(ProcessRules()))
	}
}
