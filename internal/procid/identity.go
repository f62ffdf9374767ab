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

// AgentNone is Identity.Agent of a group that runs no agent.
const AgentNone = "none"

// Rule says how one agent's process is recognised, from its own
// installation's facts: its executable's name and the package.json above
// it, a Node script's package, or a native installer's layout. Each agent's
// folder declares its own (agents/*); this package names no agent.
type Rule struct {
	// Agent is the contract's name of the agent the rule recognises.
	Agent string
	// Exes are the executable names that may be the agent, and Packages
	// the package.json names that prove one is and give its version (a
	// name ending in "*" is a prefix; a platform tail such as
	// "-linux-x64" is cut from the version). An executable of Exes with
	// no such package above it is still the agent, its version unknown.
	Exes     []string
	Packages []string
	// NodePackage: the agent is a Node script of this package (node's
	// first operand, resolved through npm's .bin link); the version is the
	// package's.
	NodePackage string
	// InstallDir: a native installer keeps each version as an executable
	// .../<InstallDir>/versions/<x.y.z>.
	InstallDir string
	// Relaunches: a child running the same agent is the agent itself (it
	// restarts itself, with a larger heap say, and the child draws the
	// screen and writes the records), followed down.
	Relaunches bool
}

// matchPackage reports whether a package.json name is one of pats.
func matchPackage(pats []string, name string) bool {
	for _, p := range pats {
		if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, pre) || p == name {
			return true
		}
	}
	return false
}

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
	rules         []Rule
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
	// Rules recognise the agents (each agent's folder has its own); a
	// process no rule matches is no agent.
	Rules []Rule
	// AllowReplicas makes `akk replica FILE` an agent (tests, akk demo).
	AllowReplicas bool
	// ReadReplica reads a recording's header (the recordings codec lives
	// above this package); required with AllowReplicas.
	ReadReplica func(path string) (Replica, error)
}

// NewClassifier returns a classifier with an empty fact cache.
func NewClassifier(o Options) *Classifier {
	return &Classifier{rules: o.Rules, allowReplicas: o.AllowReplicas, readReplica: o.ReadReplica, cache: map[string]cachedFact{}}
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
// first member a Rule recognises (an npm package's Node launcher is no
// agent itself: its child, the native binary, is).
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
		if rule, version, why := id.agentOf(m); rule != nil {
			p.Agent, p.Version, p.Why = rule.Agent, version, why
			p.AgentPID, p.AgentStart, p.Cwd = m.Stat.PID, m.Stat.StartTime, m.Cwd
			if r, ok := id.relaunched(p.Members, m, rule.Agent); ok && rule.Relaunches {
				p.AgentPID, p.AgentStart, p.Cwd = r.Stat.PID, r.Stat.StartTime, r.Cwd
				p.Why += " (relaunched as " + strconv.Itoa(r.Stat.PID) + ")"
			}
			return p
		}
	}
	return p
}

// relaunched finds the child of m that runs the same agent again
// (Rule.Relaunches). It follows the chain down. Only an agent whose rule
// says so is followed: another agent's helpers from its own binary in its
// foreground group (a sandbox helper at an edit's approval) taken for a
// relaunch would change the agent's incarnation and fail its managed Turn
// (process_changed).
func (id *Classifier) relaunched(members []Process, m Process, agent string) (Process, bool) {
	found := false
	// At most one step per member: parent links read at different moments
	// (a pid reused between reads) could form a loop.
	for range members {
		next := slices.IndexFunc(members, func(c Process) bool {
			if c.Stat.PPID != m.Stat.PID || c.Stat.PID == m.Stat.PID {
				return false
			}
			r, _, _ := id.agentOf(c)
			return r != nil && r.Agent == agent
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

// agentOf finds the rule that recognises m, with the version it proves
// and why (nil: no agent).
func (id *Classifier) agentOf(m Process) (rule *Rule, version, why string) {
	exe := exePath(m)
	if exe == "" {
		return nil, "", ""
	}
	if isNode(m) {
		return id.nodeAgentOf(m)
	}
	base := filepath.Base(exe)
	for i := range id.rules {
		r := &id.rules[i]
		if r.InstallDir != "" && semver.MatchString(base) && filepath.Base(filepath.Dir(exe)) == "versions" &&
			filepath.Base(filepath.Dir(filepath.Dir(exe))) == r.InstallDir {
			return r, base, "native install " + exe
		}
		if !slices.Contains(r.Exes, base) {
			continue
		}
		if pkg, ok := id.nearestPackage(filepath.Dir(exe)); ok && matchPackage(r.Packages, pkg.Name) {
			return r, stripPlatform(pkg.Version), base + " binary " + exe + " in " + pkg.Name
		}
		return r, "", base + " binary " + exe + " without its package.json (version unknown)"
	}
	return nil, "", ""
}

// nodeAgentOf recognises an agent that is a Node script: node's first
// operand, the script, resolved through its symlinks (npm's .bin link)
// must lie in a rule's NodePackage; the version is that package's. Any
// other script is no agent.
func (id *Classifier) nodeAgentOf(m Process) (rule *Rule, version, why string) {
	real := scriptOf(m)
	if real == "" {
		return nil, "", ""
	}
	pkg, ok := id.nearestPackage(filepath.Dir(real))
	if !ok {
		return nil, "", ""
	}
	for i := range id.rules {
		if r := &id.rules[i]; r.NodePackage != "" && r.NodePackage == pkg.Name {
			return r, pkg.Version, "node script " + real + " in " + pkg.Name
		}
	}
	return nil, "", ""
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
	path, ok := id.nearestPackagePath(dir)
	if !ok {
		return packageJSON{}, false
	}
	v, _ := id.fact(path, readPackage)
	return v.(packageJSON), true
}

// nearestPackagePath is the path of the package.json nearestPackage reads.
func (id *Classifier) nearestPackagePath(dir string) (string, bool) {
	for range 6 {
		path := filepath.Join(dir, "package.json")
		if _, ok := id.fact(path, readPackage); ok {
			return path, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
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
// replicaPath is the recording an akk replica process plays ("": none
// named).
func (id *Classifier) replicaPath(m Process) string {
	if len(m.Argv) < 3 {
		return ""
	}
	file := replicaFile(m.Argv[2:])
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(m.Cwd, file)
	}
	return file
}

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
	file := id.replicaPath(m)
	if file == "" {
		return "", "", "akk replica without a file", false
	}
	if id.readReplica == nil {
		return "", "", "akk replica (no recording reader)", false
	}
	v, ok := id.fact(file, func(p string) (any, error) { return id.readReplica(p) })
	if !ok {
		return "", "", "akk replica of an unreadable recording " + file, false
	}
	h := v.(Replica)
	if slices.ContainsFunc(id.rules, func(r Rule) bool { return r.Agent == h.Agent }) {
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
