package supervisor

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestTmuxUserSendCrash kills the daemon at each stage of a
// user-explicit send into a Codex draft (strict replica of the recorded
// clear-draft: ctrl+u, the text, Enter): before the reservation, after
// it, after the first input (the clear key alone has gone), before the
// receipt (all of it has). After the restart on the same store, every
// reservation that may have sent input is uncertain with its Turn never
// sent again, and the replica, which exits on any input it did not
// record, ends clean after the test types the rest of the recording
// itself: nothing akk sent twice, nothing after the kill.
func TestTmuxUserSendCrash(t *testing.T) {
	runStepCrash(t, stepCrash{
		surface:  [3]string{"codex", "0.155.1", "clear-draft"},
		state:    contract.ScreenIdle,
		composer: "draft",
		landed:   map[string]int{dispatch.FaultAfterInput: 1, dispatch.FaultBeforeReceipt: 3},
		act: func(ctx context.Context, t *testing.T, cl *api.Client, row api.Terminal) error {
			if _, ok := row.AvailableActions["send_user_explicit"]; !ok || row.Composer != contract.ComposerDraft {
				t.Fatalf("the draft row advertises %v (composer %s)", row.AvailableActions, row.Composer)
			}
			_, err := cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Mode: api.SendUserExplicit, Request: "hello there"})
			return err
		},
		after: func(t *testing.T, d *daemon, rs []store.Reservation) {
			turn, err := d.st.Turn(rs[0].TurnID)
			if err != nil || turn.State != store.TurnUncertain {
				t.Fatalf("after restart the send's Turn is %+v (%v), want uncertain", turn, err)
			}
		},
	})
}

// TestTmuxMultiSelectCrash kills the daemon at each stage of a
// multi-select answer (strict replica of Claude Code's recorded
// multi-select: "1" and "3" tick Cheese and Olives, Tab opens the
// review). Killed after the first toggle, the restarted daemon settles
// the answer uncertain, sends nothing, and shows the question as it now
// is: Cheese ticked, nothing else; the test then types the recording's
// remaining toggle, Tab and the review's Enter, and the replica ends clean.
func TestTmuxMultiSelectCrash(t *testing.T) {
	runStepCrash(t, stepCrash{
		surface: [3]string{"claude", "2.1.267", "multi-select"},
		state:   contract.ScreenQuestionnaire,
		landed:  map[string]int{dispatch.FaultAfterInput: 1, dispatch.FaultBeforeReceipt: 3},
		act: func(ctx context.Context, t *testing.T, cl *api.Client, row api.Terminal) error {
			st, err := cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID})
			if err != nil {
				t.Fatal(err)
			}
			in := st.Terminal.Interaction
			if in == nil || len(in.Questions) != 1 || in.Questions[0].ResponseKind != contract.ResponseMultiSelect {
				t.Fatalf("not a multi-select: %+v", in)
			}
			q := in.Questions[0]
			var pick []string
			for _, o := range q.Options {
				if o.Label == "Cheese" || o.Label == "Olives" {
					pick = append(pick, o.OptionID)
				}
			}
			_, err = cl.Respond(ctx, api.RespondRequest{TerminalID: row.TerminalID, InteractionID: in.InteractionID,
				Answers: []api.Answer{{QuestionID: q.QuestionID, ResponseKind: "multi_select", SelectedOptionIDs: pick}}})
			return err
		},
		afterInput: func(t *testing.T, d *daemon, pane string, landed int) {
			if landed != 1 {
				return
			}
			p, _ := controlmode.ParsePaneID(pane)
			m := d.sv.monitor(p)
			if m == nil {
				t.Fatal("no monitor for the replica")
			}
			if got := m.View().Rec.Checked; !slices.Equal(got, []bool{true, false, false, false}) {
				t.Fatalf("after the first toggle and the restart the boxes read %v, want Cheese alone", got)
			}
		},
	})
}

// stepCrash is a transaction of several inputs to kill at each fault
// point, on a fresh strict replica of surface each run.
type stepCrash struct {
	surface [3]string
	state   contract.ScreenState // the row's screen state at the recording's first marker
	// composer is the row's composer there ("": any): the screen reaches
	// the marker's state before it finishes drawing what the marker shows
	// (clear-draft reads idle and empty before its draft is drawn).
	composer contract.Composer
	landed   map[string]int // recorded inputs that reach the replica before each kill
	// act makes the call the fault kills (it must return an error).
	act func(ctx context.Context, t *testing.T, cl *api.Client, row api.Terminal) error
	// after checks the reservation's records after the restart (when one
	// was made); afterInput the restarted daemon's view, landed inputs in.
	after      func(t *testing.T, d *daemon, rs []store.Reservation)
	afterInput func(t *testing.T, d *daemon, pane string, landed int)
}

// runStepCrash runs sc at every fault point, AKK_CRASH_RUNS/5 times each
// (default 2; the approve crash test carries the many runs).
func runStepCrash(t *testing.T, sc stepCrash) {
	requireFaultHook(t)
	akk := tmuxAkk(t)
	runs := 2
	if v := os.Getenv("AKK_CRASH_RUNS"); v != "" {
		n, _ := strconv.Atoi(v)
		runs = max(1, n/5)
	}
	srv := tmuxtest.StartFixed(t, 120, 40, "sh")
	ctx, client := driverClient(t, srv, 20*time.Minute)
	for _, point := range dispatch.FaultPoints {
		t.Run(point, func(t *testing.T) {
			for run := range runs {
				stepCrashRun(t, ctx, srv, client, akk, sc, point, run)
				if t.Failed() {
					return
				}
			}
		})
	}
}

func stepCrashRun(t *testing.T, ctx context.Context, srv *tmuxtest.Server, client *controlmode.Client, akk string, sc stepCrash, point string, run int) {
	t.Helper()
	rc := replicaPanes(t, srv, akk, [][3]string{sc.surface})[0]
	c := startCrashChild(t, srv, point)
	r := &replicaDriver{t: t, ctx: ctx, client: client, c: rc, name: fmt.Sprintf("%s run %d", point, run)}
	r.start()
	r.toMarker(0)
	row := c.awaitRowFunc(t, ctx, rc.pane, func(row api.Terminal) string {
		if row.ScreenState != sc.state || sc.composer != "" && row.Composer != sc.composer {
			return fmt.Sprintf("the child daemon shows %s/%s, want %s/%s", row.ScreenState, row.Composer, sc.state, sc.composer)
		}
		return ""
	})
	if err := sc.act(ctx, t, c.cl, row); err == nil {
		t.Fatalf("%s: the call returned; the fault hook did not fire", r.name)
	}
	rs := c.killed(t, r.name, point)
	landed := sc.landed[point]
	for range landed {
		r.skipInput() // akk's input reached the replica before the kill
	}
	d, _ := c.restartUncertain(t, srv, r.name, rs)
	defer d.stop()
	if len(rs) == 1 && sc.after != nil {
		sc.after(t, d, rs)
	}
	// The restarted daemon has the pane's screen (a barrier): anything it
	// would have sent again on its start has gone by now.
	if _, _, err := awaitPaneState(ctx, d, rc.pane, ""); err != nil {
		t.Fatal(err)
	}
	if sc.afterInput != nil {
		sc.afterInput(t, d, rc.pane, landed)
	}
	r.d = d
	r.finish(srv)
}
