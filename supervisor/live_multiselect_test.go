package supervisor

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// liveMultiSelect answers a real Claude Code's multi-select question
// (the fake model asks for pizza toppings with AskUserQuestion,
// multiSelect true) through akk alone: one respond_interaction naming
// Cheese and Olives, proven box by box, then the review's Submit answers.
// The agent's own transcript must then hold the tool result with exactly
// those two answers. A second question in the same session is answered
// with one option after a refused answer that named the free-text row.
func liveMultiSelect(t *testing.T, version string) {
	la := startLive(t, "claude", version, rig.Script("claude", version))
	ld := liveDispatchOn(t, la, "claude", daemonOpts{claudeProjects: filepath.Join(la.home, ".claude", "projects")}, 5*time.Minute)
	d, ctx := ld.d, ld.ctx

	for round, pick := range [][]string{{"Cheese", "Olives"}, {"Mushrooms"}} {
		turn := ld.send("ask-multi")
		ld.awaitScreen(contract.ScreenQuestionnaire)
		st := ld.status()
		in := st.Terminal.Interaction
		if in == nil || len(in.Questions) != 1 || in.Questions[0].ResponseKind != contract.ResponseMultiSelect ||
			in.Capabilities == nil || !in.Capabilities.MultiSelect {
			t.Fatalf("round %d: not a multi-select projection: %+v", round, in)
		}
		q := in.Questions[0]
		ids := map[string]string{}
		for _, o := range q.Options {
			ids[o.Label] = o.OptionID
		}
		if round == 1 {
			// An id the question does not offer: refused before any key.
			res, err := d.cl.Respond(ctx, api.RespondRequest{TurnID: turn, InteractionID: in.InteractionID, Answers: []api.Answer{{
				QuestionID: q.QuestionID, ResponseKind: "multi_select", SelectedOptionIDs: []string{ids["Mushrooms"], "opt_aaaaaaaaaaaaaaaaaaaaaaaaaa"}}}})
			if err != nil || res.Outcome != api.OutcomeRejected || res.DoNotRetry {
				t.Fatalf("an unknown option: %+v %v", res, err)
			}
			in = ld.status().Terminal.Interaction
		}
		var sel []string
		for _, l := range pick {
			if ids[l] == "" {
				t.Fatalf("round %d: no option %q in %+v", round, l, q.Options)
			}
			sel = append(sel, ids[l])
		}
		start := time.Now()
		res, err := d.cl.Respond(ctx, api.RespondRequest{TurnID: turn, InteractionID: in.InteractionID, Answers: []api.Answer{{
			QuestionID: q.QuestionID, ResponseKind: "multi_select", SelectedOptionIDs: sel}}})
		if err != nil {
			t.Fatal(err)
		}
		ld.accept(res)
		t.Logf("round %d: %d boxes and the move to the review proven in %.0f ms", round, len(sel), float64(time.Since(start).Microseconds())/1000)
		if res.Next == nil || res.Next.Kind != contract.KindConfirmation {
			t.Fatalf("round %d: after the toggles: %+v, want the review", round, res.Next)
		}
		row := ld.awaitScreen(contract.ScreenConfirmation)
		ld.accept(ld.respond(turn, row, func(q contract.Question) (int, string) { return 0, "" })) // Submit answers
		ld.idle()
		want := map[string]string{"Which toppings do you want on the pizza?": joinLabels(pick)}
		awaitAnswers(t, filepath.Join(la.home, ".claude", "projects"), round+1, want)
	}
}

func joinLabels(ls []string) string {
	out := ""
	for i, l := range ls {
		if i > 0 {
			out += ", "
		}
		out += l
	}
	return out
}

// awaitAnswers waits until the transcript's n-th AskUserQuestion tool
// result holds exactly want as its answers.
func awaitAnswers(t *testing.T, projects string, n int, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var got []map[string]string
	for time.Now().Before(deadline) {
		got = toolAnswers(projects)
		if len(got) >= n {
			if !mapsEqual(got[n-1], want) {
				t.Fatalf("tool result %d answers %v, want %v", n, got[n-1], want)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the transcript has %d AskUserQuestion results (%v), want %d", len(got), got, n)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// toolAnswers reads every transcript under projects for the answers of
// AskUserQuestion tool results, in file order.
func toolAnswers(projects string) []map[string]string {
	var files []string
	filepath.WalkDir(projects, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && filepath.Ext(p) == ".jsonl" {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	var out []map[string]string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var line struct {
				ToolUseResult json.RawMessage `json:"toolUseResult"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil || len(line.ToolUseResult) == 0 {
				continue
			}
			var r struct {
				Answers map[string]string `json:"answers"`
			}
			if json.Unmarshal(line.ToolUseResult, &r) == nil && r.Answers != nil {
				out = append(out, r.Answers)
			}
		}
		fh.Close()
	}
	return out
}

func TestLiveClaudeMultiSelect(t *testing.T)    { liveMultiSelect(t, "2.1.267") }
func TestLiveClaude332MultiSelect(t *testing.T) { liveMultiSelect(t, "2.1.332") }
