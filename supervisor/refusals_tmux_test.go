package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry/refusaltest"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// stepper drives one strict replica event by event: the test decides at
// each point what to send.
type replicaDriver struct {
	t      testing.TB
	ctx    context.Context
	d      *daemon
	client *controlmode.Client
	c      *replicaCase
	rf     *replicaFeed
	out    int // output bytes due before the current event
	next   int // the next event
	name   string
}

func newReplicaDriver(t testing.TB, ctx context.Context, d *daemon, client *controlmode.Client, c *replicaCase) *replicaDriver {
	r := &replicaDriver{t: t, ctx: ctx, d: d, client: client, c: c, name: c.agent + "/" + c.version + "/" + c.surface}
	r.start()
	return r
}

func (r *replicaDriver) take() {
	r.t.Helper()
	if err := r.rf.take(r.ctx, r.out); err != nil {
		r.t.Fatalf("%s: %v", r.name, err)
	}
}

// toMarker plays (inputs typed by the test) up to and including the
// k-th marker (0-based), waits for the output before it and for the
// daemon to show its state; it returns the marker.
func (r *replicaDriver) toMarker(k int) recordings.Marker {
	r.t.Helper()
	seen := 0
	if !r.playUntil(func(e recordings.Event) bool {
		if e.Code != recordings.MarkerEv {
			return false
		}
		seen++
		return seen > k
	}) {
		r.t.Fatalf("%s: no marker %d", r.name, k)
	}
	e := r.c.rec.Events[r.next]
	r.next++
	r.take()
	m, err := recordings.ParseMarker(string(e.Data))
	if err != nil {
		r.t.Fatal(err)
	}
	if r.d != nil {
		if _, _, err := awaitPaneState(r.ctx, r.d, r.c.pane, m.State); err != nil {
			r.t.Fatalf("%s: %v", r.name, err)
		}
	}
	return m
}

// playUntil plays the recording on from the next event (its output
// counted as due, its inputs typed by the test) up to the first event
// stop accepts, which it leaves next; it reports whether there was one.
// The last event, the replica's own end, is never played.
func (r *replicaDriver) playUntil(stop func(recordings.Event) bool) bool {
	r.t.Helper()
	evs := r.c.rec.Events[:len(r.c.rec.Events)-1]
	for ; r.next < len(evs); r.next++ {
		switch e := evs[r.next]; {
		case stop(e):
			return true
		case e.Code == recordings.Output || e.Code == recordings.OutputRaw:
			r.out += len(e.Data)
		case e.Code == recordings.Input:
			r.sendRecorded(e.Data)
		}
	}
	return false
}

// isInput stops playUntil at the next recorded input, not sent.
func isInput(e recordings.Event) bool { return e.Code == recordings.Input }

// toInput plays up to the recording's next input (not sent) and waits
// for the daemon to show the terminal with all of that output.
func (r *replicaDriver) toInput() {
	r.t.Helper()
	r.playUntil(isInput)
	r.take()
	if r.d == nil {
		return
	}
	if _, _, err := awaitPaneState(r.ctx, r.d, r.c.pane, ""); err != nil {
		r.t.Fatalf("%s: %v", r.name, err)
	}
}

func (r *replicaDriver) sendRecorded(b []byte) {
	r.t.Helper()
	r.take()
	pane, _ := controlmode.ParsePaneID(r.c.pane)
	if err := r.client.SendBytes(r.ctx, pane, b); err != nil {
		r.t.Fatalf("%s: send: %v", r.name, err)
	}
}

// skipInput notes that akk sent the next recorded input: the driver does
// not send it again.
func (r *replicaDriver) skipInput() {
	if r.playUntil(isInput) {
		r.next++
	}
}

// finish types the rest of the recording and the sentinel, and requires
// the strict replica to end clean: it received exactly the recorded
// inputs, so nothing akk refused reached it.
func (r *replicaDriver) finish(srv *tmuxtest.Server) {
	r.t.Helper()
	r.playUntil(func(recordings.Event) bool { return false })
	r.sendRecorded([]byte(sentinel))
	checkReplicaEnded(r.t, r.ctx, srv, r.c)
}

// row is the replica's current list row.
func (r *replicaDriver) row() api.Terminal {
	r.t.Helper()
	l, err := r.d.cl.List(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	row, _ := rowOf(l, r.c.pane)
	return row
}

func (r *replicaDriver) monitor() *terminal.Pane {
	p, _ := controlmode.ParsePaneID(r.c.pane)
	return r.d.sv.monitor(p)
}

// tmuxFault makes a table case's fault against a strict replica.
func tmuxFault(r *replicaDriver, c refusaltest.Case) {
	r.t.Helper()
	switch c.Fault {
	case refusaltest.NoFault:
	case refusaltest.MoveOn:
		r.toMarker(c.Markers) // the person answers on the pane
	case refusaltest.ExpireOffers:
		expireOffers(r)
	case refusaltest.ExpireMoveOn:
		expireOffers(r)
		r.toMarker(0)
	case refusaltest.PastHorizon:
		ageOffers(r, dispatch.OfferHorizon+time.Minute)
	case refusaltest.ForgetOffers:
		r.d.sv.disp.ForgetOffers()
	case refusaltest.OtherCwd: // a replica's cwd cannot move: the offer's does
		editOffers(r, func(o *dispatch.OfferEdit) { o.Cwd = "/elsewhere" })
	case refusaltest.OtherIncarnation:
		editOffers(r, func(o *dispatch.OfferEdit) { o.Incarnation = "another" })
	case refusaltest.Fenced:
		// What an accepted approve leaves: the prompt's fence.
		m := r.monitor()
		v := m.View()
		if _, err := r.d.sv.commit(store.Change{Fences: []store.Fence{{Key: v.CurrentFence, Reservation: "rcpt_earlier", TerminalID: v.ID}}}); err != nil {
			r.t.Fatal(err)
		}
		m.ForgetFence() // as execute does after writing a fence
		m.Poke()
		tmuxtest.Await(r.t, 5*time.Second, func() string {
			row := r.row()
			if in := row.Interaction; in == nil || in.State != contract.StateManualRequired || !slices.Contains(in.Reasons, terminal.ReasonRepeatedPrompt) {
				return fmt.Sprintf("a fenced prompt shows %+v", in)
			}
			return ""
		})
	case refusaltest.Redrawn:
		redrawPane(r, c)
	case refusaltest.CopyMode, refusaltest.ViewMode, refusaltest.TreeMode, refusaltest.InputOff, refusaltest.Synchronized:
		r.tmux(paneFaultCmds[c.Fault]...)
	default:
		r.t.Fatalf("fault %q: the tmux runner cannot make it (mark the case UnitOnly)", c.Fault)
	}
}

// paneFaultCmds put a pane in the tmux state of a fault, as a person's
// key or a tmux command would.
var paneFaultCmds = map[refusaltest.Fault][]string{
	refusaltest.CopyMode:     {"copy-mode", "-t"},
	refusaltest.ViewMode:     {"run-shell", "-t", "PANE", "echo akk-test-view"},
	refusaltest.TreeMode:     {"choose-tree", "-t"},
	refusaltest.InputOff:     {"select-pane", "-d", "-t"},
	refusaltest.Synchronized: {"set-option", "-p", "-t", "PANE", "synchronize-panes", "on"},
}

// tmuxUnfault undoes a pane fault of paneFaultCmds (the recording's
// rest is typed through tmux, which a mode would take).
func tmuxUnfault(r *replicaDriver, c refusaltest.Case) {
	r.t.Helper()
	switch c.Fault {
	case refusaltest.CopyMode, refusaltest.ViewMode, refusaltest.TreeMode:
		r.tmux("copy-mode", "-q", "-t") // -q: leave every mode
	case refusaltest.InputOff:
		r.tmux("select-pane", "-e", "-t")
	case refusaltest.Synchronized:
		r.tmux("set-option", "-p", "-u", "-t", "PANE", "synchronize-panes")
	}
}

// tmux runs a tmux command on the replica's pane: "PANE" in args is its
// id, and args ending in "-t" get it appended.
func (r *replicaDriver) tmux(args ...string) {
	r.t.Helper()
	cmd := make(controlmode.Cmd, 0, len(args)+1)
	for _, a := range args {
		if a == "PANE" {
			a = r.c.pane
		}
		cmd = append(cmd, a)
	}
	if args[len(args)-1] == "-t" {
		cmd = append(cmd, r.c.pane)
	}
	if cmd[0] == "run-shell" { // its replies cannot be matched on a control client
		x := exec.CommandContext(r.ctx, "tmux", append([]string{"-S", r.d.sv.cfg.TmuxSocket}, cmd...)...)
		x.Env = r.d.sv.cfg.TmuxEnv
		if out, err := x.CombinedOutput(); err != nil {
			r.t.Fatalf("%s: tmux %v: %v: %s", r.name, cmd, err, out)
		}
		return
	}
	if _, err := r.client.Exec(r.ctx, cmd); err != nil {
		r.t.Fatalf("%s: tmux %v: %v", r.name, cmd, err)
	}
}

// redrawPane writes the case's Redraw to the replica's tty: output, as
// the agent's own, which tmux draws; the replica reads only its input, so
// its recorded inputs are unchanged. It waits for the daemon to show the
// redrawn question.
func redrawPane(r *replicaDriver, c refusaltest.Case) {
	r.t.Helper()
	before := r.row().Interaction
	screen, err := r.client.Command(r.ctx, "capture-pane", "-p", "-t", r.c.pane)
	if err != nil {
		r.t.Fatal(err)
	}
	tty, err := r.client.Command(r.ctx, "display-message", "-p", "-t", r.c.pane, "#{pane_tty}")
	if err != nil {
		r.t.Fatal(err)
	}
	out, err := refusaltest.RedrawBytes(strings.Split(string(screen.Body), "\n"), c.Redraw)
	if err != nil {
		r.t.Fatal(err)
	}
	f, err := os.OpenFile(strings.TrimSpace(string(tty.Body)), os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	_, err = f.Write(out)
	f.Close()
	if err != nil {
		r.t.Fatal(err)
	}
	r.out += len(out) // the pane's output counts these bytes too
	tmuxtest.Await(r.t, 5*time.Second, func() string {
		if err := c.CheckRedrawn(before, r.row().Interaction); err != nil {
			return err.Error()
		}
		return ""
	})
}

// tmuxCall makes a table case's call through the daemon's API.
func tmuxCall(r *replicaDriver, c refusaltest.Case, st api.StatusResponse) (api.ActionResult, error) {
	req, err := refusaltest.Build(c, st.Terminal.TerminalID, st.Terminal.Interaction, "")
	if err != nil {
		return api.ActionResult{}, err
	}
	cl := r.d.cl
	if req.Controller != "" {
		other := api.NewClient(r.d.sock)
		defer other.Close()
		other.SetController(req.Controller)
		cl = other
	}
	switch {
	case req.Approve != nil:
		return cl.Approve(r.ctx, *req.Approve)
	case req.Respond != nil:
		return cl.Respond(r.ctx, *req.Respond)
	case req.Send != nil:
		return cl.Send(r.ctx, *req.Send)
	case req.Answer != nil:
		return cl.Answer(r.ctx, *req.Answer)
	default:
		return cl.Cancel(r.ctx, *req.Cancel)
	}
}

// TestTmuxDispatchRefusals runs the refusal table (refusaltest.Cases, the
// same the unit tier runs against a fake terminal) against strict
// replicas: every refusal with zero input (the replica then receives
// exactly its recorded inputs and ends clean), each first shown to send
// without its fault. Cases only the unit tier can make say why.
func TestTmuxDispatchRefusals(t *testing.T) {
	akk, srv, d := replicaStage(t, daemonOpts{})
	ctx, client := driverClient(t, srv, 5*time.Minute)
	for _, c := range refusaltest.Cases {
		if c.UnitOnly != "" {
			continue
		}
		for _, withFault := range []bool{false, true} {
			if !withFault && (c.FaultOnly || c.Fault == refusaltest.NoFault) {
				continue
			}
			label := c.Name
			if !withFault {
				label += ", without the fault"
			}
			t.Run(label, func(t *testing.T) {
				rc := replicaPanes(t, srv, akk, [][3]string{{c.Agent, c.Version, c.Recording}})[0]
				r := newReplicaDriver(t, ctx, d, client, rc)
				if c.Marker < 0 {
					r.toInput()
				} else {
					r.toMarker(c.Marker)
				}
				st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
				if err != nil {
					t.Fatal(err)
				}
				if c.ShownVersion() != c.RecordedVersion() && (st.Terminal.Version != c.ShownVersion() || st.Terminal.Profile != "generic") {
					t.Fatalf("relabelled replica shows %s %s", st.Terminal.Version, st.Terminal.Profile)
				}
				if _, ok := st.Terminal.AvailableActions[c.NoAction]; c.NoAction != "" && ok {
					t.Fatalf("the status advertises %s", c.NoAction)
				}
				if withFault {
					tmuxFault(r, c)
				}
				res, err := tmuxCall(r, c, st)
				if err != nil {
					t.Fatal(err)
				}
				want, reason := c.Outcome, c.Reason
				if !withFault {
					want, reason = api.OutcomeAccepted, ""
				}
				if res.Outcome != want || !strings.HasPrefix(res.Reason, reason) {
					t.Fatalf("outcome %s (%s), want %s (%s)", res.Outcome, res.Reason, want, reason)
				}
				if res.Outcome == api.OutcomeAccepted {
					for range max(c.Inputs, 1) {
						r.skipInput() // akk sent these recorded inputs
					}
				} else if res.DoNotRetry || res.ReceiptID != "" {
					t.Errorf("a refusal before input reserved %q / do_not_retry %v", res.ReceiptID, res.DoNotRetry)
				}
				if withFault {
					tmuxUnfault(r, c)
				}
				r.finish(srv)
			})
		}
	}
	t.Run("a prompt printed by a non-agent process", func(t *testing.T) {
		printed := filepath.Join(t.TempDir(), "prompt.txt")
		// The screen just before the answer: the recording's prompt, as ANSI.
		rc := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267", "permission-approve"}})[0]
		r := newReplicaDriver(t, ctx, d, client, rc)
		r.toMarker(0)
		ansi := r.monitor().Diagnose().ANSI
		if err := os.WriteFile(printed, []byte(ansi), 0o644); err != nil {
			t.Fatal(err)
		}
		// The pane's shell itself execs sleep (whichever shell tmux runs:
		// dash -c would fork a nested sh -c's last command).
		pane := newWindow(t, srv, 120, 40, fmt.Sprintf("cat %s; exec sleep 600", printed))
		var row api.Terminal
		tmuxtest.Await(t, 10*time.Second, func() string {
			l, _ := d.cl.List(ctx)
			row, _ = rowOf(l, pane)
			if row.TerminalID == "" || row.Command != "sleep" {
				return fmt.Sprintf("printer row %+v", row)
			}
			return ""
		})
		if row.Agent != api.AgentNone || row.Interaction != nil || len(row.AvailableActions) != 0 {
			t.Fatalf("a printed prompt is an agent's: %+v", row)
		}
		if _, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID}); err != nil {
			t.Fatal(err)
		}
		res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: row.TerminalID})
		if err != nil || res.Outcome != api.OutcomeRejected {
			t.Fatalf("approve on a printed prompt: %+v %v", res, err)
		}
		time.Sleep(200 * time.Millisecond)
		// The tty would echo any typed key under sleep: nothing arrived.
		if out := srv.MustRun("capture-pane", "-p", "-t", pane); bytes.Contains(bytes.TrimRight(out, "\n "), []byte("\n1")) {
			t.Errorf("input reached the printer pane:\n%s", out)
		}
		r.sendRecorded([]byte("1")) // the real replica, untouched, still takes its answer
		r.skipInput()
		r.finish(srv)
	})
	t.Run("a raw key or index in a request", func(t *testing.T) {
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var dd net.Dialer
			return dd.DialContext(ctx, "unix", d.sock)
		}}}
		for _, body := range []string{
			`{"terminal_id":"term_aaaaaaaaaaaaaaaaaaaaaaaaaa","decision":"approve_once","keys":"1"}`,
			`{"terminal_id":"term_aaaaaaaaaaaaaaaaaaaaaaaaaa","decision":"1"}`,
			`{"terminal_id":"%3"}`,
		} {
			resp, err := hc.Post("http://akk/v1/approve", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%s: HTTP %d, want 400", body, resp.StatusCode)
			}
		}
		body := `{"terminal_id":"term_aaaaaaaaaaaaaaaaaaaaaaaaaa","interaction_id":"int_aaaaaaaaaaaaaaaaaaaaaaaaaa","answers":[{"question_id":"q_aaaaaaaaaaaaaaaaaaaaaaaaaa","response_kind":"single_select","selected_option_ids":["2"]}]}`
		resp, err := hc.Post("http://akk/v1/respond_interaction", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("an option index: HTTP %d, want 400", resp.StatusCode)
		}
	})
}

// releaseReplica writes the go-ahead into a replica's fifo without ever
// blocking: a pane whose shell died never opens it for reading.
func releaseReplica(fifo string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			_, err = f.Write([]byte("go\n"))
			f.Close()
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("release %s: no reader: %w", fifo, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func editOffers(r *replicaDriver, fn func(*dispatch.OfferEdit)) { r.d.sv.disp.EditOffers(fn) }

func expireOffers(r *replicaDriver) { ageOffers(r, dispatch.OfferTTL+time.Second) }

func ageOffers(r *replicaDriver, by time.Duration) {
	editOffers(r, func(o *dispatch.OfferEdit) { o.Made, o.Expires = o.Made.Add(-by), o.Expires.Add(-by) })
}
