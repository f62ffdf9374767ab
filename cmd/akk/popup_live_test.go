package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/shot"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/port"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// livePopup: a real pinned agent under the daemon with the [ask] policy
// ask_person, a person at a real tmux client. A managed Turn makes the
// agent ask for a tool; the daemon asks the person through the port (a
// popup on the client racing a request file in the run directory); the
// person presses y; only then the daemon approves once (fresh offer, the
// dispatch transaction) and the agent carries on to the end of the Turn.
// With AKK_UPDATE_SCREENSHOTS=1 the popup over the agent's prompt is
// written to docs/popup-<agent>-live.png.
func livePopup(t *testing.T, agent, version, word string) {
	tmuxtest.RequireTmux(t)
	_, err := rig.Lookup(agent, version)
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v", agent, version, agent, version, err))
	akk := buildAkk(t)
	root := t.TempDir()
	la, err := rig.PrepareLive(filepath.Join(root, "world"), agent, version, rig.Script(agent, version), testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(la.Close)
	const w, h = 120, 41 // the agent's pane is 120x40 under the status line
	srv := tmuxtest.Start(t, w, h-1, "sh -c "+shellQuote(la.Command))
	srv.MustRun("set-option", "-g", "status", "on")

	// The daemon, with the ask policy and the agents' file roots of the
	// isolated world.
	dir := filepath.Join(root, "akk")
	askDir := filepath.Join(dir, "ask")
	conf := filepath.Join(dir, "config.toml")
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("[ask]\npolicy = \"ask_person\"\nrun_dir = %q\n", askDir)), 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "api", api.SocketName)
	logf, err := os.Create(filepath.Join(dir, "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(akk, "--log-level", "debug", "attach", "-S", srv.Socket, "--store", filepath.Join(dir, "store"),
		"--socket", sock, "--config", conf)
	cmd.Env = append(srv.Env, "HOME="+la.Home.Home, "CODEX_HOME="+filepath.Join(la.Home.Home, ".codex"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("daemon log:\n%s", b)
		}
	})
	cl := api.NewClient(sock)
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The status segment of `akk tmux-conf`, as a person would have it.
	out, err := exec.Command(akk, "tmux-conf", "--socket", sock, "--akk", akk).Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "akk.conf"), out, 0o600)
	srv.MustRun("source-file", filepath.Join(dir, "akk.conf"))
	c := attachPerson(t, srv, "main", w, h)

	row := awaitLiveRow(t, ctx, cl, func(r api.Terminal) bool {
		_, canSend := r.AvailableActions["send"]
		return r.Agent == agent && r.ScreenState == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && r.Profile == "exact" && canSend
	})
	res, err := cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: word})
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("send %q: %+v %v", word, res, err)
	}
	// The daemon asks: a popup on this client and a request file.
	c.AwaitText("akk asks")
	c.AwaitText("Approve it once?")
	askedAt := time.Now()
	f, _ := port.OpenFiles(askDir, nil)
	c.Await("the request file", 10*time.Second, func() bool { r, _ := f.Pending(); return len(r) == 1 })
	// Nothing answered by itself: the agent still waits.
	time.Sleep(time.Second)
	if r := liveRow(t, ctx, cl); r.ScreenState != contract.ScreenAwaitingApproval || r.Interaction == nil || r.Interaction.State != contract.StatePending {
		t.Fatalf("the prompt did not wait for the person: %+v", r)
	}
	if os.Getenv("AKK_UPDATE_SCREENSHOTS") == "1" {
		rows := c.Shot()
		name := filepath.Join("..", "..", "docs", "popup-"+agent+"-live.png")
		pf, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := shot.WritePNG(pf, rows); err != nil {
			t.Fatal(err)
		}
		pf.Close()
		t.Logf("wrote %s", name)
	}
	t.Logf("screen with the popup:\n%s", c.Text())
	c.Keys("y")
	c.AwaitGone("akk asks")
	awaitLiveRow(t, ctx, cl, func(r api.Terminal) bool {
		return r.ScreenState != contract.ScreenAwaitingApproval
	})
	t.Logf("figure: the prompt left the screen %v after the popup asked (incl. the test's 1 s wait and the screenshot)",
		time.Since(askedAt).Round(time.Millisecond))
	// The file channel's request was withdrawn when the popup won.
	c.Await("the request file withdrawn", 10*time.Second, func() bool { r, _ := f.Pending(); return len(r) == 0 })
	// The Turn ends on the agent's own evidence.
	deadline := time.Now().Add(90 * time.Second)
	for {
		task, err := cl.TaskStatus(ctx, api.TaskRequest{TurnID: res.TurnID})
		if err == nil && (task.State == "completed" || task.State == "done") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("turn %s: %+v %v\n%s", res.TurnID, task, err, c.Text())
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(logf.Name())
	if !strings.Contains(string(b), "approved on a person's answer") {
		t.Errorf("the daemon's log does not show the person's approval")
	}
}

func liveRow(t *testing.T, ctx context.Context, cl *api.Client) api.Terminal {
	l, err := cl.List(ctx)
	if err != nil || len(l.Terminals) == 0 {
		return api.Terminal{}
	}
	return l.Terminals[0]
}

func awaitLiveRow(t *testing.T, ctx context.Context, cl *api.Client, ok func(api.Terminal) bool) api.Terminal {
	t.Helper()
	var r api.Terminal
	tmuxtest.Await(t, 90*time.Second, func() string {
		if r = liveRow(t, ctx, cl); ok(r) {
			return ""
		}
		return fmt.Sprintf("row %+v", r)
	})
	return r
}

func TestLiveClaudePopup(t *testing.T) { livePopup(t, "claude", "2.1.267", "run-touch") }
func TestLiveCodexPopup(t *testing.T)  { livePopup(t, "codex", "0.155.1", "run-ls") }
