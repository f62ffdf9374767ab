package procid

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Table is every process of a proc file system, read once on first use:
// what a scan of the machine's processes needs (who else holds a file
// open, which process runs where), without each caller walking /proc.
// Root is the proc file system ("": /proc; tests give a fake one).
type Table struct {
	Root   string
	stats  map[int]ProcStat
	loaded bool
}

func (t *Table) root() string {
	if t.Root == "" {
		return procRoot
	}
	return t.Root
}

// Stats is every process's stat, by pid.
func (t *Table) Stats() map[int]ProcStat {
	if t.loaded {
		return t.stats
	}
	t.loaded = true
	t.stats = map[int]ProcStat{}
	ents, err := os.ReadDir(t.root())
	if err != nil {
		return t.stats
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(t.root(), e.Name(), "stat"))
		if err != nil {
			continue
		}
		if st, err := ParseStat(b); err == nil && st.PID == pid {
			t.stats[pid] = st
		}
	}
	return t.stats
}

// PIDs is the table's pids in order.
func (t *Table) PIDs() []int { return slices.Sorted(maps.Keys(t.Stats())) }

// SelfSet is pids and every descendant of theirs.
func (t *Table) SelfSet(pids []int) map[int]bool {
	children := map[int][]int{}
	for pid, st := range t.Stats() {
		children[st.PPID] = append(children[st.PPID], pid)
	}
	self := map[int]bool{}
	queue := slices.Clone(pids)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if pid <= 0 || self[pid] {
			continue
		}
		self[pid] = true
		queue = append(queue, children[pid]...)
	}
	return self
}

// Link is the target of /proc/<pid>/<name> (exe, cwd) without the
// " (deleted)" of a removed file ("" when unreadable).
func (t *Table) Link(pid int, name string) string {
	s, err := os.Readlink(filepath.Join(t.root(), strconv.Itoa(pid), name))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(s, " (deleted)")
}

// PIDNamespace is this process's pid namespace as the kernel names it
// ("pid:[4026531836]"; "" when unreadable).
func (t *Table) PIDNamespace() string {
	ns, _ := os.Readlink(filepath.Join(t.root(), "self", "ns", "pid"))
	return ns
}

// OpenFile is one descriptor of a process and the file it names.
type OpenFile struct {
	FD     int
	Target string      // the link's target, without " (deleted)"
	Info   fs.FileInfo // the open file itself (its device and inode)
}

// Files lists the files pid holds open whose target keep accepts (by
// its base name). The error is the descriptors' directory's: fs.ErrNotExist
// for a process that is gone, another (permission) for one whose
// descriptors this user cannot read.
func (t *Table) Files(pid int, keep func(base string) bool) ([]OpenFile, error) {
	dir := filepath.Join(t.root(), strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []OpenFile
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		target, err := os.Readlink(p)
		target = strings.TrimSuffix(target, " (deleted)")
		if err != nil || !keep(filepath.Base(target)) {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue // closed meanwhile
		}
		fd, _ := strconv.Atoi(e.Name())
		files = append(files, OpenFile{FD: fd, Target: target, Info: fi})
	}
	return files, nil
}

// WithEnv lists the processes other than this one whose environment
// holds kv ("HOME=/tmp/x"): the processes of one run of a program
// started with it, and everything they started.
func WithEnv(kv string) []int {
	want := []byte(kv + "\x00")
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join(procRoot, e.Name(), "environ"))
		if err != nil {
			continue
		}
		if hasEnv(env, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// hasEnv reports whether a NUL-separated environment holds want (one
// entry with its NUL).
func hasEnv(env, want []byte) bool {
	return bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...))
}

// Comm is a process's command name ("" when it is gone).
func Comm(pid int) string {
	b, _ := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "comm"))
	return strings.TrimSpace(string(b))
}

// SelfExe is this process's own executable as the kernel holds it (it
// names the running image even after the file was replaced or removed).
func SelfExe() string { return filepath.Join(procRoot, "self", "exe") }
