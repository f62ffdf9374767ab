package supervisor

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestTmuxUserSendCrash kills the daemon at each stage of a
// user-explicit send into a Codex draft (strict replica of the recorded
// clear-draft: ctrl+u, the text, Enter), AKK_CRASH_RUNS times each
// (default 2): before the reservation, after it, after the first input
// (the clear key alone has gone), before the receipt (all of it has).
// After the restart on the same store, every reservation that may have
// sent input is uncertain with its Turn never sent again, and the
// replica, which exits on any input it did not record, ends clean after
// the test types the rest of the recording itself: nothing akk sent
// twice, nothing after the kill.
func TestTmuxUserSendCrash(t *testing.T) {
	if !fault.Enabled {
		t.Skip("needs the fault hook: go test -tags akkfault")
	}
	requireTmux(t)
	akk := buildAkk(t)
	runs := 2
	if v := os.Getenv("AKK_CRASH_RUNS"); v != "" {
		n, _ := strconv.Atoi(v)
		runs = max(1, n/5) // the approve crash test carries the many runs
	}
	srv := tmuxtest.Start(t, 120, 40, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	// The recorded inputs that reached the replica before each kill.
	landed := map[string]int{dispatch.FaultAfterInput: 1, dispatch.FaultBeforeReceipt: 3}
	for _, point := range dispatch.FaultPoints {
		t.Run(point, func(t *testing.T) {
			for run := range runs {
				userSendCrashRun(t, ctx, srv, client, akk, point, run, landed[point])
				if t.Failed() {
					return
				}
			}
		})
	}
}

func userSendCrashRun(t *testing.T, ctx context.Context, srv *tmuxtest.Server, client *controlmode.Client, akk, point string, run, landed int) {
	t.Helper()
	rc := replicaPanes(t, srv, akk, [][3]string{{"codex", "0.155.1", "clear-draft"}})[0]
	c := startCrashChild(t, srv, point)
	r := &replicaDriver{t: t, ctx: ctx, client: client, c: rc, name: fmt.Sprintf("%s run %d", point, run)}
	r.start()
	r.toMarker(0) // the person's draft is in the composer
	row := c.awaitRow(t, ctx, rc.pane, api.ScreenIdle)
	if _, ok := row.AvailableActions["send_user_explicit"]; !ok || row.Composer != "draft" {
		t.Fatalf("%s: the draft row advertises %v (composer %s)", r.name, row.AvailableActions, row.Composer)
	}
	_, err := c.cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Mode: api.SendUserExplicit, Request: "hello there"})
	if err == nil {
		t.Fatalf("%s: the send returned; the fault hook did not fire", r.name)
	}
	rs := c.killed(t, r.name, point)
	for range landed {
		r.skipInput() // akk's input reached the replica before the kill
	}
	d, _ := c.restartUncertain(t, srv, r.name, rs)
	defer d.stop()
	if len(rs) == 1 {
		turn, err := d.st.Turn(rs[0].TurnID)
		if err != nil || turn.State != store.TurnUncertain {
			t.Fatalf("%s: after restart the send's Turn is %+v (%v), want uncertain", r.name, turn, err)
		}
	}
	// The restarted daemon has the pane's screen (a barrier): anything it
	// would have sent again on its start has gone by now.
	if _, _, err := awaitPaneState(ctx, d, rc.pane, ""); err != nil {
		t.Fatal(err)
	}
	r.d = d
	r.finish(srv)
}
