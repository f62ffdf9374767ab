package controlmode

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
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
		got, err := ParseProcStat([]byte(tc.in))
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseProcStat(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

func TestReadProcSelf(t *testing.T) {
	st, err := ReadProcStat(os.Getpid())
	if err != nil || st.PID != os.Getpid() || st.StartTime == 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := ReadProcStat(1 << 30); !errors.Is(err, ErrNoProcess) {
		t.Errorf("missing process: %v", err)
	}
}

// TestTmuxIdentity: pane facts from tmux and the foreground job from
// /proc, with and without a job in the foreground.
func TestTmuxIdentity(t *testing.T) {
	checkLeaks(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	srv := startTmux(t, 80, 24, "cd "+dir+" && exec bash --norc --noprofile -i")
	c := attach(t, srv)
	ctx := ctxTest(t)
	info, err := c.PaneInfo(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if info.Pane != 0 || info.PID <= 0 || !strings.HasPrefix(info.TTY, "/dev/") || info.Width != 80 || info.Height != 24 || info.Dead || info.InMode {
		t.Fatalf("PaneInfo %+v", info)
	}
	panes, err := c.Panes(ctx)
	if err != nil || len(panes) != 1 || panes[0] != info {
		t.Fatalf("Panes %+v %v", panes, err)
	}
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
	if err := c.SendText(ctx, 0, "sleep 30 | cat"); err != nil {
		t.Fatal(err)
	}
	c.SendKeys(ctx, 0, "Enter")
	var job Foreground
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if job, err = ForegroundOf(info.PID); err == nil && job.Leader.Stat.Comm == "sleep" && len(job.Members) == 2 {
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
	st, _ := ReadProcStat(job.PGID)
	if st.StartTime != job.Leader.Stat.StartTime || st.StartTime == 0 {
		t.Errorf("starttime %d vs %d", st.StartTime, job.Leader.Stat.StartTime)
	}
	info2, _ := c.PaneInfo(ctx, 0)
	if info2.CurrentCommand != "sleep" || info2.CurrentPath != dir {
		t.Errorf("tmux says current %q in %q", info2.CurrentCommand, info2.CurrentPath)
	}
	c.SendKeys(ctx, 0, "C-c")
}
