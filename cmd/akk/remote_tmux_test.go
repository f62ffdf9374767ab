package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/api/mcpserver"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// TestTmuxRemoteHosts: akk --host through a real sshd on 127.0.0.1. The
// "other machine" is another Unix user (akkremote) with its own tmux
// server, a strict Claude Code replica in it and its own akk daemon on
// its default socket; this machine's daemon (root's) supervises an idle
// replica. `akk list` over both hosts merges their rows, each with its
// host and an id of the usual form that is not the remote one; status
// and approve by that id act on the other machine's replica (its pane's
// pid in the row, its daemon's event log has the approve), this
// machine's daemon records no approve, and the strict replica ends clean:
// it got the one '1' and nothing else.
func TestTmuxRemoteHosts(t *testing.T) {
	u := requireSSHD(t)
	sshd := startSSHD(t)
	akk := buildAkk(t)
	shared := sharedDir(t, u)
	rakk := filepath.Join(shared, "akk")
	copyAs(t, u, akk, rakk, 0o755)

	// The other machine: akkremote's tmux, replica and daemon.
	rsrv, fifo := remoteReplica(t, u, shared, rakk)
	startDaemonAs(t, rsrv, rakk, filepath.Join(shared, "store"), "")
	remote := sshd.url(remoteUser, "") // its default socket, found by the remote shell

	// This machine: root's daemon on a socket of the test's, reached
	// through the same sshd as root (so both rows come through --host).
	dir := t.TempDir()
	lcast := replicaFile(t, "claude/2.1.267/permission-approve.cast", dir, tmuxtest.User{})
	lfifo := filepath.Join(dir, "go")
	tmuxtest.Mkfifo(t, lfifo)
	lsrv := tmuxtest.Start(t, 120, 40, "sh -c 'read _ < "+lfifo+"; exec "+akk+" replica "+lcast+"'")
	lsock := filepath.Join(dir, "api", api.SocketName)
	startDaemonAs(t, lsrv, akk, filepath.Join(dir, "store"), lsock)
	local := sshd.url("root", lsock)

	cli := akkCLI(t, akk, sshd)
	var rows api.ListResponse
	list := func() string {
		if code, out, errs := cli("--json", "list", "--host", remote, "--host", local); code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
			return "akk list over both hosts: " + errs
		}
		if len(rows.Terminals) != 2 {
			return "rows: " + rowsOf(rows)
		}
		return ""
	}
	tmuxtest.Await(t, 30*time.Second, list)
	// The replicas start once their daemons follow them (a replica takes
	// only its recorded input: a focus report before would end it).
	for _, f := range []string{fifo, lfifo} {
		if err := os.WriteFile(f, []byte("go\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tmuxtest.Await(t, 30*time.Second, func() string {
		if why := list(); why != "" {
			return why
		}
		if rows.Terminals[0].ScreenState != contract.ScreenIdle || rows.Terminals[1].ScreenState != contract.ScreenIdle {
			r, _ := rsrv.Run("capture-pane", "-p", "-t", "main")
			l, _ := lsrv.Run("capture-pane", "-p", "-t", "main")
			return "rows: " + rowsOf(rows) + "\nremote pane:\n" + string(r) + "\nlocal pane:\n" + string(l)
		}
		return ""
	})
	rrow, lrow := rows.Terminals[0], rows.Terminals[1]
	if rrow.Host != sshd.name(remoteUser) || lrow.Host != sshd.name("root") || rrow.TerminalID == lrow.TerminalID ||
		!strings.HasPrefix(rrow.TerminalID, "term_") || len(rrow.TerminalID) != len("term_")+26 {
		t.Fatalf("merged rows: %s", rowsOf(rows))
	}
	t.Logf("merged list: %s", rowsOf(rows))
	mcpOverHosts(t, akk, sshd, rows, remote, local)

	// The remote replica asks permission (typed once it is idle: before
	// its terminal is raw, Enter would arrive as a newline).
	rsrv.MustRun("send-keys", "-t", "main", "-l", "run-touch")
	rsrv.MustRun("send-keys", "-t", "main", "Enter")
	var row api.Terminal
	tmuxtest.Await(t, 30*time.Second, func() string {
		var l api.ListResponse
		if code, out, errs := cli("--json", "list", "--host", remote); code != 0 || json.Unmarshal([]byte(out), &l) != nil {
			return "akk list: " + errs
		}
		if len(l.Terminals) != 1 || l.Terminals[0].ScreenState != contract.ScreenAwaitingApproval {
			return "rows: " + rowsOf(l)
		}
		row = l.Terminals[0]
		return ""
	})
	pids := strings.Fields(string(rsrv.MustRun("display-message", "-p", "-t", "main", "#{pane_pid} #{pid}")))
	if row.TerminalID != rrow.TerminalID || row.Host != rrow.Host || !replicaIn(row.PID, pids[0], rakk) ||
		row.TmuxSocket != rsrv.Socket || strconvItoa(row.ServerPID) != pids[1] {
		t.Errorf("the remote row %+v, want %s on %s with the other machine's tmux %s (server %s, its replica under pane pid %s)",
			row, rrow.TerminalID, rrow.Host, rsrv.Socket, pids[1], pids[0])
	}
	if code, _, errs := cli("--json", "status", row.TerminalID, "--host", remote); code != 0 {
		t.Fatalf("status: %d %s", code, errs)
	}
	code, out, errs := cli("--json", "approve", row.TerminalID, "--host", remote)
	var res api.ActionResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Outcome != api.OutcomeAccepted || res.TerminalID != row.TerminalID {
		t.Fatalf("approve: exit %d %s %s", code, out, errs)
	}

	// Whose logs hold the approve: the other machine's, not this one's.
	if n := approves(t, cli, "--host", remote); n != 1 {
		t.Errorf("the remote daemon's log has %d approve reservations, want 1", n)
	}
	if n := approves(t, cli, "--socket", lsock); n != 0 {
		t.Errorf("this machine's daemon recorded %d approves", n)
	}
	finishReplica(t, rsrv)
}

// replicaIn says whether pid is `exe replica …` running in the pane whose
// first process is panePID: the pane itself when the pane's shell exec'd
// it (bash -c), or its child when it did not (dash -c forks the last
// command), so the row's pid is checked, not the shell tmux chose.
func replicaIn(pid int, panePID, exe string) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	argv := strings.Split(string(cmdline), "\x00")
	if len(argv) < 2 || argv[0] != exe || argv[1] != "replica" {
		return false
	}
	for p := pid; p > 1; {
		if strconvItoa(p) == panePID {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			return false
		}
		// The fields after the command's closing parenthesis: state, ppid.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 {
			return false
		}
		if p, err = strconv.Atoi(f[1]); err != nil {
			return false
		}
	}
	return false
}

// akkCLI runs the akk binary with the test's ssh and its own state
// directory (the id table).
func akkCLI(t *testing.T, akk string, sshd *sshdRig) func(args ...string) (int, string, string) {
	env := remoteEnv(t, sshd)
	return func(args ...string) (int, string, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, akk, args...)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		return code, out.String(), errb.String()
	}
}

// remoteEnv is the environment of the test's akk clients: its ssh, and
// one state directory (the id table) for all of them.
func remoteEnv(t *testing.T, sshd *sshdRig) []string {
	if sshd.env == nil {
		sshd.env = append(os.Environ(), "AKK_SSH="+sshd.sshCmd, "XDG_STATE_HOME="+t.TempDir())
	}
	return sshd.env
}

// mcpOverHosts checks `akk mcp --host … --host …`: one MCP session whose
// list tool shows the rows of every host, with the ids the CLI showed.
func mcpOverHosts(t *testing.T, akk string, sshd *sshdRig, want api.ListResponse, hosts ...string) {
	t.Helper()
	args := []string{"mcp"}
	for _, h := range hosts {
		args = append(args, "--host", h)
	}
	cmd := exec.Command(akk, args...)
	cmd.Env = remoteEnv(t, sshd)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "remote-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolList})
	if err != nil || res.IsError {
		text := ""
		if res != nil && len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tc.Text
			}
		}
		t.Fatalf("list over MCP: %v %s", err, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got api.ListResponse
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if rowsOf(got) != rowsOf(want) {
		t.Errorf("akk mcp over the hosts lists %s, want %s", rowsOf(got), rowsOf(want))
	}
}

// approves counts the approve reservations in a daemon's event log.
func approves(t *testing.T, cli func(args ...string) (int, string, string), where ...string) int {
	t.Helper()
	code, out, errs := cli(append([]string{"--json", "events"}, where...)...)
	if code != 0 {
		t.Fatalf("events: %d %s", code, errs)
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if json.Unmarshal([]byte(l), &e) == nil && e["type"] == api.EventDispatchReserved && e["op"] == "approve" {
			n++
		}
	}
	return n
}

func rowsOf(l api.ListResponse) string {
	var b strings.Builder
	for _, r := range l.Terminals {
		b.WriteString(r.Host + " " + r.TerminalID + " " + r.Agent + " " + string(r.ScreenState) + "; ")
	}
	return b.String()
}

func strconvItoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// remoteReplica starts, as u (the other machine's user), a tmux server
// whose pane waits on a fifo in shared, then runs rakk's strict replica
// of Claude Code's permission prompt. It returns the server and the fifo
// that releases the replica.
func remoteReplica(t *testing.T, u tmuxtest.User, shared, rakk string) (*tmuxtest.Server, string) {
	t.Helper()
	rcast := replicaFile(t, "claude/2.1.267/permission-approve.cast", shared, u)
	fifo := filepath.Join(shared, "go")
	tmuxtest.Mkfifo(t, fifo)
	os.Chown(fifo, int(u.UID), int(u.GID))
	return tmuxtest.StartAs(t, u, 120, 40, "sh -c 'read _ < "+fifo+"; exec "+rakk+" replica "+rcast+"'"), fifo
}

// replicaFile writes the corpus recording cast, kept alive, into dir
// (readable by u when u is another user).
func replicaFile(t *testing.T, cast, dir string, u tmuxtest.User) string {
	t.Helper()
	return saveKeptAlive(t, loadCast(t, cast), filepath.Join(dir, filepath.Base(cast)), u)
}

// loadCast reads a corpus recording.
func loadCast(t *testing.T, cast string) *recordings.Recording {
	t.Helper()
	rec, err := recordings.ReadFile(filepath.Join(corpusDir, cast))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// saveKeptAlive appends the rigs' sentinel input to rec and writes it to
// path (0644, owned by u when u is another user). A last input only the
// test sends keeps the replica alive at its final screen, so the daemon
// proves an answer's postcondition on a live agent (the same device as
// the supervisor's replica tests).
func saveKeptAlive(t *testing.T, rec *recordings.Recording, path string, u tmuxtest.User) string {
	t.Helper()
	last := rec.Events[len(rec.Events)-1].Time
	rec.Events = append(rec.Events, recordings.Event{Time: last + 0.01, Code: recordings.Input, Data: []byte(replicaSentinel)})
	enc, err := recordings.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	if u.UID != 0 {
		os.Chown(path, int(u.UID), int(u.GID))
	}
	return path
}

// startDaemonAs runs `akk attach` on srv as srv's user (socket "" : its
// default one), ended by pid at cleanup.
func startDaemonAs(t *testing.T, srv *tmuxtest.Server, akk, store, socket string, env ...string) (exited <-chan struct{}) {
	t.Helper()
	args := []string{"--log-level", "debug", "attach", "-S", srv.Socket, "--store", store, "--allow-replicas"}
	if socket != "" {
		args = append(args, "--socket", socket)
	}
	cmd := exec.Command(akk, args...)
	var kept []string
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			kept = append(kept, kv)
		}
	}
	cmd.Env = append(kept, env...)
	if srv.Cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: srv.Cred}
	}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("daemon on %s:\n%s", srv.Socket, tail(log.String(), 4000))
		}
	})
	return done
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// finishReplica sends the sentinel and requires a clean exit: the strict
// replica got every recorded input, in order, and nothing else (it takes
// the sentinel only after its last recorded input).
func finishReplica(t *testing.T, srv *tmuxtest.Server) {
	t.Helper()
	srv.MustRun("send-keys", "-t", "main", "-H", "04")
	tmuxtest.Await(t, 20*time.Second, func() string {
		if d, _ := paneDead(srv, "main"); !d {
			return "the replica has not exited"
		}
		return ""
	})
	judgeReplicaExit(t, srv, "main")
}

// paneDead reports whether target's process exited, and its status once
// tmux knows it.
func paneDead(srv *tmuxtest.Server, target string) (bool, string) {
	out, err := srv.Run("display-message", "-p", "-t", target, "#{pane_dead} #{pane_dead_status}")
	if err != nil {
		return false, ""
	}
	f := strings.Fields(string(out))
	return len(f) >= 1 && f[0] == "1", strings.Join(f[1:], "")
}

// judgeReplicaExit requires a dead replica pane to have exited clean.
// tmux 3.3a marks a pane dead when its pty closes and learns the exit
// status when it reaps the child, which it sometimes does late (a CI run
// saw none in 20 s): give it a moment, then judge a status-less dead pane
// by its screen, where a replica that diverged says so.
func judgeReplicaExit(t *testing.T, srv *tmuxtest.Server, target string) {
	t.Helper()
	var status string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, status = paneDead(srv, target); status != "" {
			break
		}
	}
	out, _ := srv.Run("capture-pane", "-p", "-t", target)
	if (status != "" && status != "0") || strings.Contains(string(out), "replica diverged") {
		t.Fatalf("replica exited %q:\n%s", status, out)
	}
}
