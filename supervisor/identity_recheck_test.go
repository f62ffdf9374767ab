package supervisor

import (
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
)

func member(pid int, comm string, argv ...string) controlmode.Process {
	return controlmode.Process{Stat: controlmode.ProcStat{PID: pid, Comm: comm, PGRP: pid, StartTime: 100}, Argv: argv}
}

func groupOf(agent string, ms ...controlmode.Process) procIdentity {
	lead := ms[0].Stat
	return procIdentity{PGID: lead.PID, LeaderStart: lead.StartTime, Members: ms, Agent: agent,
		AgentPID: lead.PID, AgentStart: lead.StartTime, leaderComm: lead.Comm, Command: lead.Comm}
}

func TestIdentityInconclusive(t *testing.T) {
	shell := groupOf(api.AgentNone, member(10, "sh", "sh"))
	cases := []struct {
		name string
		old  *procIdentity
		p    procIdentity
		want string
	}{
		{"an agent found", nil, groupOf(api.AgentCodex, member(20, "node", "node", "codex"), member(21, "codex", "codex")), ""},
		{"the pane's first read", nil, shell, inconclusiveNewGroup},
		{"the same shell again", &shell, shell, ""},
		// The exec has given the process its new name, but
		// /proc/<pid>/cmdline reads empty until the arguments are set up.
		{"between exec and its arguments", &shell, groupOf(api.AgentNone, member(10, "akk")), inconclusiveMidExec},
		{"a launcher alone", &shell, groupOf(api.AgentNone, member(20, "node", "node", "/usr/bin/codex")), inconclusiveLauncher},
		{"a launcher alone, read again", ptr(groupOf(api.AgentNone, member(20, "node", "node", "x"))),
			groupOf(api.AgentNone, member(20, "node", "node", "x")), inconclusiveLauncher},
		// A shell forked for a command leads a new group under the
		// shell's own name until it execs.
		{"a forked shell before its exec", &shell, groupOf(api.AgentNone, member(30, "sh", "sh")), inconclusiveNewGroup},
		{"a plain command, read again", ptr(groupOf(api.AgentNone, member(30, "ls", "ls"))),
			groupOf(api.AgentNone, member(30, "ls", "ls")), ""},
	}
	for _, c := range cases {
		if got := inconclusive(c.old, c.p); got != c.want {
			t.Errorf("%s: inconclusive = %q, want %q", c.name, got, c.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestIdentityRecheckSchedule: re-reads double from 50 ms, stop after
// maxIdentityRechecks, and start afresh after a conclusive read or a
// reset (tmux reported a foreground change).
func TestIdentityRecheckSchedule(t *testing.T) {
	var r identityRecheck
	var got []time.Duration
	for range maxIdentityRechecks + 2 {
		got = append(got, r.next(inconclusiveLauncher))
	}
	want := []time.Duration{50, 100, 200, 400, 800, 1600, 0, 0}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("schedule %v, want %v ms", got, want)
		}
	}
	r.reset()
	if d := r.next(inconclusiveMidExec); d != firstIdentityRecheck {
		t.Errorf("after reset: %v, want %v", d, firstIdentityRecheck)
	}
	if d := r.next(""); d != 0 {
		t.Errorf("conclusive read: %v, want no re-read", d)
	}
	if d := r.next(inconclusiveNewGroup); d != firstIdentityRecheck {
		t.Errorf("after a conclusive read: %v, want %v", d, firstIdentityRecheck)
	}
}
