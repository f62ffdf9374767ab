package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestTmuxRemoteApproveCrash: the connection to the other machine drops
// in the middle of an approve, after its input was typed there (its
// daemon killed at dispatch.after_input, over a real sshd). The client
// says uncertain (no_reply, exit 5, do_not_retry) and sends nothing
// again; the restarted remote daemon refuses a second approve, and the
// strict replica ends clean: it got the one '1'.
func TestTmuxRemoteApproveCrash(t *testing.T) {
	if !fault.Enabled {
		t.Skip("needs the fault hook: go test -tags akkfault")
	}
	u := requireSSHD(t)
	sshd := startSSHD(t)
	akk := buildAkk(t)
	shared := sharedDir(t, u)
	rakk := filepath.Join(shared, "akk")
	copyAs(t, u, akkbin.BuildFault(t), rakk, 0o755)
	rsrv, fifo := remoteReplica(t, u, shared, rakk)
	store := filepath.Join(shared, "store")
	mark := filepath.Join(shared, "fault")
	faulted := startDaemonAs(t, rsrv, rakk, store, "", "AKK_FAULT="+dispatch.FaultAfterInput, "AKK_FAULT_MARK="+mark)
	remote := sshd.url(remoteUser, "")
	cli := akkCLI(t, akk, sshd)

	row := awaitRemoteRow(t, cli, remote, "", rsrv)
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The replica's idle screen first: typed before its terminal is raw,
	// Enter would arrive as a newline.
	awaitRemoteRow(t, cli, remote, contract.ScreenIdle, rsrv)
	rsrv.MustRun("send-keys", "-t", "main", "-l", "run-touch")
	rsrv.MustRun("send-keys", "-t", "main", "Enter")
	row = awaitRemoteRow(t, cli, remote, contract.ScreenAwaitingApproval, rsrv)
	if code, _, errs := cli("--json", "status", row.TerminalID, "--host", remote); code != 0 {
		t.Fatalf("status: %d %s", code, errs)
	}
	code, out, errs := cli("--json", "approve", row.TerminalID, "--host", remote)
	var res api.ActionResult
	if code != api.ExitUncertain || json.Unmarshal([]byte(out), &res) != nil || res.Outcome != api.OutcomeUncertain ||
		res.Reason != api.ReasonNoReply || !res.DoNotRetry {
		t.Fatalf("approve over a connection that dropped: exit %d %s %s", code, out, errs)
	}
	if b, _ := os.ReadFile(mark); strings.TrimSpace(string(b)) != dispatch.FaultAfterInput {
		t.Fatalf("the remote daemon did not die at %s (mark %q)", dispatch.FaultAfterInput, b)
	}

	// The other machine's daemon again, on its store, once the faulted one
	// has exited (the mark is written just before it dies; until it is
	// gone it holds the store's lock): the prompt is gone, a second approve
	// is refused, and the replica got one '1'.
	select {
	case <-faulted:
	case <-time.After(30 * time.Second):
		t.Fatal("the faulted daemon did not exit")
	}
	startDaemonAs(t, rsrv, rakk, store, "")
	row = awaitRemoteRow(t, cli, remote, contract.ScreenIdle, rsrv)
	code, out, _ = cli("--json", "approve", row.TerminalID, "--host", remote)
	if json.Unmarshal([]byte(out), &res) != nil || res.Outcome == api.OutcomeAccepted || code == 0 {
		t.Errorf("a second approve after the drop: exit %d %s", code, out)
	}
	finishReplica(t, rsrv)
}

// awaitRemoteRow waits until the one remote row shows state ("" : any
// agent row).
func awaitRemoteRow(t *testing.T, cli func(args ...string) (int, string, string), host string, state contract.ScreenState, srv *tmuxtest.Server) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 30*time.Second, func() string {
		var l api.ListResponse
		if code, out, errs := cli("--json", "list", "--host", host); code != 0 || json.Unmarshal([]byte(out), &l) != nil {
			return "akk list: " + errs
		}
		if len(l.Terminals) != 1 || state != "" && l.Terminals[0].ScreenState != state {
			pane, _ := srv.Run("capture-pane", "-p", "-t", "main")
			return "rows: " + rowsOf(l) + "\n" + strings.TrimSpace(string(pane))
		}
		row = l.Terminals[0]
		return ""
	})
	return row
}
