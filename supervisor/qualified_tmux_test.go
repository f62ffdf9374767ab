package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// qualifiedRuns are akk qualify's recorded runs of binaries akk does not
// pin (recordings/qualify/testdata).
const qualifiedRuns = "../recordings/qualify/testdata"

// TestTmuxQualifiedReplica: strict replicas of Claude Code 2.1.337's
// qualification runs, whose recording is their identity, under a record
// that passed its shell permission and failed its question (the
// question's top rule changed colour). The daemon approves the permission
// once through the 2.1.332 profile; the question gets zero input,
// manual_required and unqualified_surface; the same recording changed by
// one byte is another binary, unqualified (generic: unknown_version).
func TestTmuxQualifiedReplica(t *testing.T) {
	akk, srv, d := replicaStage(t, daemonOpts{})
	ctx, client := driverClient(t, srv, 3*time.Minute)
	cases := replicaPanesFrom(t, srv, akk, qualifiedRuns, [][3]string{
		{"claude", "2.1.337", "permission-approve"}, {"claude", "2.1.337", "question-digit"}})
	// The third plays its own copy, one byte longer: another identity.
	cases = append(cases, replicaPanesFrom(t, srv, akk, qualifiedRuns, [][3]string{{"claude", "2.1.337", "permission-approve"}})...)
	if cases[2].file == cases[0].file {
		t.Fatal("the changed copy is the qualified file")
	}
	if err := os.WriteFile(cases[2].file, append(mustRead(t, cases[2].file), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	var h procid.Hasher
	for _, c := range cases[:2] {
		id, err := h.Identity(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.st.PutQualification(store.Qualification{Agent: "claude", Version: "2.1.337", Identity: id, Base: "2.1.332",
			Akk: "test", Passed: []string{"composer.idle", "permission.shell"}, Failed: []string{"question.single"}, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("a passed surface: approved once", func(t *testing.T) {
		r := newReplicaDriver(t, ctx, d, client, cases[0])
		r.toMarker(0)
		st := status(t, r)
		in := st.Terminal.Interaction
		if in == nil || in.State != contract.StatePending || st.Terminal.Profile != "exact" {
			t.Fatalf("a qualified permission shows %s profile, interaction %+v", st.Terminal.Profile, in)
		}
		if q := st.Terminal.Qualification; q == nil || *q != (api.Qualification{Base: "2.1.332", Passed: 2, Judged: 3}) {
			t.Errorf("the row's qualification is %+v", q)
		}
		res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID, Decision: contract.DecisionApproveOnce})
		if err != nil || res.Outcome != api.OutcomeAccepted {
			t.Fatalf("approve: %+v %v", res, err)
		}
		r.skipInput()
		r.finish(srv)
	})
	t.Run("a failed surface: zero input", func(t *testing.T) {
		r := newReplicaDriver(t, ctx, d, client, cases[1])
		r.toMarker(0)
		st := status(t, r)
		in := st.Terminal.Interaction
		if in == nil || in.State != contract.StateManualRequired || !slices.Contains(in.Reasons, api.ReasonUnqualifiedSurface) {
			t.Fatalf("an unqualified question shows %+v", in)
		}
		for name := range st.Terminal.AvailableActions {
			if name != "watch" { // watching sends nothing
				t.Errorf("an unqualified question offers %s", name)
			}
		}
		// The base cannot parse the changed frame: no option to name.
		// Whatever is asked of it gets zero input.
		for _, call := range []func() (api.ActionResult, error){
			func() (api.ActionResult, error) {
				return d.cl.Approve(ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID})
			},
			func() (api.ActionResult, error) {
				return d.cl.Send(ctx, api.SendRequest{TerminalID: st.Terminal.TerminalID, Request: "go on"})
			},
		} {
			if res, err := call(); err != nil || res.Outcome == api.OutcomeAccepted || res.ReceiptID != "" {
				t.Fatalf("an action on an unqualified surface: %+v %v", res, err)
			}
		}
		r.finish(srv) // the strict replica got exactly its recorded inputs
	})
	t.Run("another binary: unqualified", func(t *testing.T) {
		r := newReplicaDriver(t, ctx, d, client, cases[2])
		r.toMarker(0)
		st := status(t, r)
		res, err := d.cl.Approve(ctx, api.ApproveRequest{TerminalID: st.Terminal.TerminalID, Decision: contract.DecisionApproveOnce})
		if err != nil || res.Outcome == api.OutcomeAccepted || st.Terminal.Profile != "generic" {
			t.Fatalf("approve on an unqualified binary (%s profile): %+v %v", st.Terminal.Profile, res, err)
		}
		if st.Terminal.Qualification != nil || !slices.ContainsFunc(st.Terminal.Warnings, func(w string) bool { return strings.Contains(w, "akk qualify claude") }) {
			t.Errorf("an unqualified binary's row: qualification %+v, warnings %q", st.Terminal.Qualification, st.Terminal.Warnings)
		}
		r.finish(srv)
	})
}

func status(t *testing.T, r *replicaDriver) api.StatusResponse {
	t.Helper()
	var st api.StatusResponse
	tmuxtest.Await(t, 10*time.Second, func() string {
		var err error
		st, err = r.d.cl.Status(r.ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
		if err != nil || st.Terminal.Interaction == nil {
			return fmt.Sprintf("status: %v, interaction %v", err, st.Terminal.Interaction)
		}
		return ""
	})
	return st
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTmuxUnqualifiedNotice: an agent binary akk does not pin and no
// qualification covers (a replica claiming Claude Code 9.9.9) is told to
// the person's routes once, with the command that qualifies it; it gets
// no input either way.
func TestTmuxUnqualifiedNotice(t *testing.T) {
	phone := startPublishSink(t)
	akk, srv, d := replicaStage(t, daemonOpts{callbacks: outbox.Config{Default: []string{}, Routes: []outbox.RouteConfig{
		{Name: "phone", Kind: outbox.RouteWebhook, Person: true, URL: phone.url, BodyTemplate: ntfyTemplate, Timeout: 5 * time.Second}}}})
	ctx, client := driverClient(t, srv, 2*time.Minute)
	rc := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267>9.9.9", "permission-approve"}})[0]
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toMarker(0)
	pub := phone.await(t, ctx, 1)[0]
	var got map[string]string
	if err := json.Unmarshal(pub, &got); err != nil {
		t.Fatal(err)
	}
	if got["title"] != "Claude Code is a version akk only watches" || !strings.Contains(got["message"], "akk qualify "+rc.pane) {
		t.Errorf("the notice: %q / %q", got["title"], got["message"])
	}
	r.finish(srv)
	ns, err := d.st.Notifications(func(n *store.Notification) bool { return strings.HasPrefix(n.Event, api.CallbackUnqualified) })
	if err != nil || len(ns) != 1 {
		t.Errorf("unqualified notices %d (%v), want 1", len(ns), err)
	}
}
