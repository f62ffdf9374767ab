package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
)

// TestTmuxCancel: akk sends a task to a strict replica (Claude Code
// 2.1.267, Codex 0.155.1) as a managed Turn; while the agent works, cancel
// by turn_id refuses another controller, then interrupts it with exactly
// the agent's own key (Escape, C-c: the replica diverges on anything else)
// and settles the Turn cancelled; a second cancel of the settled Turn is
// refused with nothing sent.
func TestTmuxCancel(t *testing.T) {
	akk, srv, d := replicaStage(t, daemonOpts{})
	dir := t.TempDir()
	for _, tc := range []struct{ agent, version, key string }{
		{"claude", "2.1.267", "\x1b"}, {"codex", "0.155.1", "\x03"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, sent := workingCancelReplica(t, ctx, srv, akk, d, dir, tc.agent, tc.version, tc.key)
			other := api.NewClient(d.sock)
			defer other.Close()
			other.SetController("popup:/dev/pts/99")
			if res, err := other.Cancel(ctx, api.CancelRequest{TurnID: sent.TurnID}); err != nil ||
				res.Outcome != api.OutcomeRejected || res.ReceiptID != "" {
				t.Fatalf("cancel by another controller: %+v %v", res, err)
			}
			res, err := d.cl.Cancel(ctx, api.CancelRequest{TurnID: sent.TurnID})
			if err != nil || res.Outcome != api.OutcomeAccepted || !res.DoNotRetry || res.ReceiptID == "" {
				t.Fatalf("cancel: %+v %v", res, err)
			}
			if turn, err := d.st.Turn(sent.TurnID); err != nil || turn.State != store.TurnCancelled {
				t.Errorf("the Turn after cancel: %+v %v", turn, err)
			}
			again, err := d.cl.Cancel(ctx, api.CancelRequest{TurnID: sent.TurnID})
			if err != nil || again.Outcome != api.OutcomeRejected || again.ReceiptID != "" {
				t.Errorf("a second cancel: %+v %v", again, err)
			}
			srv.MustRun("send-keys", "-t", c.pane, "-H", "04") // the sentinel ends the replica
			checkReplicaEnded(t, ctx, srv, c)
		})
	}
}

// workingCancelReplica starts a cancelReplica of agent@version in a new
// pane and sends it a slow task through akk, which it accepts from the
// idle screen with an empty composer; it returns once the replica works.
func workingCancelReplica(t *testing.T, ctx context.Context, srv *tmuxtest.Server, akk string, d *daemon,
	dir, agent, version, key string) (*replicaCase, api.ActionResult) {
	t.Helper()
	c := &replicaCase{agent: agent, version: version, surface: "working"}
	c.file = cancelReplica(t, dir, agent, version, key)
	c.fifo = filepath.Join(dir, "go-"+agent)
	tmuxtest.Mkfifo(t, c.fifo)
	c.pane = newWindow(t, srv, 120, 40, fmt.Sprintf(`sh -c 'read _ < "%s"; exec "%s" replica "%s"'`, c.fifo, akk, c.file))
	if err := os.WriteFile(c.fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := awaitPaneState(ctx, d, c.pane, contract.ScreenIdle); err != nil {
		t.Fatal(err)
	}
	row := awaitRow(t, d.cl, c.pane, 10*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty {
			return "not an idle empty composer"
		}
		return ""
	})
	sent, err := d.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: "slow-work please"})
	if err != nil || sent.TurnID == "" || sent.Outcome == api.OutcomeRejected {
		t.Fatalf("send: %+v %v", sent, err)
	}
	if _, _, err := awaitPaneState(ctx, d, c.pane, contract.ScreenWorking); err != nil {
		t.Fatal(err)
	}
	return c, sent
}

// cancelReplica is the corpus's working recording with the interrupt key
// as its next input, after which the agent clears its screen (no longer
// working), then the sentinel.
func cancelReplica(t testing.TB, dir, agent, version, key string) string {
	rec := loadCorpus(t, agent, version, "working")
	appendEvents(rec, key, []byte("\x1b[H\x1b[2Jinterrupted\r\n"), sentinel)
	return saveRecording(t, dir, agent+"-cancel.cast", rec)
}
