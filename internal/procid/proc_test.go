package procid

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ProcStat
		err  bool
	}{
		{in: "4845 (bash) S 4844 4845 4845 34816 5067 4194304 1 2 3 4 5 6 7 8 20 0 1 0 58918 1 2",
			want: ProcStat{PID: 4845, Comm: "bash", State: 'S', PPID: 4844, PGRP: 4845, Session: 4845, TTYNr: 34816, TPGID: 5067, StartTime: 58918}},
		{in: "77 (a) b (c)) R 1 77 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0 0",
			want: ProcStat{PID: 77, Comm: "a) b (c)", State: 'R', PPID: 1, PGRP: 77, Session: 7, TTYNr: 0, TPGID: -1, StartTime: 99}},
		{in: "", err: true},
		{in: "1 (x) S 1 2", err: true},
		{in: "x (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", err: true},
	} {
		got, err := ParseStat([]byte(tc.in))
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseStat(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

func TestReadProcSelf(t *testing.T) {
	st, err := ReadStat(os.Getpid())
	if err != nil || st.PID != os.Getpid() || st.StartTime == 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := ReadStat(1 << 30); !errors.Is(err, ErrNoProcess) {
		t.Errorf("missing process: %v", err)
	}
}

// FuzzProcStat: /proc stat parsing never panics.
func FuzzProcStat(f *testing.F) {
	f.Add([]byte("4845 (bash) S 4844 4845 4845 34816 4845 4194304 1 2 3 4 5 6 7 8 20 0 1 0 58918 1 2"))
	f.Add([]byte("1 (a) b) (c) R 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseStat(b) })
}

// TestTmuxForeground: the foreground job of a real pane's terminal, with
// and without a job in the foreground.
func TestTmuxForeground(t *testing.T) {
	tmuxtest.RequireTmux(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	srv := tmuxtest.Start(t, 80, 24, "cd "+dir+" && exec bash --norc --noprofile -i")
	pid, err := strconv.Atoi(strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", "main", "#{pane_pid}"))))
	if err != nil {
		t.Fatal(err)
	}
	info := struct{ PID int }{pid}
	// Until the shell runs interactively its terminal may have no
	// foreground group yet (tpgid -1).
	var fg Foreground
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fg, err = ForegroundOf(info.PID); err == nil && fg.PGID == info.PID {
			break
		}
	}
	if err != nil || fg.PGID != info.PID || fg.Leader.Stat.PID != info.PID || fg.Leader.Cwd != dir {
		t.Fatalf("idle shell: %+v %v", fg, err)
	}
	// A foreground pipeline: the group is its first process's.
	srv.MustRun("send-keys", "-t", "main", "-l", "sleep 30 | cat")
	srv.MustRun("send-keys", "-t", "main", "Enter")
	// A read between the exec and its arguments sees an empty cmdline
	// (procid.Inconclusive's race): wait for a conclusive one.
	var job Foreground
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if job, err = ForegroundOf(info.PID); err == nil && job.Leader.Stat.Comm == "sleep" && len(job.Members) == 2 &&
			len(job.Leader.Argv) > 0 {
			break
		}
	}
	if job.PGID == info.PID || job.Leader.Stat.Comm != "sleep" || len(job.Members) != 2 {
		t.Fatalf("foreground job: %+v (%v)", job, err)
	}
	if filepath.Base(job.Leader.Exe) != "sleep" || strings.Join(job.Leader.Argv, " ") != "sleep 30" {
		t.Errorf("leader exe %q argv %q", job.Leader.Exe, job.Leader.Argv)
	}
	// (pid, starttime) is the incarnation.
	st, _ := ReadStat(job.PGID)
	if st.StartTime != job.Leader.Stat.StartTime || st.StartTime == 0 {
		t.Errorf("starttime %d vs %d", st.StartTime, job.Leader.Stat.StartTime)
	}
	srv.MustRun("send-keys", "-t", "main", "C-c")
}

func member(pid int, comm string, argv ...string) Process {
	return Process{Stat: ProcStat{PID: pid, Comm: comm, PGRP: pid, StartTime: 100}, Argv: argv}
}

func groupOf(agent string, ms ...Process) Identity {
	lead := ms[0].Stat
	return Identity{PGID: lead.PID, LeaderStart: lead.StartTime, Members: ms, Agent: agent,
		AgentPID: lead.PID, AgentStart: lead.StartTime, LeaderComm: lead.Comm, Command: lead.Comm}
}

func TestIdentityInconclusive(t *testing.T) {
	shell := groupOf(AgentNone, member(10, "sh", "sh"))
	cases := []struct {
		name string
		old  *Identity
		p    Identity
		want string
	}{
		{"an agent found", nil, groupOf("codex", member(20, "node", "node", "codex"), member(21, "codex", "codex")), ""},
		{"the pane's first read", nil, shell, InconclusiveNewGroup},
		{"the same shell again", &shell, shell, ""},
		// The exec has given the process its new name, but
		// /proc/<pid>/cmdline reads empty until the arguments are set up.
		{"between exec and its arguments", &shell, groupOf(AgentNone, member(10, "akk")), InconclusiveMidExec},
		{"a launcher alone", &shell, groupOf(AgentNone, member(20, "node", "node", "/usr/bin/codex")), InconclusiveLauncher},
		{"a launcher alone, read again", ptr(groupOf(AgentNone, member(20, "node", "node", "x"))),
			groupOf(AgentNone, member(20, "node", "node", "x")), InconclusiveLauncher},
		// A shell forked for a command leads a new group under the
		// shell's own name until it execs.
		{"a forked shell before its exec", &shell, groupOf(AgentNone, member(30, "sh", "sh")), InconclusiveNewGroup},
		{"a plain command, read again", ptr(groupOf(AgentNone, member(30, "ls", "ls"))),
			groupOf(AgentNone, member(30, "ls", "ls")), ""},
		// dash -c forks even the last command: the agent appears as
		// the shell's child, in its group, whenever the script gets
		// there. Not inconclusive (no schedule would find it) but
		// Launching: read again as the pane draws.
		{"a shell running a command string, read again", ptr(scriptGroup(member(40, "sh", "sh", "-c", "read x; claude"))),
			scriptGroup(member(40, "sh", "sh", "-c", "read x; claude")), ""},
		{"a wrapper script, read again", ptr(scriptGroup(member(41, "bash", "/bin/bash", "./run-agent.sh"))),
			scriptGroup(member(41, "bash", "/bin/bash", "./run-agent.sh")), ""},
		{"an interactive login shell, read again", ptr(scriptGroup(member(42, "bash", "-bash"))),
			scriptGroup(member(42, "bash", "-bash")), ""},
		{"zsh -l, read again", ptr(scriptGroup(member(43, "zsh", "zsh", "-l"))), scriptGroup(member(43, "zsh", "zsh", "-l")), ""},
	}
	for _, c := range cases {
		if got := Inconclusive(c.old, c.p); got != c.want {
			t.Errorf("%s: inconclusive = %q, want %q", c.name, got, c.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// scriptGroup is a group of one process with no agent, classified as
// Classify does the leader.
func scriptGroup(m Process) Identity {
	p := groupOf(AgentNone, m)
	p.LeaderScript = scriptShell(m.Stat.Comm, m.Argv)
	return p
}

// fakeInstall lays out an npm install of an agent under a temp dir and
// returns the native binary's path.
func fakeInstall(t *testing.T, pkgDir, name, version, bin string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(pkgDir, bin)), 0o755); err != nil {
		t.Fatal(err)
	}
	pj := `{"name":"` + name + `","version":"` + version + `"}`
	if err := os.WriteFile(filepath.Join(pkgDir, "package.json"), []byte(pj), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(pkgDir, bin)
	if err := os.WriteFile(exe, []byte("ELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

func proc(pid int, comm, exe string, argv ...string) Process {
	return Process{Stat: ProcStat{PID: pid, Comm: comm, StartTime: uint64(pid * 10)}, Exe: exe, Argv: argv, Cwd: "/src"}
}

// child sets p's parent.
func child(p Process, ppid int) Process {
	p.Stat.PPID = ppid
	return p
}

// procIn is proc with its cwd.
func procIn(pid int, comm, exe, cwd string, argv ...string) Process {
	p := proc(pid, comm, exe, argv...)
	p.Cwd = cwd
	return p
}

// testRules are rules of the shapes the agents' folders declare (each
// agent's own are tested in agents/registry): the engine's cases below
// exercise every field.
var testRules = []Rule{
	{Agent: "claude", Exes: []string{"claude", "claude.exe"}, Packages: []string{"@anthropic-ai/claude-code*"}, InstallDir: "claude"},
	{Agent: "codex", Exes: []string{"codex"}, Packages: []string{"@openai/codex*"}},
	{Agent: "gemini", NodePackage: "@google/gemini-cli", Relaunches: true},
	{Agent: "opencode", Exes: []string{"opencode", "opencode.exe"}, Packages: []string{"opencode-ai", "opencode-*"}},
}

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	codex := fakeInstall(t, filepath.Join(dir, "node_modules/@openai/codex-linux-x64"), "@openai/codex", "0.155.1-linux-x64",
		"vendor/x86_64-unknown-linux-musl/bin/codex")
	claude := fakeInstall(t, filepath.Join(dir, "node_modules/@anthropic-ai/claude-code"), "@anthropic-ai/claude-code", "2.1.267", "bin/claude.exe")
	native := filepath.Join(dir, ".local/share/claude/versions/2.1.263")
	os.MkdirAll(filepath.Dir(native), 0o755)
	os.WriteFile(native, []byte("ELF"), 0o755)
	fakeInstall(t, filepath.Join(dir, "node_modules/@google/gemini-cli"), "@google/gemini-cli", "0.61.0", "bundle/gemini.js")
	geminiBin := filepath.Join(dir, "node_modules/.bin/gemini")
	os.MkdirAll(filepath.Dir(geminiBin), 0o755)
	if err := os.Symlink("../@google/gemini-cli/bundle/gemini.js", geminiBin); err != nil {
		t.Fatal(err)
	}
	otherScript := fakeInstall(t, filepath.Join(dir, "node_modules/some-tool"), "some-tool", "1.0.0", "index.js")
	opencode := fakeInstall(t, filepath.Join(dir, "node_modules/opencode-ai"), "opencode-ai", "1.18.33", "bin/opencode.exe")
	opencodePlatform := fakeInstall(t, filepath.Join(dir, "node_modules/opencode-linux-x64"), "opencode-linux-x64", "1.18.33", "bin/opencode")
	id := NewClassifier(Options{Rules: testRules})
	for _, tc := range []struct {
		name           string
		fg             Foreground
		agent, version string
		pid            int
	}{
		{"npm codex: node launcher, native child", Foreground{PGID: 100,
			Leader:  proc(100, "node", "/usr/bin/node", "node", "codex.js"),
			Members: []Process{proc(101, "codex", codex), proc(100, "node", "/usr/bin/node")}}, "codex", "0.155.1", 101},
		{"npm claude: the native ELF", Foreground{PGID: 200, Leader: proc(200, "claude", claude),
			Members: []Process{proc(200, "claude", claude)}}, "claude", "2.1.267", 200},
		{"native installer", Foreground{PGID: 300, Leader: proc(300, "claude", native+" (deleted)"),
			Members: []Process{proc(300, "claude", native+" (deleted)")}}, "claude", "2.1.263", 300},
		// Codex runs a sandbox helper from its own binary (through an
		// arg0 link) in its foreground group: the agent stays the parent.
		{"codex with its sandbox helper", Foreground{PGID: 110,
			Leader: proc(110, "node", "/usr/bin/node", "node", "codex.js"),
			Members: []Process{proc(110, "node", "/usr/bin/node"), child(proc(111, "codex", codex), 110),
				child(proc(112, "codex-linux-san", codex, "codex-linux-sandbox", "--", codex, "--codex-run-as-fs-helper"), 111)}},
			"codex", "0.155.1", 111},
		{"a shell", Foreground{PGID: 400, Leader: proc(400, "bash", "/usr/bin/bash"),
			Members: []Process{proc(400, "bash", "/usr/bin/bash")}}, AgentNone, "", 400},
		{"a binary named codex without a package", Foreground{PGID: 500, Leader: proc(500, "codex", "/opt/codex"),
			Members: []Process{proc(500, "codex", "/opt/codex")}}, "codex", "", 500},
		// Gemini CLI: node runs npm's .bin link to the bundle, then
		// relaunches itself with a larger heap; the child is the agent.
		{"gemini: node script, relaunched", Foreground{PGID: 600, Leader: proc(600, "node", "/usr/bin/node", "node", geminiBin),
			Members: []Process{proc(600, "node", "/usr/bin/node", "node", geminiBin),
				child(proc(601, "node", "/usr/bin/node", "/usr/bin/node", "--max-old-space-size=12052", geminiBin), 600)}},
			"gemini", "0.61.0", 601},
		{"gemini without the relaunch", Foreground{PGID: 610, Leader: proc(610, "node", "/usr/bin/node", "node", "../@google/gemini-cli/bundle/gemini.js"),
			Members: []Process{procIn(610, "node", "/usr/bin/node", filepath.Dir(geminiBin), "node", "../@google/gemini-cli/bundle/gemini.js")}},
			"gemini", "0.61.0", 610},
		// Parent links read at different moments may loop (a pid
		// reused between reads): the walk stops.
		{"gemini: parent links that loop", Foreground{PGID: 640, Leader: child(proc(640, "node", "/usr/bin/node", "node", geminiBin), 641),
			Members: []Process{child(proc(640, "node", "/usr/bin/node", "node", geminiBin), 641),
				child(proc(641, "node", "/usr/bin/node", "node", geminiBin), 640)}},
			"gemini", "0.61.0", 640},
		{"node running another script", Foreground{PGID: 620, Leader: proc(620, "node", "/usr/bin/node", "node", otherScript),
			Members: []Process{proc(620, "node", "/usr/bin/node", "node", otherScript)}}, AgentNone, "", 620},
		{"node -e naming the gemini bundle", Foreground{PGID: 630, Leader: proc(630, "node", "/usr/bin/node", "node", "-e", geminiBin),
			Members: []Process{proc(630, "node", "/usr/bin/node", "node", "-e", geminiBin)}}, AgentNone, "", 630},
		{"opencode: npm's copy of the native binary", Foreground{PGID: 700, Leader: proc(700, "opencode.exe", opencode),
			Members: []Process{proc(700, "opencode.exe", opencode)}}, "opencode", "1.18.33", 700},
		{"opencode: the platform package's binary", Foreground{PGID: 710, Leader: proc(710, "opencode", opencodePlatform),
			Members: []Process{proc(710, "opencode", opencodePlatform)}}, "opencode", "1.18.33", 710},
		{"a binary named opencode without a package", Foreground{PGID: 720, Leader: proc(720, "opencode", "/opt/opencode"),
			Members: []Process{proc(720, "opencode", "/opt/opencode")}}, "opencode", "", 720},
	} {
		p := id.Classify(tc.fg)
		if p.Agent != tc.agent || p.Version != tc.version || p.AgentPID != tc.pid {
			t.Errorf("%s: agent %q version %q pid %d (%s); want %q %q %d", tc.name, p.Agent, p.Version, p.AgentPID, p.Why, tc.agent, tc.version, tc.pid)
		}
	}
}

func TestVersionCachedByPathAndMtime(t *testing.T) {
	dir := t.TempDir()
	exe := fakeInstall(t, dir, "@anthropic-ai/claude-code", "2.1.263", "bin/claude")
	id := NewClassifier(Options{Rules: testRules})
	reads := 0
	read := func(p string) (any, error) { reads++; return readPackage(p) }
	pj := filepath.Join(dir, "package.json")
	for range 3 {
		id.fact(pj, read)
	}
	if reads != 1 {
		t.Fatalf("package.json read %d times, want 1", reads)
	}
	os.WriteFile(pj, []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.267"}`), 0o644)
	future := time.Now().Add(time.Hour)
	os.Chtimes(pj, future, future)
	if _, v, _ := id.agentOf(proc(1, "claude", exe)); v != "2.1.267" {
		t.Fatalf("version after the update = %q", v)
	}
	if got := stripPlatform("0.155.1-linux-x64"); got != "0.155.1" {
		t.Errorf("stripPlatform = %q", got)
	}
	if got := replicaFile([]string{"--speed", "2", "x.cast"}); got != "x.cast" {
		t.Errorf("replicaFile = %q", got)
	}
}
