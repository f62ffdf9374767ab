package procid

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// What program an agent runs: its path, the agent and version a path is,
// and the files its identity hash is made of (Hasher), for qualification
// (issue 41).

// IdentityFiles are the files that make p's agent binary, for its
// identity hash (Hasher.Identity): a Node agent's package.json and entry
// script, else its running image (/proc/<pid>/exe). Nil for no agent or a
// replica. Computed when asked (a qualification), not on every
// classification.
func (id *Classifier) IdentityFiles(p Identity) []string {
	m, ok := agentMember(p)
	if !ok {
		return nil
	}
	if p.Replica {
		// A replica (tests, the demo: --allow-replicas) is the recording
		// it plays: qualifying one is qualifying that recording.
		if file := id.replicaPath(m); file != "" {
			return []string{file}
		}
		return nil
	}
	if !isNode(m) {
		return []string{ExeFile(m.Stat.PID)}
	}
	script := scriptOf(m)
	if script == "" {
		return nil
	}
	if pj, ok := id.nearestPackagePath(filepath.Dir(script)); ok {
		return []string{pj, script}
	}
	return []string{script}
}

// agentMember is the member of p that is its agent's process.
func agentMember(p Identity) (Process, bool) {
	if p.Agent == AgentNone {
		return Process{}, false
	}
	i := slices.IndexFunc(p.Members, func(m Process) bool { return m.Stat.PID == p.AgentPID })
	if i < 0 {
		return Process{}, false
	}
	return p.Members[i], true
}

// isNode: m's executable is node.
func isNode(m Process) bool {
	base := filepath.Base(exePath(m))
	return base == "node" || base == "nodejs"
}

// scriptOf is the script node runs in m, resolved through its symlinks
// (npm's .bin links) from m's cwd; "" when it runs none.
func scriptOf(m Process) string {
	script := nodeScript(m.Argv)
	if script == "" {
		return ""
	}
	if !filepath.IsAbs(script) {
		script = filepath.Join(m.Cwd, script)
	}
	real, err := filepath.EvalSymlinks(script)
	if err != nil {
		return ""
	}
	return real
}

// Program says which agent the program at path is and its version, the
// way Classify would of a process running it: an executable of a rule's
// Exes in one of its Packages (or its Node launcher, "codex.js"), or a
// script of its NodePackage (npm's .bin links are followed). It starts
// nothing: a qualification names the binary it is asked to run before
// running it.
func (id *Classifier) Program(path string) (agent, version string, err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", "", fmt.Errorf("procid: program %s: %w", path, err)
	}
	pkg, ok := id.nearestPackage(filepath.Dir(real))
	if !ok {
		return "", "", fmt.Errorf("procid: program %s: no package.json above %s", path, real)
	}
	for _, r := range id.rules {
		if r.NodePackage != "" && r.NodePackage == pkg.Name ||
			slices.Contains(r.Exes, strings.TrimSuffix(filepath.Base(real), ".js")) && matchPackage(r.Packages, pkg.Name) {
			return r.Agent, stripPlatform(pkg.Version), nil
		}
	}
	return "", "", fmt.Errorf("procid: program %s: %s is no agent akk knows", path, pkg.Name)
}

// ProgramPath is the program p's agent runs, as a path a qualification
// can run again: its executable (through /proc/<pid>/exe's target), or,
// for a Node agent, its script. "" for no agent or a replica.
func (id *Classifier) ProgramPath(p Identity) string {
	m, ok := agentMember(p)
	if !ok || p.Replica {
		return ""
	}
	if !isNode(m) {
		return exePath(m)
	}
	return scriptOf(m)
}
