package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

// TestTmuxCLIActions drives send, status, approve and their exit codes as a
// person at a shell would, against `akk attach --detach` and a strict
// replica of Claude Code 2.1.267 (it exits on any input it did not record):
// a slash command refused (3), a send accepted (0), an approve before any
// status refused (3, nothing sent), status then approve accepted (0), the
// same approve again refused (3), a usage error (2).
func TestTmuxCLIActions(t *testing.T) {
	akk, srv, fifo := cliStage(t)
	// A last input only the test sends keeps the replica alive at its final
	// screen: the approve's postcondition is proven on a live agent.
	rec, err := recordings.ReadFile(filepath.Join(corpusDir, "claude", "2.1.267", "permission-approve.cast"))
	if err != nil {
		t.Fatal(err)
	}
	rec.Events = append(rec.Events, recordings.Event{Time: rec.Events[len(rec.Events)-1].Time + 0.01,
		Code: recordings.Input, Data: []byte(replicaSentinel)})
	enc, err := recordings.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	cast := filepath.Join(t.TempDir(), "replica.cast")
	if err := os.WriteFile(cast, enc, 0o600); err != nil {
		t.Fatal(err)
	}
	pane := strings.TrimSpace(string(srv.MustRun("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main",
		fmt.Sprintf(`sh -c 'read _ < "%s"; exec "%s" replica "%s"'`, fifo, akk, cast))))
	cli, h := attachDetached(t, akk, srv)
	run := func(args ...string) (int, string) {
		code, stdout, stderr := cli(args...)
		return code, stdout + stderr
	}
	var code int
	var out string
	defer syscall.Kill(h.PID, syscall.SIGTERM) // the daemon we started, by its pid
	if err := releaseFifo(fifo); err != nil {
		t.Fatal(err)
	}
	row := awaitCLIRow(t, run, pane, func(r api.Terminal) bool { _, ok := r.AvailableActions["send"]; return ok })
	result := func(out string) api.ActionResult {
		var res api.ActionResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("not an action result: %v\n%s", err, out)
		}
		return res
	}
	if code, out := run("send", row.TerminalID, "/exit", "--json"); code != api.ExitRejected || result(out).Reason == "" {
		t.Errorf("send of a slash command: exit %d\n%s", code, out)
	}
	code, out = run("send", row.TerminalID, "run-touch", "--json")
	if res := result(out); code != 0 || res.Outcome != api.OutcomeAccepted || res.TurnID == "" {
		t.Fatalf("send: exit %d\n%s", code, out)
	}
	awaitCLIRow(t, run, pane, func(r api.Terminal) bool { return r.ScreenState == contract.ScreenAwaitingApproval })
	if code, out := run("approve", row.TerminalID, "--json"); code != api.ExitRejected || !strings.HasPrefix(result(out).Reason, api.ReasonNoOffer) {
		t.Errorf("approve before any status: exit %d\n%s", code, out)
	}
	// By selectors: the one Claude Code, then a prefix of its id. Each
	// resolves to the terminal before the request, so the approve consumes
	// the offer the status made.
	if code, out := run("status", "claude"); code != 0 || !strings.Contains(out, "decisions: approve_once") || !strings.Contains(out, "offer:") ||
		!strings.Contains(out, "  tool: ") {
		t.Errorf("status at the prompt: exit %d\n%s", code, out)
	}
	code, out = run("approve", "@"+strings.TrimPrefix(row.TerminalID, "term_")[:8], "--json")
	if res := result(out); code != 0 || res.Outcome != api.OutcomeAccepted || res.ReceiptID == "" || res.Timing == nil {
		t.Fatalf("approve after status: exit %d\n%s\n%s", code, out, srv.MustRun("capture-pane", "-p", "-t", pane))
	}
	if code, out := run("approve", row.TerminalID); code != api.ExitRejected {
		t.Errorf("the same approve again: exit %d\n%s", code, out)
	}
	if code, out := run("respond", "--interaction", "int_aaaaaaaaaaaaaaaaaaaaaaaaaa"); code != api.ExitUsage {
		t.Errorf("respond without a subject: exit %d\n%s", code, out)
	}
	awaitCLIRow(t, run, pane, func(r api.Terminal) bool { return r.ScreenState == contract.ScreenIdle })
	// The strict replica took exactly the recorded input: it is alive at its
	// final screen, waiting for the sentinel, with no divergence printed.
	if screen := srv.MustRun("capture-pane", "-p", "-t", pane); bytes.Contains(screen, []byte("diverged")) || bytes.Contains(screen, []byte("Pane is dead")) {
		t.Errorf("the replica diverged or ended:\n%s", screen)
	}
}

func awaitCLIRow(t *testing.T, run func(...string) (int, string), pane string, ok func(api.Terminal) bool) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 15*time.Second, func() string {
		code, out := run("list", "--json")
		var l api.ListResponse
		_ = json.Unmarshal([]byte(out), &l)
		for _, r := range l.Terminals {
			if code == 0 && r.PaneID == pane && ok(r) {
				row = r
				return ""
			}
		}
		return fmt.Sprintf("list: exit %d\n%s", code, out)
	})
	return row
}

// releaseFifo lets a replica waiting on fifo start, without blocking when
// its shell died.
func releaseFifo(fifo string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := openNonBlock(fifo)
		if err == nil {
			_, err = f.Write([]byte("go\n"))
			f.Close()
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("release %s: %w", fifo, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func openNonBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
}
