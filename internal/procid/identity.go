package procid

import (
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// akkMainPath is the main package of an akk binary, as its build info
// records it: how a replica's /proc/<pid>/exe is proven to be akk.
const akkMainPath = "github.com/agent-knock-knock/akk/cmd/akk"

// Agents, as the public contract names them (api.Agent*).
const (
	AgentClaude   = "claude"
	AgentCodex    = "codex"
	AgentGemini   = "gemini"
	AgentOpenCode = "opencode"
	AgentNone     = "none"
)

// Identity is what runs in a pane: its foreground process group and what
// akk makes of it (DESIGN "Identity").
type Identity struct {
	PGID        int
	LeaderStart uint64
	Members     []Process
	Agent       string // one of the Agent* ids, AgentNone for no agent
	Version     string
	Replica     bool
	AgentPID    int // the native agent (or replica) process; else the group leader
	AgentStart  uint64
	Cwd         string
	Command     string // the leader's comm
	LeaderComm  string // the leader's comm as /proc/<pgid>/stat gives it
	// LeaderScript: the leader is a shell running a command string or a
	// script, which may start the agent as its child later (Launching).
	LeaderScript bool
	// Why says how the agent was recognised (or why not), for status.
	Why string
}

// Incarnation is the identity's comparable part: a change of any of these
// is a new process incarnation.
func (p *Identity) Incarnation() string {
	return fmt.Sprintf("%d/%d/%s/%s/%d/%d/%t", p.PGID, p.LeaderStart, p.Agent, p.Version, p.AgentPID, p.AgentStart, p.Replica)
}

// Classifier classifies foreground process groups. Facts about files
// (package.json versions, akk build info, recording headers) are cached by
// path and modification time, so a look at a pane reads /proc and stats
// files but never spawns a process or re-reads an unchanged file.
type Classifier struct {
	allowReplicas bool
	readReplica   func(path string) (Replica, error)

	mu    sync.Mutex // guards cache
	cache map[string]cachedFact
}

type cachedFact struct {
	mtime time.Time
	size  int64
	ino   uint64
	val   any
}

// Replica is what a replica's recording header says it plays.
type Replica struct{ Agent, Version string }

// Options configure a Classifier.
type Options struct {
	// AllowReplicas makes `akk replica FILE` an agent (tests, akk demo).
	AllowReplicas bool
	// ReadReplica reads a recording's header (the recordings codec lives
	// above this package); required with AllowReplicas.
	ReadReplica func(path string) (Replica, error)
}

// NewClassifier returns a classifier with an empty fact cache.
func NewClassifier(o Options) *Classifier {
	return &Classifier{allowReplicas: o.AllowReplicas, readReplica: o.ReadReplica, cache: map[string]cachedFact{}}
}

// Identify reads the foreground group of the terminal panePID runs on.
func (id *Classifier) Identify(panePID int) (Identity, error) {
	fg, err := ForegroundOf(panePID)
	if err != nil {
		return Identity{}, err
	}
	return id.Classify(fg), nil
}

// Classify decides what a foreground group is. A replica is an akk binary
// whose argv[1] is "replica" (only with allowReplicas); an agent is the
// native Claude Code or Codex binary among the members (the npm codex is a
// Node launcher whose child is the native binary).
func (id *Classifier) Classify(fg Foreground) Identity {
	p := Identity{PGID: fg.PGID, Members: fg.Members, Agent: AgentNone}
	sort.Slice(p.Members, func(i, j int) bool { return p.Members[i].Stat.PID < p.Members[j].Stat.PID })
	p.LeaderStart, p.LeaderComm = fg.Leader.Stat.StartTime, fg.Leader.Stat.Comm
	p.LeaderScript = scriptShell(fg.Leader.Stat.Comm, fg.Leader.Argv)
	p.Command = fg.Leader.Stat.Comm
	p.AgentPID, p.AgentStart, p.Cwd = fg.Leader.Stat.PID, fg.Leader.Stat.StartTime, fg.Leader.Cwd
	if fg.Leader.Stat.PID == 0 && len(p.Members) > 0 {
		m := p.Members[0]
		p.Command, p.AgentPID, p.AgentStart, p.Cwd = m.Stat.Comm, m.Stat.PID, m.Stat.StartTime, m.Cwd
	}
	p.Why = "no agent binary in the foreground group"
	for _, m := range p.Members {
		if agent, version, why, ok := id.replicaOf(m); ok {
			p.Agent, p.Version, p.Replica, p.Why = agent, version, true, why
			p.AgentPID, p.AgentStart, p.Cwd = m.Stat.PID, m.Stat.StartTime, m.Cwd
			return p
		} else if why != "" {
			p.Why = why
		}
		if agent, version, why := id.agentOf(m); agent != "" {
			p.Agent, p.Version, p.Why = agent, version, why
			p.AgentPID, p.AgentStart, p.Cwd = m.Stat.PID, m.Stat.StartTime, m.Cwd
			if r, ok := id.relaunched(p.Members, m, agent); ok && relaunches[agent] {
				p.AgentPID, p.AgentStart, p.Cwd = r.Stat.PID, r.Stat.StartTime, r.Cwd
				p.Why += " (relaunched as " + strconv.Itoa(r.Stat.PID) + ")"
			}
			return p
		}
	}
	return p
}

// relaunches names the agents whose child running the same agent is the
// agent itself. Only Gemini CLI restarts itself so. Codex runs helpers
// from its own binary in its foreground group (codex-linux-sandbox ...
// --codex-run-as-fs-helper, measured on 0.155.1 at an edit's approval):
// taken for a relaunch, each made the agent's incarnation change and
// failed the managed Turn (process_changed), the CI failure of
// TestLiveCodexApplyPatch.
var relaunches = map[string]bool{AgentGemini: true}

// relaunched finds the child of m that runs the same agent again: Gemini
// CLI restarts itself in a child node with a larger heap, and the child
// draws the screen and writes the chats. It follows the chain down.
func (id *Classifier) relaunched(members []Process, m Process, agent string) (Process, bool) {
	found := false
	// At most one step per member: parent links read at different moments
	// (a pid reused between reads) could form a loop.
	for range members {
		next := slices.IndexFunc(members, func(c Process) bool {
			if c.Stat.PPID != m.Stat.PID || c.Stat.PID == m.Stat.PID {
				return false
			}
			a, _, _ := id.agentOf(c)
			return a == agent
		})
		if next < 0 {
			break
		}
		m, found = members[next], true
	}
	return m, found
}

// exePath is the executable's path without the " (deleted)" the kernel
// appends when the file was removed (a `go run` binary).
func exePath(m Process) string { return strings.TrimSuffix(m.Exe, " (deleted)") }

// agentOf recognises a native agent binary by its name and the nearest
// package.json (the npm packages), or by the native installer's layout
// (~/.local/share/claude/versions/<version>).
func (id *Classifier) agentOf(m Process) (agent, version, why string) {
	exe := exePath(m)
	if exe == "" {
		return "", "", ""
	}
	base := filepath.Base(exe)
	switch base {
	case "node", "nodejs":
		return id.nodeAgentOf(m)
	case "opencode", "opencode.exe":
		return id.opencodeOf(exe)
	case "codex", "claude", "claude.exe":
	default:
		if filepath.Base(filepath.Dir(exe)) == "versions" && filepath.Base(filepath.Dir(filepath.Dir(exe))) == "claude" && semver.MatchString(base) {
			return AgentClaude, base, "native Claude Code install " + exe
		}
		return "", "", ""
	}
	pkg, ok := id.nearestPackage(filepath.Dir(exe))
	switch {
	case ok && base == "codex" && strings.HasPrefix(pkg.Name, "@openai/codex"):
		return AgentCodex, stripPlatform(pkg.Version), "codex binary " + exe + " in " + pkg.Name
	case ok && base != "codex" && strings.HasPrefix(pkg.Name, "@anthropic-ai/claude-code"):
		return AgentClaude, stripPlatform(pkg.Version), "claude binary " + exe + " in " + pkg.Name
	case base == "codex":
		return AgentCodex, "", "codex binary " + exe + " without a package.json (version unknown)"
	default:
		return AgentClaude, "", "claude binary " + exe + " without a package.json (version unknown)"
	}
}

// nodeAgentOf recognises an agent that is a Node script (Gemini CLI):
// node's first operand, the script, resolved through its symlinks (npm's
// .bin link) must lie in the agent's package; the version is that
// package's. Any other script is no agent.
func (id *Classifier) nodeAgentOf(m Process) (agent, version, why string) {
	script := nodeScript(m.Argv)
	if script == "" {
		return "", "", ""
	}
	if !filepath.IsAbs(script) {
		script = filepath.Join(m.Cwd, script)
	}
	real, err := filepath.EvalSymlinks(script)
	if err != nil {
		return "", "", ""
	}
	pkg, ok := id.nearestPackage(filepath.Dir(real))
	if !ok || pkg.Name != "@google/gemini-cli" {
		return "", "", ""
	}
	return AgentGemini, pkg.Version, "node script " + real + " in " + pkg.Name
}

// nodeScript is the script node runs: its first argument that is not an
// option ("" for node -e, a REPL, or an option with a separate value).
func nodeScript(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-":
			return ""
		case a == "-r" || a == "--require" || a == "--import" || a == "--loader":
			i++ // the option's value is a module, not the script
		case a == "--":
			if i+1 < len(argv) {
				return argv[i+1]
			}
			return ""
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// opencodeOf recognises OpenCode's native binary: npm's opencode-ai
// package holds it as bin/opencode.exe, its platform package
// (opencode-linux-x64, …) as bin/opencode.
func (id *Classifier) opencodeOf(exe string) (agent, version, why string) {
	pkg, ok := id.nearestPackage(filepath.Dir(exe))
	if !ok || !(pkg.Name == "opencode-ai" || strings.HasPrefix(pkg.Name, "opencode-")) {
		return AgentOpenCode, "", "opencode binary " + exe + " without its package.json (version unknown)"
	}
	return AgentOpenCode, stripPlatform(pkg.Version), "opencode binary " + exe + " in " + pkg.Name
}

var (
	semver       = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	platformTail = regexp.MustCompile(`-(linux|darwin|win32|windows)-[a-z0-9_]+$`)
)

// stripPlatform turns "0.155.1-linux-x64" into "0.155.1".
func stripPlatform(v string) string { return platformTail.ReplaceAllString(v, "") }

type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// nearestPackage finds the package.json closest above dir (at most six
// levels: npm layouts put the binary a few directories below it).
func (id *Classifier) nearestPackage(dir string) (packageJSON, bool) {
	for range 6 {
		path := filepath.Join(dir, "package.json")
		if v, ok := id.fact(path, readPackage); ok {
			return v.(packageJSON), true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return packageJSON{}, false
}

func readPackage(path string) (any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p packageJSON
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	return p, nil
}

// fact returns read(path), cached while path's size, inode and mtime stay
// the same. ok is false when path does not exist or read failed.
func (id *Classifier) fact(path string, read func(string) (any, error)) (any, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	var ino uint64
	if st, ok := statIno(fi); ok {
		ino = st
	}
	id.mu.Lock()
	c, hit := id.cache[path]
	id.mu.Unlock()
	if hit && c.mtime.Equal(fi.ModTime()) && c.size == fi.Size() && c.ino == ino {
		return c.val, c.val != nil
	}
	v, err := read(path)
	if err != nil {
		v = nil
	}
	id.mu.Lock()
	if len(id.cache) > 4096 { // a bound, not an LRU: facts are few
		id.cache = map[string]cachedFact{}
	}
	id.cache[path] = cachedFact{mtime: fi.ModTime(), size: fi.Size(), ino: ino, val: v}
	id.mu.Unlock()
	return v, v != nil
}

// replicaOf recognises `akk replica FILE` (DESIGN "Identity"): the
// process's exe is an akk binary (its Go build info names akk's main
// package) and argv[1] is "replica"; FILE is resolved against the
// process's cwd and its header gives agent and version. Without
// allowReplicas it says why the replica is treated as a plain process.
func (id *Classifier) replicaOf(m Process) (agent, version, why string, ok bool) {
	if len(m.Argv) < 2 || m.Argv[1] != "replica" {
		return "", "", "", false
	}
	exe := filepath.Join(procRoot, strconv.Itoa(m.Stat.PID), "exe")
	if v, isAkk := id.fact(exe, readBuildPath); !isAkk || v.(string) != akkMainPath {
		return "", "", "", false
	}
	if !id.allowReplicas {
		return "", "", "akk replica (a plain process without --allow-replicas)", false
	}
	file := replicaFile(m.Argv[2:])
	if file == "" {
		return "", "", "akk replica without a file", false
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(m.Cwd, file)
	}
	if id.readReplica == nil {
		return "", "", "akk replica (no recording reader)", false
	}
	v, ok := id.fact(file, func(p string) (any, error) { return id.readReplica(p) })
	if !ok {
		return "", "", "akk replica of an unreadable recording " + file, false
	}
	h := v.(Replica)
	switch h.Agent {
	case AgentClaude, AgentCodex, AgentGemini, AgentOpenCode:
		return h.Agent, h.Version, "akk replica of " + file, true
	}
	return "", "", "akk replica of a recording of no agent", false
}

// readBuildPath reads an executable's main package path. The file read
// is /proc/<pid>/exe, so a deleted binary (go run's) still answers.
func readBuildPath(path string) (any, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return bi.Path, nil
}

// replicaFile is the positional argument of `akk replica [flags] FILE`.
func replicaFile(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--speed":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// launchers are interpreters that start an agent as their child in the
// same process group (the npm codex command is a Node script that spawns
// the native binary): the group changes without a new leader.
var launchers = map[string]bool{"node": true, "nodejs": true, "bun": true, "deno": true, "npm": true, "npx": true}

// shells are the shells that, running a command string or a script
// (sh -c '…; agent', a wrapper script without exec), start the agent as
// their child in their own group: dash forks even the last command of a
// -c string. At an interactive prompt a shell is no launcher.
var shells = map[string]bool{"sh": true, "dash": true, "bash": true, "zsh": true, "ksh": true, "mksh": true,
	"ash": true, "busybox": true, "fish": true}

// scriptShell reports whether argv is a shell running a command string
// or a script file rather than an interactive one (`-bash`, `zsh -l`).
func scriptShell(comm string, argv []string) bool {
	if !shells[comm] || len(argv) < 2 {
		return false
	}
	for _, a := range argv[1:] {
		if a == "-c" || !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// Launching reports whether the group is led by a launcher (an
// interpreter, or a shell running a script) and holds no agent yet: it is
// read whole again (throttled) while the pane draws, until one appears.
func (p *Identity) Launching() bool {
	return p.Agent == AgentNone && (launchers[p.LeaderComm] || p.LeaderScript)
}

// QuickCheck reads the pane process's tpgid and the group leader's start
// time: two small /proc reads that tell whether the foreground group
// changed since identity p was taken.
func QuickCheck(panePID int, p *Identity) (changed bool) {
	st, err := ReadStat(panePID)
	if err != nil {
		return true
	}
	if st.TPGID != p.PGID {
		return true
	}
	lead, err := ReadStat(st.TPGID)
	if err != nil {
		return p.LeaderStart != 0
	}
	if lead.StartTime != p.LeaderStart || lead.Comm != p.LeaderComm {
		return true // a new leader, or the same one after exec
	}
	// The agent itself may start later than its group leader (codex
	// launcher's child): check it is still there.
	if p.AgentPID != 0 && p.AgentPID != st.TPGID {
		a, err := ReadStat(p.AgentPID)
		return err != nil || a.StartTime != p.AgentStart
	}
	return false
}

// StartWall converts a process's start time (clock ticks after boot)
// to wall time, for "appended since the process started" queries.
func StartWall(ticks uint64) time.Time {
	b, err := os.ReadFile(filepath.Join(procRoot, "stat"))
	if err != nil {
		return time.Time{}
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			boot, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}
			}
			const hz = 100 // USER_HZ on Linux
			return time.Unix(boot, 0).Add(time.Duration(ticks) * time.Second / hz)
		}
	}
	return time.Time{}
}

// Cwd reads a process's working directory.
func Cwd(pid int) (string, error) {
	return os.Readlink(filepath.Join(procRoot, strconv.Itoa(pid), "cwd"))
}
