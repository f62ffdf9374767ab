package supervisor

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// BenchmarkTmuxDispatch measures approve and respond_interaction on strict
// replicas of real recordings, from the call to its proven postcondition:
// p50/p99 of the whole call, and the share spent waiting for the agent
// (input handed to tmux -> the next screen recognized) versus in akk
// (lock, barrier, recapture, checks, the fsync'd reservation, input).
// The status is taken the moment the prompt is drawn, so each call pays
// the full settle (150 ms of quiet screen), which a controller reading a
// prompt for longer than that does not.
// Run: go test -run '^$' -bench TmuxDispatch -benchtime 30x ./supervisor
func BenchmarkTmuxDispatch(b *testing.B) {
	akk, srv, d := replicaStage(b, daemonOpts{})
	ctx, client := driverClient(b, srv, 30*time.Minute)
	for _, bc := range []struct {
		name    string
		surface [3]string
		call    func(r *replicaDriver, st api.StatusResponse) (api.ActionResult, error)
	}{
		{"approve/claude", [3]string{"claude", "2.1.267", "permission-approve"}, approveTerm},
		{"approve/codex", [3]string{"codex", "0.155.1", "permission-approve"}, approveTerm},
		{"respond/claude", [3]string{"claude", "2.1.267", "question-digit"}, respondOption(1, "")},
		{"respond/codex", [3]string{"codex", "0.155.1", "question-digit"}, respondOption(1, "")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var total []time.Duration
			var akkMS, agentMS, settleMS float64
			for range b.N {
				b.StopTimer()
				rc := replicaPanes(b, srv, akk, [][3]string{bc.surface})[0]
				r := newReplicaDriver(b, ctx, d, client, rc)
				r.toMarker(0)
				st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				res, err := bc.call(r, st)
				el := time.Since(start)
				b.StopTimer()
				if err != nil || res.Outcome != api.OutcomeAccepted || res.Timing == nil {
					b.Fatalf("%+v %v", res, err)
				}
				total = append(total, el)
				tm := res.Timing
				agentMS += tm.ProofMS
				akkMS += tm.ChecksMS + tm.ReserveMS + tm.InputMS
				settleMS += tm.SettleMS
				r.skipInput()
				r.finish(srv)
				b.StartTimer()
			}
			sort.Slice(total, func(i, j int) bool { return total[i] < total[j] })
			q := func(p float64) float64 { return float64(total[int(p*float64(len(total)-1))].Microseconds()) / 1000 }
			b.ReportMetric(q(0.5), "p50-ms")
			b.ReportMetric(q(0.99), "p99-ms")
			// The settle (a quiet screen before the first key) is the
			// agent's time too: it waits for the agent to stop drawing.
			b.ReportMetric(100*(agentMS+settleMS)/(agentMS+settleMS+akkMS), "agent-%")
			b.ReportMetric(akkMS/float64(len(total)), "akk-ms/op")
			b.ReportMetric(settleMS/float64(len(total)), "settle-ms/op")
		})
	}
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
