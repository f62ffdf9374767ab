package procid

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Errors.
var (
	// ErrNoProcess: a /proc entry is missing (the process exited).
	ErrNoProcess = errors.New("procid: no such process")
	// ErrSyntax: a /proc file does not read as the kernel writes it.
	ErrSyntax = errors.New("procid: syntax")
)

// ProcStat is the part of /proc/<pid>/stat that identifies a process and
// its terminal job.
type ProcStat struct {
	PID       int
	Comm      string
	State     byte
	PPID      int
	PGRP      int
	Session   int
	TTYNr     int
	TPGID     int    // foreground process group of the process's terminal
	StartTime uint64 // clock ticks after boot: (PID, StartTime) is one incarnation
}

// ParseStat parses /proc/<pid>/stat. comm may hold spaces and
// parentheses, so the fields are counted after the last ')'.
func ParseStat(b []byte) (ProcStat, error) {
	open := bytes.IndexByte(b, '(')
	close := bytes.LastIndexByte(b, ')')
	if open < 1 || close < open {
		return ProcStat{}, fmt.Errorf("%w: /proc stat %q", ErrSyntax, b)
	}
	var s ProcStat
	var err error
	if s.PID, err = strconv.Atoi(string(bytes.TrimSpace(b[:open]))); err != nil {
		return ProcStat{}, fmt.Errorf("%w: /proc stat pid: %v", ErrSyntax, err)
	}
	s.Comm = string(b[open+1 : close])
	f := strings.Fields(string(b[close+1:]))
	// After ')': state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8) ... starttime(22).
	if len(f) < 20 || len(f[0]) != 1 {
		return ProcStat{}, fmt.Errorf("%w: /proc stat has %d fields", ErrSyntax, len(f))
	}
	s.State = f[0][0]
	ints := []*int{&s.PPID, &s.PGRP, &s.Session, &s.TTYNr, &s.TPGID}
	for i, dst := range ints {
		if *dst, err = strconv.Atoi(f[1+i]); err != nil {
			return ProcStat{}, fmt.Errorf("%w: /proc stat field %d: %v", ErrSyntax, 4+i, err)
		}
	}
	if s.StartTime, err = strconv.ParseUint(f[19], 10, 64); err != nil {
		return ProcStat{}, fmt.Errorf("%w: /proc stat starttime: %v", ErrSyntax, err)
	}
	return s, nil
}

// procRoot is /proc; tests point it elsewhere.
var procRoot = "/proc"

// ReadStat reads /proc/<pid>/stat (no ps, no lsof). A missing process
// gives an error wrapping ErrNoProcess.
func ReadStat(pid int) (ProcStat, error) {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		if os.IsNotExist(err) || isESRCH(err) {
			return ProcStat{}, fmt.Errorf("%w: %d", ErrNoProcess, pid)
		}
		return ProcStat{}, fmt.Errorf("procid: %w", err)
	}
	return ParseStat(b)
}

func isESRCH(err error) bool { return strings.Contains(err.Error(), "no such process") }

// Process is one process of a pane's foreground job.
type Process struct {
	Stat ProcStat
	Exe  string   // /proc/<pid>/exe target ("" if unreadable)
	Cwd  string   // /proc/<pid>/cwd target ("" if unreadable)
	Argv []string // /proc/<pid>/cmdline
}

// ReadProcess reads a process's stat, exe, cwd and argv.
func ReadProcess(pid int) (Process, error) {
	st, err := ReadStat(pid)
	if err != nil {
		return Process{}, err
	}
	dir := filepath.Join(procRoot, strconv.Itoa(pid))
	p := Process{Stat: st}
	p.Exe, _ = os.Readlink(filepath.Join(dir, "exe"))
	p.Cwd, _ = os.Readlink(filepath.Join(dir, "cwd"))
	if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil && len(b) > 0 {
		p.Argv = strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	}
	return p, nil
}

// Foreground is the foreground process group of a pane's terminal.
type Foreground struct {
	PGID    int       // tpgid of the pane process
	Leader  Process   // the process whose pid is PGID (if it still runs)
	Members []Process // every process in the group, by pid
}

// ForegroundOf reads the foreground job of the terminal that panePID (the
// pane's pid from tmux) runs on: tpgid from /proc/<panePID>/stat, then
// every process whose process group is tpgid and whose session is the
// pane's. A shell without job control keeps its children in its own
// group: then the group is the shell's.
func ForegroundOf(panePID int) (Foreground, error) {
	st, err := ReadStat(panePID)
	if err != nil {
		return Foreground{}, err
	}
	fg := Foreground{PGID: st.TPGID}
	if st.TPGID <= 0 {
		return fg, fmt.Errorf("%w: pane process %d has no foreground group", ErrNoProcess, panePID)
	}
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return fg, fmt.Errorf("procid: %w", err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ps, err := ReadStat(pid)
		if err != nil || ps.PGRP != st.TPGID || ps.Session != st.Session {
			continue
		}
		p, err := ReadProcess(pid)
		if err != nil {
			continue
		}
		fg.Members = append(fg.Members, p)
		if pid == st.TPGID {
			fg.Leader = p
		}
	}
	if len(fg.Members) == 0 {
		return fg, fmt.Errorf("%w: foreground group %d of pane process %d", ErrNoProcess, st.TPGID, panePID)
	}
	return fg, nil
}

// Descendants returns pids and every process below them, from the parent
// links in /proc/*/stat, each once.
func Descendants(pids []int) []int {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return pids
	}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := ReadStat(pid); err == nil {
			children[st.PPID] = append(children[st.PPID], pid)
		}
	}
	out := append([]int(nil), pids...)
	seen := map[int]bool{}
	for i := 0; i < len(out); i++ {
		if seen[out[i]] {
			out = append(out[:i], out[i+1:]...)
			i--
			continue
		}
		seen[out[i]] = true
		out = append(out, children[out[i]]...)
	}
	return out
}

// FD is one open file descriptor of a process.
type FD struct {
	N       int
	Target  string // what it names, without " (deleted)"
	Deleted bool   // the file was removed since it was opened
	// Path is /proc/<pid>/fd/<n>: opening it reads the file the process
	// holds, even a deleted one.
	Path string
}

// OpenFDs lists a process's open file descriptors; total counts them all,
// including those closed while they were read. A missing process gives an
// error wrapping fs.ErrNotExist.
func OpenFDs(pid int) (fds []FD, total int, err error) {
	dir := filepath.Join(procRoot, strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		target, err := os.Readlink(p)
		if err != nil {
			continue // closed meanwhile
		}
		n, _ := strconv.Atoi(e.Name())
		target, deleted := strings.CutSuffix(target, " (deleted)")
		fds = append(fds, FD{N: n, Target: target, Deleted: deleted, Path: p})
	}
	return fds, len(ents), nil
}
