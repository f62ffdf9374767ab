package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
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
	evs := r.c.rec.Events[:len(r.c.rec.Events)-1]
	for ; r.next < len(evs); r.next++ {
		e := evs[r.next]
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			r.out += len(e.Data)
		case recordings.Input:
			r.sendRecorded(e.Data)
		case recordings.MarkerEv:
			if seen == k {
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
			seen++
		}
	}
	r.t.Fatalf("%s: no marker %d", r.name, k)
	return recordings.Marker{}
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
	evs := r.c.rec.Events[:len(r.c.rec.Events)-1]
	for ; r.next < len(evs); r.next++ {
		e := evs[r.next]
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			r.out += len(e.Data)
		case recordings.Input:
			r.next++
			return
		}
	}
}

// finish types the rest of the recording and the sentinel, and requires
// the strict replica to end clean: it received exactly the recorded
// inputs, so nothing akk refused reached it.
func (r *replicaDriver) finish(srv *tmuxtest.Server) {
	r.t.Helper()
	evs := r.c.rec.Events[:len(r.c.rec.Events)-1]
	for ; r.next < len(evs); r.next++ {
		e := evs[r.next]
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			r.out += len(e.Data)
		case recordings.Input:
			r.sendRecorded(e.Data)
		}
	}
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

func (r *replicaDriver) monitor() *paneMonitor {
	p, _ := controlmode.ParsePaneID(r.c.pane)
	return r.d.sv.monitor(p)
}

// refusalCase is one fault of DESIGN invariants 1, 3, 5 and 6: with the
// fault the call is refused with reason and zero input; without it the
// same call is accepted.
type refusalCase struct {
	name    string
	surface [3]string
	marker  int // the actionable marker the call answers
	// fault is applied after the status and before the call (nil: none);
	// it may type recorded inputs (the driver's own).
	fault func(r *replicaDriver)
	// call makes the request; row is the status the controller saw.
	call    func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error)
	outcome string
	reason  string
	// faultOnly: the case has no faultless twin (the fault is the setup).
	faultOnly bool
	// inputs is how many recorded inputs the accepted call produces
	// (default 1).
	inputs int
}

func approveTerm(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
	return r.d.cl.Approve(r.ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID})
}

// respondOption answers option k of the status's question (with text).
func respondOption(k int, text string) func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
	return func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
		in := st.Terminal.Interaction
		if in == nil || len(in.Questions) != 1 || len(in.Questions[0].Options) <= k {
			return api.ActionResult{}, fmt.Errorf("status shows no question with option %d: %+v", k, in)
		}
		q := in.Questions[0]
		return r.d.cl.Respond(r.ctx, api.RespondRequest{TerminalID: st.Terminal.TerminalID, InteractionID: in.InteractionID,
			Answers: []api.Answer{{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind,
				SelectedOptionIDs: []string{q.Options[k].OptionID}, Text: text}}})
	}
}

// TestTmuxDispatchRefusals: every refusal of the issue, each with zero
// input (the strict replica then receives exactly its recorded inputs and
// ends clean), and each first shown to send without its fault.
func TestTmuxDispatchRefusals(t *testing.T) {
	requireTmux(t)
	akk := buildAkk(t)
	cases := []refusalCase{
		{name: "prompt changed between status and respond", surface: [3]string{"claude", "2.1.267", "several-questions"},
			fault: func(r *replicaDriver) { r.toMarker(1) }, // the test answers question 1 itself
			call:  respondOption(0, ""), outcome: api.OutcomeRejected, reason: api.ReasonPromptChanged},
		{name: "another option highlighted", surface: [3]string{"claude", "2.1.267", "type-something"},
			fault: func(r *replicaDriver) { r.toMarker(0) }, // the person moves onto "Type something"
			call:  respondOption(3, "Purple"), outcome: api.OutcomeRejected, reason: api.ReasonPromptChanged, inputs: 5},
		{name: "expired offer, screen changed", surface: [3]string{"codex", "0.155.1", "question-notes"},
			fault: func(r *replicaDriver) { expireOffers(r); r.toMarker(0) },
			call:  respondNotes("Purple please"), outcome: api.OutcomeRejected, reason: api.ReasonPromptChanged, inputs: 6},
		{name: "expired offer, same screen (live recheck passes)", surface: [3]string{"codex", "0.155.1", "question-digit"},
			fault: expireOffers, call: respondOption(1, ""), outcome: api.OutcomeAccepted, faultOnly: true},
		{name: "offer past its horizon", surface: [3]string{"codex", "0.155.1", "question-digit"},
			fault: func(r *replicaDriver) { ageOffers(r, offerHorizon+time.Minute) },
			call:  respondOption(1, ""), outcome: api.OutcomeRejected, reason: api.ReasonOfferExpired},
		{name: "no status by this controller", surface: [3]string{"claude", "2.1.267", "permission-approve"},
			fault: func(r *replicaDriver) { r.d.sv.offers = offerBook{} }, call: approveTerm,
			outcome: api.OutcomeRejected, reason: api.ReasonNoOffer},
		{name: "another controller's offer", surface: [3]string{"claude", "2.1.266", "permission-approve"},
			call: func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
				other := api.NewClient(r.d.sock)
				defer other.Close()
				other.SetController("mcp:someone-else")
				return other.Approve(r.ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID})
			},
			outcome: api.OutcomeRejected, reason: api.ReasonNoOffer, faultOnly: true},
		{name: "a slash command as answer text", surface: [3]string{"claude", "2.1.267", "type-something"},
			fault: func(r *replicaDriver) {}, call: respondOption(3, "/exit"), outcome: api.OutcomeRejected,
			reason: api.ReasonSlashCommand, faultOnly: true},
		{name: "text for a choice that takes none", surface: [3]string{"claude", "2.1.263", "question-digit"},
			call: respondOption(1, "Blue"), outcome: api.OutcomeRejected, reason: api.ReasonBadText, faultOnly: true},
		{name: "a changed cwd", surface: [3]string{"codex", "0.154.0", "permission-approve"},
			fault: func(r *replicaDriver) { editOffers(r, func(o *offer) { o.cwd = "/elsewhere" }) },
			call:  approveTerm, outcome: api.OutcomeRejected, reason: api.ReasonCwdChanged},
		{name: "a changed process incarnation", surface: [3]string{"codex", "0.153.4", "permission-approve"},
			fault: func(r *replicaDriver) { editOffers(r, func(o *offer) { o.incarnation = "another" }) },
			call:  approveTerm, outcome: api.OutcomeRejected, reason: api.ReasonProcessChanged},
		{name: "reject by terminal_id", surface: [3]string{"claude", "2.1.263", "permission-reject"},
			call: func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
				return r.d.cl.Approve(r.ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID, Decision: api.DecisionReject})
			},
			outcome: api.OutcomeRejected, reason: api.ReasonUnknownChoice, faultOnly: true},
		{name: "an unknown version (relabelled 9.9.9)", surface: [3]string{"claude", "2.1.267>9.9.9", "question-digit"},
			call: func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
				in := st.Terminal.Interaction
				if st.Terminal.Version != "9.9.9" || st.Terminal.Profile != "generic" || in == nil || in.State != "manual_required" {
					return api.ActionResult{}, fmt.Errorf("relabelled replica shows %s %s %+v", st.Terminal.Version, st.Terminal.Profile, in)
				}
				if _, ok := st.Terminal.AvailableActions["respond_interaction"]; ok {
					return api.ActionResult{}, fmt.Errorf("an unknown version advertises a response")
				}
				q := in.Questions[0]
				return r.d.cl.Respond(r.ctx, api.RespondRequest{TerminalID: st.Terminal.TerminalID, InteractionID: in.InteractionID,
					Answers: []api.Answer{{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, SelectedOptionIDs: []string{q.Options[1].OptionID}}}})
			},
			outcome: api.OutcomeManual, faultOnly: true},
		{name: "a consumed prompt shown again", surface: [3]string{"codex", "0.155.1", "permission-approve"},
			fault: func(r *replicaDriver) {
				// What an accepted approve leaves: the prompt's fence.
				m := r.monitor()
				m.mu.Lock()
				key := m.currentFenceKey()
				m.mu.Unlock()
				if _, err := r.d.sv.commit(store.Change{Fences: []store.Fence{{Key: key, Reservation: "rcpt_earlier", TerminalID: m.id}}}); err != nil {
					r.t.Fatal(err)
				}
				m.mu.Lock()
				m.fenceKey = "" // as execute does after writing a fence
				m.mu.Unlock()
				m.poke()
				tmuxtest.Await(r.t, 5*time.Second, func() string {
					row := r.row()
					if in := row.Interaction; in == nil || in.State != "manual_required" || !slices.Contains(in.Reasons, reasonRepeatedPrompt) {
						return fmt.Sprintf("a fenced prompt shows %+v", in)
					}
					return ""
				})
			},
			call: approveTerm, outcome: api.OutcomeRejected, reason: api.ReasonFenced},
		{name: "a multi-select question", surface: [3]string{"claude", "2.1.267", "multi-select"},
			call: func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
				in := st.Terminal.Interaction
				if in == nil || in.State != "manual_required" {
					return api.ActionResult{}, fmt.Errorf("multi-select shows %+v", in)
				}
				q := in.Questions[0]
				return r.d.cl.Respond(r.ctx, api.RespondRequest{TerminalID: st.Terminal.TerminalID, InteractionID: in.InteractionID,
					Answers: []api.Answer{{QuestionID: q.QuestionID, ResponseKind: "single_select", SelectedOptionIDs: []string{q.Options[0].OptionID}}}})
			},
			marker: 0, outcome: api.OutcomeManual, faultOnly: true},
	}
	srv := tmuxtest.Start(t, 120, 40, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	d := startDaemon(t, srv, daemonOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for _, tc := range cases {
		for _, withFault := range []bool{false, true} {
			if !withFault && (tc.faultOnly || tc.fault == nil) {
				continue
			}
			label := tc.name
			if !withFault {
				label += ", without the fault"
			}
			t.Run(label, func(t *testing.T) {
				rc := replicaPanes(t, srv, akk, [][3]string{tc.surface})[0]
				r := newReplicaDriver(t, ctx, d, client, rc)
				r.toMarker(tc.marker)
				st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
				if err != nil {
					t.Fatal(err)
				}
				if withFault && tc.fault != nil {
					tc.fault(r)
				}
				res, err := tc.call(r, st)
				if err != nil {
					t.Fatal(err)
				}
				want, reason := tc.outcome, tc.reason
				if !withFault {
					want, reason = api.OutcomeAccepted, ""
				}
				if res.Outcome != want || !strings.HasPrefix(res.Reason, reason) {
					t.Fatalf("outcome %s (%s), want %s (%s)", res.Outcome, res.Reason, want, reason)
				}
				if res.Outcome == api.OutcomeAccepted {
					for range max(tc.inputs, 1) {
						r.skipInput() // akk sent these recorded inputs
					}
				} else if res.DoNotRetry || res.ReceiptID != "" {
					t.Errorf("a refusal before input reserved %q / do_not_retry %v", res.ReceiptID, res.DoNotRetry)
				}
				r.finish(srv)
			})
		}
	}
	t.Run("a prompt printed by a non-agent process", func(t *testing.T) {
		dump, err := os.ReadFile(filepath.Join(corpusDir, "claude", "2.1.267", "permission-approve.final.txt"))
		if err != nil {
			t.Fatal(err)
		}
		printed := filepath.Join(t.TempDir(), "prompt.txt")
		// The screen just before the answer: the recording's prompt, as ANSI.
		rc := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267", "permission-approve"}})[0]
		r := newReplicaDriver(t, ctx, d, client, rc)
		r.toMarker(0)
		m := r.monitor()
		m.mu.Lock()
		ansi := m.mirror.Screen().ANSI(m.mirror.Screen().Bounds())
		m.mu.Unlock()
		_ = dump
		if err := os.WriteFile(printed, []byte(ansi), 0o644); err != nil {
			t.Fatal(err)
		}
		pane := newWindow(t, srv, 120, 40, fmt.Sprintf("sh -c 'cat %s; exec sleep 600'", printed))
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

// respondNotes answers Codex's derived free-text choice (the option
// marked free_text beside "None of the above") with text.
func respondNotes(text string) func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
	return func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error) {
		in := st.Terminal.Interaction
		if in == nil || len(in.Questions) != 1 {
			return api.ActionResult{}, fmt.Errorf("status shows no question: %+v", in)
		}
		for k, o := range in.Questions[0].Options {
			if o.FreeText {
				return respondOption(k, text)(r, st)
			}
		}
		return api.ActionResult{}, fmt.Errorf("no free-text option: %+v", in.Questions[0].Options)
	}
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

func editOffers(r *replicaDriver, fn func(*offer)) {
	b := &r.d.sv.offers
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.offers {
		fn(o)
	}
}

func expireOffers(r *replicaDriver) { ageOffers(r, offerTTL+time.Second) }

func ageOffers(r *replicaDriver, by time.Duration) {
	editOffers(r, func(o *offer) { o.made, o.expires = o.made.Add(-by), o.expires.Add(-by) })
}
