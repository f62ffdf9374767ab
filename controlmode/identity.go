package controlmode

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// PaneInfo is what tmux says about a pane.
type PaneInfo struct {
	Pane       PaneID
	Window     WindowID
	Session    SessionID
	PID        int    // the process tmux spawned in the pane
	TTY        string // /dev/pts/N
	Width      int
	Height     int
	InMode     bool // copy or view mode: send-keys would go to the mode
	Dead       bool
	DeadStatus int
	// CurrentCommand and CurrentPath belong to the pane's foreground
	// process group (tmux reads them from the pty).
	CurrentCommand string
	CurrentPath    string
}

var paneFields = []string{"pane_id", "window_id", "session_id", "pane_pid", "pane_tty", "pane_width",
	"pane_height", "pane_in_mode", "pane_dead", "pane_dead_status", "pane_current_command", "pane_current_path"}

// paneFormat separates fields with tabs; the path is last and may itself
// hold tabs.
var paneFormat = func() string {
	parts := make([]string, len(paneFields))
	for i, f := range paneFields {
		parts[i] = "#{" + f + "}"
	}
	return strings.Join(parts, "\t")
}()

// Panes lists the panes of the attached session: the panes whose output
// this client receives.
func (c *Client) Panes(ctx context.Context) ([]PaneInfo, error) {
	target := c.cfg.Session
	if s := c.Session(); s != NoSession {
		target = s.String()
	}
	r, err := c.Command(ctx, "list-panes", "-s", "-t", target, "-F", paneFormat)
	if err != nil {
		return nil, err
	}
	var out []PaneInfo
	for _, l := range r.Lines() {
		p, err := parsePaneInfo(l)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// PaneInfo asks tmux about one pane.
func (c *Client) PaneInfo(ctx context.Context, pane PaneID) (PaneInfo, error) {
	r, err := c.Command(ctx, "display-message", "-p", "-t", pane.String(), paneFormat)
	if err != nil {
		if isPaneGone(err) {
			return PaneInfo{}, fmt.Errorf("%w: %v: %w", ErrPaneGone, pane, err)
		}
		return PaneInfo{}, err
	}
	line := strings.TrimSuffix(string(r.Body), "\n")
	p, err := parsePaneInfo(line)
	if (err == nil && p.Pane != pane) || strings.HasPrefix(line, "\t") {
		// display-message falls back to the current pane (or none) when
		// its target is missing (CMD_FIND_CANFAIL): not this pane's answer.
		return PaneInfo{}, fmt.Errorf("%w: %v", ErrPaneGone, pane)
	}
	return p, err
}

func parsePaneInfo(line string) (PaneInfo, error) {
	f := strings.SplitN(line, "\t", len(paneFields))
	if len(f) != len(paneFields) {
		return PaneInfo{}, fmt.Errorf("%w: pane line %q", ErrProtocol, line)
	}
	var p PaneInfo
	var errs [4]error
	p.Pane, errs[0] = ParsePaneID(f[0])
	p.Window, errs[1] = ParseWindowID(f[1])
	p.Session, errs[2] = ParseSessionID(f[2])
	nums := []*int{&p.PID, nil, &p.Width, &p.Height, nil, nil, &p.DeadStatus}
	for i, dst := range nums {
		if dst == nil {
			continue
		}
		v := f[3+i]
		if v == "" && dst == &p.DeadStatus {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs[3] = fmt.Errorf("%w: %s=%q", ErrProtocol, paneFields[3+i], v)
		}
		*dst = n
	}
	for _, err := range errs {
		if err != nil {
			return PaneInfo{}, err
		}
	}
	p.TTY, p.InMode, p.Dead = f[4], f[7] == "1", f[8] == "1"
	p.CurrentCommand, p.CurrentPath = f[10], f[11]
	return p, nil
}

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

// ParseProcStat parses /proc/<pid>/stat. comm may hold spaces and
// parentheses, so the fields are counted after the last ')'.
func ParseProcStat(b []byte) (ProcStat, error) {
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

// ReadProcStat reads /proc/<pid>/stat (no ps, no lsof). A missing process
// gives an error wrapping ErrNoProcess.
func ReadProcStat(pid int) (ProcStat, error) {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		if os.IsNotExist(err) || isESRCH(err) {
			return ProcStat{}, fmt.Errorf("%w: %d", ErrNoProcess, pid)
		}
		return ProcStat{}, fmt.Errorf("controlmode: %w", err)
	}
	return ParseProcStat(b)
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
	st, err := ReadProcStat(pid)
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
	st, err := ReadProcStat(panePID)
	if err != nil {
		return Foreground{}, err
	}
	fg := Foreground{PGID: st.TPGID}
	if st.TPGID <= 0 {
		return fg, fmt.Errorf("%w: pane process %d has no foreground group", ErrNoProcess, panePID)
	}
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return fg, fmt.Errorf("controlmode: %w", err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ps, err := ReadProcStat(pid)
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
