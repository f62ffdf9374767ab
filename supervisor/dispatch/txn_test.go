package dispatch

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry/refusaltest"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// toppings is a multi-select question as the projection shows it; edit
// changes a copy.
func toppings(edit func(in *contract.Interaction)) *contract.Interaction {
	in := &contract.Interaction{InteractionID: "int_a", Kind: contract.KindQuestionnaire, State: "pending",
		Questions: []contract.Question{{QuestionID: "q_a", Header: "Toppings",
			Prompt: "Which toppings do you want on the pizza?", ResponseKind: contract.ResponseMultiSelect,
			Options: []contract.Option{
				{OptionID: "opt_a", Label: "Cheese", Description: "Extra mozzarella"},
				{OptionID: "opt_b", Label: "Mushrooms", Description: "Sliced champignons"},
				{OptionID: "opt_c", Label: "Olives", Description: "Black olives"}}}}}
	if edit != nil {
		edit(in)
	}
	return in
}

// TestSameQuestion: a recapture reads as the same question only when
// its kind, header, prompt, response kind and every option (label,
// description, free text, in order) are the same; ids may differ (they
// follow the fingerprint a ticked box changes).
func TestSameQuestion(t *testing.T) {
	opt := func(i int, fn func(o *contract.Option)) func(*contract.Interaction) {
		return func(in *contract.Interaction) { fn(&in.Questions[0].Options[i]) }
	}
	q := func(fn func(q *contract.Question)) func(*contract.Interaction) {
		return func(in *contract.Interaction) { fn(&in.Questions[0]) }
	}
	for _, tc := range []struct {
		name string
		b    *contract.Interaction
		want bool
	}{
		{"the same question", toppings(nil), true},
		{"new ids only", toppings(func(in *contract.Interaction) {
			in.InteractionID, in.Questions[0].QuestionID = "int_b", "q_b"
			for i := range in.Questions[0].Options {
				in.Questions[0].Options[i].OptionID += "x"
			}
		}), true},
		{"no interaction", nil, false},
		{"another kind", toppings(func(in *contract.Interaction) { in.Kind = contract.KindConfirmation }), false},
		{"two questions", toppings(func(in *contract.Interaction) { in.Questions = append(in.Questions, in.Questions[0]) }), false},
		{"no question", toppings(func(in *contract.Interaction) { in.Questions = nil }), false},
		{"another header", toppings(q(func(q *contract.Question) { q.Header = "Crust" })), false},
		{"another prompt", toppings(q(func(q *contract.Question) { q.Prompt = "Which crust?" })), false},
		{"another response kind", toppings(q(func(q *contract.Question) { q.ResponseKind = contract.ResponseSingleSelect })), false},
		{"one option fewer", toppings(q(func(q *contract.Question) { q.Options = q.Options[:2] })), false},
		{"one option more", toppings(q(func(q *contract.Question) {
			q.Options = append(q.Options, contract.Option{OptionID: "opt_d", Label: "Basil"})
		})), false},
		{"a relabelled option", toppings(opt(1, func(o *contract.Option) { o.Label = "Pineapple" })), false},
		{"another description", toppings(opt(2, func(o *contract.Option) { o.Description = "Green olives" })), false},
		{"an option turned free text", toppings(opt(2, func(o *contract.Option) { o.FreeText = true })), false},
		{"two options swapped", toppings(q(func(q *contract.Question) { q.Options[0], q.Options[1] = q.Options[1], q.Options[0] })), false},
	} {
		a := toppings(nil)
		if got := sameQuestion(a, tc.b); got != tc.want {
			t.Errorf("%s: sameQuestion = %v, want %v", tc.name, got, tc.want)
		}
		if got := sameQuestion(tc.b, a); got != tc.want {
			t.Errorf("%s, the other way round: sameQuestion = %v, want %v", tc.name, got, tc.want)
		}
	}
	if sameQuestion(nil, nil) {
		t.Error("sameQuestion(nil, nil): no question is no proof")
	}
}

// TestExpectHolds: a step's postcondition holds only on a screen that
// moved on and shows one of its states, its highlighted row, exactly
// its boxes and (when asked) the same question.
func TestExpectHolds(t *testing.T) {
	before := terminal.Recognition{Screen: contract.ScreenQuestionnaire, Fingerprint: [32]byte{1}, Highlighted: 0,
		Checked: []bool{false, false, false, false}, Interaction: toppings(nil)}
	// The first toggle of Cheese: the box is ticked, nothing else changes.
	toggle := recognizers.Expect{States: []contract.ScreenState{contract.ScreenQuestionnaire}, Highlighted: 0,
		Checked: []bool{true, false, false, false}, SameQuestion: true}
	ticked := before
	ticked.Fingerprint, ticked.Checked = [32]byte{2}, []bool{true, false, false, false}
	ticked.Interaction = toppings(func(in *contract.Interaction) { in.InteractionID = "int_b" })
	now := func(fn func(r *terminal.Recognition)) terminal.Recognition {
		r := ticked
		r.Checked = slices.Clone(r.Checked)
		fn(&r)
		return r
	}
	review := recognizers.Expect{States: []contract.ScreenState{contract.ScreenConfirmation}, Highlighted: -1}
	for _, tc := range []struct {
		name string
		now  terminal.Recognition
		want recognizers.Expect
		ok   bool
	}{
		{"the box ticked", ticked, toggle, true},
		{"another state", now(func(r *terminal.Recognition) { r.Screen = contract.ScreenConfirmation }), toggle, false},
		{"the highlight moved", now(func(r *terminal.Recognition) { r.Highlighted = 1 }), toggle, false},
		{"no row highlighted", now(func(r *terminal.Recognition) { r.Highlighted = -1 }), toggle, false},
		{"the wrong box ticked", now(func(r *terminal.Recognition) { r.Checked = []bool{false, true, false, false} }), toggle, false},
		{"a box besides", now(func(r *terminal.Recognition) { r.Checked = []bool{true, false, true, false} }), toggle, false},
		{"no box ticked", now(func(r *terminal.Recognition) { r.Checked = []bool{false, false, false, false} }), toggle, false},
		{"no boxes read", now(func(r *terminal.Recognition) { r.Checked = nil }), toggle, false},
		{"one box fewer", now(func(r *terminal.Recognition) { r.Checked = []bool{true, false, false} }), toggle, false},
		{"the question relabelled", now(func(r *terminal.Recognition) {
			r.Interaction = toppings(func(in *contract.Interaction) { in.Questions[0].Options[1].Label = "Pineapple" })
		}), toggle, false},
		{"the question gone", now(func(r *terminal.Recognition) { r.Interaction = nil }), toggle, false},
		{"nothing moved on", now(func(r *terminal.Recognition) { r.Fingerprint = before.Fingerprint }), toggle, false},
		{"the same screen, nothing expected of it", before,
			recognizers.Expect{States: []contract.ScreenState{contract.ScreenQuestionnaire}, Highlighted: -1}, false},
		// Without Checked or SameQuestion those are not looked at.
		{"a box besides, boxes not asked", now(func(r *terminal.Recognition) { r.Checked = []bool{true, true, true, false} }),
			recognizers.Expect{States: toggle.States, Highlighted: 0, SameQuestion: true}, true},
		{"the question relabelled, not asked", now(func(r *terminal.Recognition) {
			r.Interaction = toppings(func(in *contract.Interaction) { in.Questions[0].Options[1].Label = "Pineapple" })
		}), recognizers.Expect{States: toggle.States, Highlighted: 0, Checked: toggle.Checked}, true},
		// The review after Tab: another state and prompt, any highlight.
		{"the review", terminal.Recognition{Screen: contract.ScreenConfirmation, Fingerprint: [32]byte{3}, Highlighted: 0,
			Interaction: toppings(func(in *contract.Interaction) { in.Kind = contract.KindConfirmation })}, review, true},
		{"moved on by the highlight alone", now(func(r *terminal.Recognition) {
			r.Fingerprint, r.Highlighted, r.Checked = before.Fingerprint, 1, []bool{false, false, false, false}
		}), recognizers.Expect{States: toggle.States, Highlighted: 1}, true},
		{"moved on by the state alone", now(func(r *terminal.Recognition) {
			r.Fingerprint, r.Screen = before.Fingerprint, contract.ScreenConfirmation
		}), review, true},
	} {
		if got := expectHolds(before, tc.now, tc.want); got != tc.ok {
			t.Errorf("%s: expectHolds = %v, want %v", tc.name, got, tc.ok)
		}
	}
}

// deviant is a fake terminal whose screen leaves the recording after
// akk's at-th write: redraw is written over it then (frozen: from that
// write on, input is taken and nothing shows it). It keeps akk's writes.
type deviant struct {
	*fakeTerminal
	t      *testing.T
	at     int
	redraw []refusaltest.Redraw
	frozen bool
	writes []string
}

func (d *deviant) SendBytes(ctx context.Context, b []byte) error {
	d.writes = append(d.writes, string(b))
	n := len(d.writes)
	if d.frozen && n == d.at {
		d.mu.Lock()
		d.fakeTerminal.frozen = true
		d.mu.Unlock()
	}
	err := d.fakeTerminal.SendBytes(ctx, b)
	if d.redraw != nil && n == d.at {
		d.mu.Lock()
		out, rerr := refusaltest.RedrawBytes(strings.Split(d.scr.PlainText(d.scr.Bounds()), "\n"), d.redraw)
		if rerr != nil {
			d.t.Error(rerr)
		}
		d.scr.Write(out)
		d.recognize()
		d.mu.Unlock()
	}
	return err
}

// TestMultiSelectDeviation: a multi-select answer (Cheese and Olives:
// toggles 1 and 3, then Tab to the review) whose screen deviates after a
// toggle ends uncertain with do_not_retry, durably, and sends nothing
// after the toggle whose proof failed: not the next toggle, not the Tab,
// and nothing when the controller calls again. Without a deviation the
// same answer is accepted with the three recorded inputs.
func TestMultiSelectDeviation(t *testing.T) {
	tick := "\x1b[38;5;114m[✔]\x1b[39m" // Claude's ticked box (colour 114)
	for _, tc := range []struct {
		name   string
		at     int
		redraw []refusaltest.Redraw
		frozen bool
		// writes: what akk sent; checked/labels: what the screen shows at
		// the end ("": not checked).
		writes  []string
		checked []bool
		labels  []string
	}{
		{name: "no deviation", writes: []string{"1", "3", "\t"}},
		{name: "the wrong box ticked after the first toggle", at: 1,
			redraw: []refusaltest.Redraw{{At: "[✔] Cheese", Write: "[ ]"}, {At: "[ ] Mushrooms", Write: tick}},
			writes: []string{"1"}, checked: []bool{false, true, false, false}, labels: []string{"Cheese", "Mushrooms", "Olives"}},
		{name: "a box besides after the first toggle", at: 1, redraw: []refusaltest.Redraw{{At: "[ ] Mushrooms", Write: tick}},
			writes: []string{"1"}, checked: []bool{true, true, false, false}, labels: []string{"Cheese", "Mushrooms", "Olives"}},
		{name: "the question changed after the first toggle", at: 1, redraw: []refusaltest.Redraw{{At: "Mushrooms", Write: "Pineapple"}},
			writes: []string{"1"}, checked: []bool{true, false, false, false}, labels: []string{"Cheese", "Pineapple", "Olives"}},
		{name: "the screen frozen after the first toggle", at: 1, frozen: true, writes: []string{"1"},
			checked: []bool{false, false, false, false}, labels: []string{"Cheese", "Mushrooms", "Olives"}},
		{name: "the wrong box ticked after the second toggle", at: 2,
			redraw: []refusaltest.Redraw{{At: "[✔] Olives", Write: "[ ]"}, {At: "[ ] Mushrooms", Write: tick}},
			writes: []string{"1", "3"}, checked: []bool{true, true, false, false}, labels: []string{"Cheese", "Mushrooms", "Olives"}},
		{name: "the screen frozen after the second toggle", at: 2, frozen: true, writes: []string{"1", "3"},
			checked: []bool{true, false, false, false}, labels: []string{"Cheese", "Mushrooms", "Olives"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, f := storeAndFake(t, "claude", "2.1.332", "multi-select", 0)
			dv := &deviant{fakeTerminal: f, t: t, at: tc.at, redraw: tc.redraw, frozen: tc.frozen}
			d := New(Config{Secret: []byte("test secret"), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
				Terminals: oneTerminal{dv}, Turns: &testTurns{terminalID: f.v.ID}, Store: st,
				Journal: &testJournal{st: st}, Keymaps: &testKeymaps{}})
			v := f.View()
			d.MakeOffer(person, v) // the status
			q := v.Rec.Interaction.Questions[0]
			req := api.RespondRequest{TerminalID: v.ID, InteractionID: v.Rec.Interaction.InteractionID, Answers: []api.Answer{{
				QuestionID: q.QuestionID, ResponseKind: q.ResponseKind,
				SelectedOptionIDs: []string{q.Options[0].OptionID, q.Options[2].OptionID}}}}
			ctx := api.WithController(context.Background(), person)
			res, err := d.Respond(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			rs := reservationsOf(t, st, v.ID)
			if tc.at == 0 {
				if res.Outcome != api.OutcomeAccepted || len(rs) != 1 || rs[0].Stage != store.StageDone {
					t.Fatalf("without a deviation: %s (%s), reservations %+v", res.Outcome, res.Reason, rs)
				}
			} else if res.Outcome != api.OutcomeUncertain || !res.DoNotRetry || len(rs) != 1 || rs[0].Stage != store.StageUncertain {
				t.Fatalf("outcome %s (%s), do_not_retry %v, reservations %+v: want uncertain, do_not_retry, one reservation uncertain",
					res.Outcome, res.Reason, res.DoNotRetry, rs)
			}
			// The same call again: the offer was consumed; nothing is sent.
			again, err := d.Respond(ctx, req)
			if err != nil || again.Outcome != api.OutcomeRejected || again.Reason == "" || !strings.HasPrefix(again.Reason, api.ReasonNoOffer) {
				t.Errorf("the same call again: %s (%s) %v, want rejected (%s)", again.Outcome, again.Reason, err, api.ReasonNoOffer)
			}
			if !slices.Equal(dv.writes, tc.writes) {
				t.Errorf("akk sent %q, want %q", dv.writes, tc.writes)
			}
			f.mu.Lock()
			diverged := f.diverged
			f.mu.Unlock()
			if len(diverged) > 0 {
				t.Errorf("bytes the recording never took: %q", diverged)
			}
			if tc.at == 0 {
				return
			}
			// The screen left as the deviation made it: the proof failed on
			// what the test meant.
			now := f.View().Rec
			var labels []string
			if now.Interaction != nil && len(now.Interaction.Questions) == 1 {
				for _, o := range now.Interaction.Questions[0].Options {
					labels = append(labels, o.Label)
				}
			}
			if now.Screen != contract.ScreenQuestionnaire || !slices.Equal(now.Checked, tc.checked) || !slices.Equal(labels, tc.labels) {
				t.Errorf("the screen at the end: %s, boxes %v, options %q; want questionnaire, %v, %q",
					now.Screen, now.Checked, labels, tc.checked, tc.labels)
			}
			if _, fenced, err := st.Fenced(v.CurrentFence); err != nil || !fenced {
				t.Errorf("the prompt is not fenced after input that may have landed (err %v)", err)
			}
		})
	}
}
