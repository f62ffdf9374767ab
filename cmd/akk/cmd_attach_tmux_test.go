package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxCLIDaemon drives the daemon commands as a user would, with the
// default store and socket locations under XDG directories: attach
// --detach, list, status, events, doctor, then the exit codes once the
// daemon is gone.
func TestTmuxCLIDaemon(t *testing.T) {
	akk, srv, fifo := cliStage(t)
	cast, _ := filepath.Abs(filepath.Join(corpusDir, "claude", "2.1.267", "draft.cast"))
	// The replica plays up to its first recorded input (the draft's text)
	// and waits there: an idle Claude Code with an empty composer.
	srv.MustRun("new-window", "-d", "-t", "main", fmt.Sprintf("sh -c 'read _ < %s; exec %s replica %s'", fifo, akk, cast))
	run, h := attachDetached(t, akk, srv)
	defer syscall.Kill(h.PID, syscall.SIGTERM) // the daemon we started, by its pid
	var code int
	var out, errOut string
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var l api.ListResponse
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, out, errOut = run("list", "--json")
		l = api.ListResponse{}
		_ = json.Unmarshal([]byte(out), &l)
		if code == 0 && len(l.Terminals) == 2 && l.Terminals[1].ScreenState == contract.ScreenIdle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("list --json: exit %d\n%s\n%s", code, out, errOut)
		}
		time.Sleep(50 * time.Millisecond)
	}
	row := l.Terminals[1]
	if l.V != 1 || row.Agent != "claude" || row.Version != "2.1.267" || !row.Replica || row.Profile != "exact" ||
		row.Composer != contract.ComposerEmpty || row.AvailableActions == nil || row.Warnings == nil {
		t.Errorf("replica row %+v", row)
	}
	if !strings.Contains(out, `"interaction":null`) || !strings.Contains(out, `"available_actions":{}`) {
		t.Errorf("list --json lacks the contract's null interaction or empty actions:\n%s", out)
	}
	if code, out, _ := run("list"); code != 0 || !strings.Contains(out, "claude@2.1.267 replica") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	code, out, _ = run("status", row.TerminalID, "--json")
	var st api.StatusResponse
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Terminal.TerminalID != row.TerminalID || st.Evidence.Recognizer != "claude@2.1.267" {
		t.Errorf("status --json: exit %d\n%s", code, out)
	}
	// A person's selectors name the same terminal as its id does.
	for _, sel := range []string{"only", "claude", "@" + strings.TrimPrefix(row.TerminalID, "term_")[:6], row.PaneID, "main:1.0"} {
		code, out, errOut := run("status", sel, "--json")
		var st api.StatusResponse
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Terminal.TerminalID != row.TerminalID {
			t.Errorf("status %s: exit %d\n%s%s", sel, code, out, errOut)
		}
	}
	if code, _, errOut := run("status", "codex"); code != exitNotFound || !strings.Contains(errOut, "no agent terminal matches") {
		t.Errorf("status codex without one: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := run("status", "main:7.0"); code != exitNotFound {
		t.Errorf("status of a tmux target that is not there: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := run("status", "term_nope"); code != exitNotFound || !strings.Contains(errOut, "akk list") {
		t.Errorf("status of an unknown terminal: exit %d\n%s", code, errOut)
	}
	code, out, _ = run("events", "--json")
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var e map[string]any
		if json.Unmarshal(sc.Bytes(), &e) != nil || e["seq"] == nil || e["time"] == nil || e["type"] == nil {
			t.Errorf("events line %q", sc.Text())
		}
		n++
	}
	if code != 0 || n < 2 {
		t.Errorf("events --json: exit %d, %d lines", code, n)
	}
	code, out, _ = run("doctor", "--json", "-S", srv.Socket)
	if code != 0 || !strings.Contains(out, `"ok":true`) {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
	// Without -S the doctor checks the daemon's tmux server, not the
	// default one (there is none in this environment).
	if code, out, _ := run("doctor"); code != 0 || !strings.Contains(out, "server   the daemon's "+h.TmuxSocket) {
		t.Errorf("doctor without -S: exit %d\n%s", code, out)
	}
	// A second attach --detach finds the daemon running: nothing to do.
	if code, out, errOut := run("attach", "--detach", "-S", srv.Socket, "--allow-replicas"); code != 0 ||
		!strings.Contains(out, fmt.Sprintf("already running (pid %d)", h.PID)) {
		t.Errorf("a second attach --detach: exit %d\n%s%s", code, out, errOut)
	}
	syscall.Kill(h.PID, syscall.SIGTERM)
	for i := 0; i < 200; i++ {
		if syscall.Kill(h.PID, 0) != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, _, errOut := run("list"); code != 6 || !strings.Contains(errOut, "akk attach") {
		t.Errorf("list after the daemon stopped: exit %d\n%s", code, errOut)
	}
	if code, out, _ := run("doctor", "-S", srv.Socket); code != 6 || !strings.Contains(out, "FAIL daemon") {
		t.Errorf("doctor without daemon: exit %d\n%s", code, out)
	}
}

// cliRun runs an akk command as a user would: its exit code, stdout and
// stderr.
type cliRun func(args ...string) (code int, stdout, stderr string)

// cliStage is where the CLI tests play: akk, a tmux server fixed at the
// recordings' 120x40, and a fifo for a replica's pane to wait on.
func cliStage(t *testing.T) (akk string, srv *tmuxtest.Server, fifo string) {
	t.Helper()
	tmuxtest.RequireTmux(t)
	akk = buildAkk(t)
	fifo = filepath.Join(t.TempDir(), "go")
	tmuxtest.Mkfifo(t, fifo)
	return akk, tmuxtest.StartFixed(t, 120, 40, "sh"), fifo
}

// attachDetached starts `akk attach --detach --allow-replicas` on srv with
// the default store and socket under temporary XDG directories, and
// returns a runner of akk commands in that environment and the daemon's
// health (its pid: the caller stops it).
func attachDetached(t *testing.T, akk string, srv *tmuxtest.Server) (cliRun, api.Health) {
	t.Helper()
	xdg := t.TempDir()
	env := append(append([]string{}, srv.Env...), "XDG_STATE_HOME="+filepath.Join(xdg, "state"), "XDG_RUNTIME_DIR="+filepath.Join(xdg, "run"))
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(akk, args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), stdout.String(), stderr.String()
		}
		return 0, stdout.String(), stderr.String()
	}
	code, out, errOut := run("attach", "--detach", "-S", srv.Socket, "--allow-replicas", "--json")
	var h api.Health
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil || h.PID == 0 {
		t.Fatalf("attach --detach: exit %d\n%s\n%s", code, out, errOut)
	}
	return run, h
}
