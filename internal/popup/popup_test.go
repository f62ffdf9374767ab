package popup

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/answer"
	"github.com/agent-knock-knock/akk/vt"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// promptANSI renders a small styled prompt through vt, as the daemon does.
func promptANSI(t *testing.T, title string) (string, string) {
	t.Helper()
	scr := vt.New(60, 4, vt.Options{})
	fmt.Fprintf(scr, "\x1b[1;31m%s\x1b[0m\r\n  rm -rf build\r\n\x1b[36m❯ 1. Yes\x1b[0m\r\n  2. No", title)
	r := vt.Rect{X: 0, Y: 0, W: 60, H: 4}
	return scr.ANSI(r), scr.PlainText(r)
}

func permissionStatus(t *testing.T, id, interaction, title string) api.StatusResponse {
	ansi, text := promptANSI(t, title)
	return api.StatusResponse{V: 1, Terminal: api.Terminal{TerminalID: id, Agent: "claude", Version: "2.1.267",
		Session: "main", PaneID: "%1", ScreenState: contract.ScreenAwaitingApproval, StateSince: t0.Add(-5 * time.Second),
		Interaction: &contract.Interaction{InteractionID: interaction, Kind: "permission", State: "pending",
			Decisions: []contract.Decision{"approve_once", "reject"}}},
		Prompt: &api.PromptRegion{Top: 10, Bottom: 13, Text: text, ANSI: ansi}}
}

func questionStatus(id, interaction string) api.StatusResponse {
	q := contract.Question{QuestionID: "q_1", Prompt: "Which colour?", ResponseKind: "single_select",
		Options: []contract.Option{{OptionID: "opt_red", Label: "Red"}, {OptionID: "opt_blue", Label: "Blue"},
			{OptionID: "opt_other", Label: "Type something", FreeText: true}}}
	return api.StatusResponse{V: 1, Terminal: api.Terminal{TerminalID: id, Agent: "codex", Session: "main", PaneID: "%2",
		ScreenState: contract.ScreenQuestionnaire, Interaction: &contract.Interaction{InteractionID: interaction,
			Kind: "questionnaire", State: "pending", Questions: []contract.Question{q}}},
		Prompt: &api.PromptRegion{Top: 0, Bottom: 0, Text: "Which colour?", ANSI: "Which colour?"}}
}

// fakeBackend serves Status answers from a queue per terminal (the last
// one repeats) and records every call.
type fakeBackend struct {
	mu       sync.Mutex
	statuses map[string][]api.StatusResponse
	calls    []string
	approved []api.ApproveRequest
	answered []api.RespondRequest
	result   api.ActionResult
	degraded *api.Degraded // what List says of the daemon
}

func (f *fakeBackend) List(ctx context.Context) (api.ListResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var l api.ListResponse
	for _, q := range f.statuses {
		l.Terminals = append(l.Terminals, q[0].Terminal)
	}
	l.Degraded = f.degraded
	return l, nil
}

func (f *fakeBackend) Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "status")
	q := f.statuses[req.TerminalID]
	if !req.Render {
		return api.StatusResponse{}, fmt.Errorf("the popup must ask for renderings")
	}
	st := q[0]
	if len(q) > 1 {
		f.statuses[req.TerminalID] = q[1:]
	}
	return st, nil
}

func (f *fakeBackend) Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error) {
	return act(f, "approve", &f.approved, req)
}

func (f *fakeBackend) Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error) {
	return act(f, "respond", &f.answered, req)
}

// act records an action call and its request in reqs, and answers with
// the fake's result.
func act[R any](f *fakeBackend, call string, reqs *[]R, req R) (api.ActionResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
	*reqs = append(*reqs, req)
	return f.result, nil
}

func (f *fakeBackend) Jump(ctx context.Context, session, pane string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "jump "+pane)
	return nil
}

func (f *fakeBackend) callLog() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, ",")
}

// popupRun runs the popup on an 80x24 simulation screen.
type popupRun struct {
	t    *testing.T
	s    tcell.SimulationScreen
	done chan error

	mu    sync.Mutex
	rows  []string        // the last frame's rows
	cells []tcell.SimCell // and cells
}

func startPopup(t *testing.T, b Backend) *popupRun {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(80, 24)
	ctx, cancel := context.WithCancel(context.Background())
	p := &popupRun{t: t, s: s, done: make(chan error, 1)}
	shown := func(tcell.Screen) {
		rows, cells := screenText(s)
		p.mu.Lock()
		p.rows, p.cells = rows, cells
		p.mu.Unlock()
	}
	go func() {
		p.done <- Run(ctx, s, b, Options{Refresh: 20 * time.Millisecond, Now: func() time.Time { return t0 }, Shown: shown})
	}()
	t.Cleanup(func() {
		cancel()
		<-p.done
		s.Fini()
	})
	return p
}

// text is the last frame's rows.
func (p *popupRun) text() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rows
}

func screenText(s tcell.SimulationScreen) ([]string, []tcell.SimCell) {
	cells, w, h := s.GetContents()
	cells = append([]tcell.SimCell(nil), cells...)
	rows := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) > 0 {
				b.WriteString(string(c.Runes))
			} else {
				b.WriteByte(' ')
			}
		}
		rows[y] = strings.TrimRight(b.String(), " ")
	}
	return rows, cells
}

func (p *popupRun) await(what string) []string {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		rows := p.text()
		if strings.Contains(strings.Join(rows, "\n"), what) {
			return rows
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the popup never showed %q:\n%s", what, strings.Join(rows, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *popupRun) styleOf(text string) (tcell.Style, bool) {
	p.mu.Lock()
	cells, rows := p.cells, p.rows
	p.mu.Unlock()
	w := 80
	for y, row := range rows {
		if x := strings.Index(row, text); x >= 0 {
			// Rows are ASCII up to the match in these tests.
			return cells[y*w+len([]rune(row[:x]))].Style, true
		}
	}
	return tcell.StyleDefault, false
}

// TestPopupApproveOnce: the permission prompt is shown with its own
// styles at 80x24; pressing 1 makes a fresh Status, then one approve by
// terminal_id with approve_once — never reject (invariant 9).
func TestPopupApproveOnce(t *testing.T) {
	b := &fakeBackend{statuses: map[string][]api.StatusResponse{"term_a": {permissionStatus(t, "term_a", "int_1", "Bash command")}},
		result: api.ActionResult{Outcome: api.OutcomeAccepted}}
	p := startPopup(t, b)
	rows := p.await("1. Approve once")
	if !strings.Contains(rows[0], "1 agent needs you") || !strings.Contains(rows[1], "permission") {
		t.Errorf("header and list:\n%s", strings.Join(rows[:3], "\n"))
	}
	st, ok := p.styleOf("Bash command")
	fg, _, attr := st.Decompose()
	if !ok || fg != tcell.ColorMaroon || attr&tcell.AttrBold == 0 {
		t.Errorf("the prompt's title is not drawn in its own style (bold red): %v %v %v", ok, fg, attr)
	}
	if strings.Contains(strings.Join(rows, "\n"), "reject") {
		t.Error("reject offered by terminal_id")
	}
	p.s.InjectKey(tcell.KeyRune, '1', 0)
	p.await("Sent (accepted)")
	if len(b.approved) != 1 || b.approved[0] != (api.ApproveRequest{TerminalID: "term_a", Decision: "approve_once"}) {
		t.Fatalf("approved %+v", b.approved)
	}
	if log := b.callLog(); !strings.Contains(log, "status,approve") {
		t.Errorf("calls %s: the approve must follow a fresh status", log)
	}
}

// TestPopupDegraded: a daemon that cannot act (its store cannot be
// written) says so above the list, in the refusal's colour.
func TestPopupDegraded(t *testing.T) {
	b := &fakeBackend{statuses: map[string][]api.StatusResponse{"term_a": {permissionStatus(t, "term_a", "int_1", "Bash command")}},
		degraded: &api.Degraded{State: api.DegradedStoreUnavailable, Detail: "no space left on the store's disk"}}
	p := startPopup(t, b)
	rows := p.await("akk cannot act now (store_unavailable)")
	if !strings.Contains(rows[1], "no space left") {
		t.Errorf("the degraded line is not under the title:\n%s", strings.Join(rows[:3], "\n"))
	}
	if st, ok := p.styleOf("akk cannot act now"); !ok || st != stBad {
		t.Errorf("the degraded line's style: %v", st)
	}
}

// TestPopupChangedScreen: the prompt changed between display and answer:
// nothing is sent and the new prompt is shown.
func TestPopupChangedScreen(t *testing.T) {
	b := &fakeBackend{statuses: map[string][]api.StatusResponse{"term_a": {
		permissionStatus(t, "term_a", "int_1", "Bash command"),
		permissionStatus(t, "term_a", "int_2", "Edit file")}}}
	p := startPopup(t, b)
	p.await("Bash command")
	p.s.InjectKey(tcell.KeyEnter, 0, 0)
	rows := p.await("nothing was sent")
	if !strings.Contains(strings.Join(rows, "\n"), "Edit file") {
		t.Errorf("the new state is not shown:\n%s\ncalls %s", strings.Join(rows, "\n"), b.callLog())
	}
	if strings.Contains(b.callLog(), "approve") {
		t.Errorf("calls %s: an approve was sent for a changed screen", b.callLog())
	}
}

// TestPopupQuestionnaire: arrows and Enter pick an option; a free-text
// option takes typed text (case kept) and sends it with the option id.
func TestPopupQuestionnaire(t *testing.T) {
	b := &fakeBackend{statuses: map[string][]api.StatusResponse{"term_q": {questionStatus("term_q", "int_q")}},
		result: api.ActionResult{Outcome: api.OutcomeAccepted}}
	p := startPopup(t, b)
	p.await("3. Type something")
	p.s.InjectKey(tcell.KeyDown, 0, 0)
	p.await("❯ 2. Blue")
	p.s.InjectKey(tcell.KeyEnter, 0, 0)
	p.await("Sent")
	p.s.InjectKey(tcell.KeyRune, '3', 0)
	p.await("Type the answer")
	for _, r := range "Green!" {
		p.s.InjectKey(tcell.KeyRune, r, 0)
	}
	p.await("> Green!")
	p.s.InjectKey(tcell.KeyEnter, 0, 0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		n := len(b.answered)
		b.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("answers %+v", b.answered)
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	first, second := b.answered[0], b.answered[1]
	if first.TerminalID != "term_q" || first.InteractionID != "int_q" || first.Answers[0].SelectedOptionIDs[0] != "opt_blue" || first.Answers[0].Text != "" {
		t.Errorf("first answer %+v", first)
	}
	if a := second.Answers[0]; a.SelectedOptionIDs[0] != "opt_other" || a.Text != "Green!" || a.QuestionID != "q_1" || a.ResponseKind != contract.ResponseSingleSelect {
		t.Errorf("second answer %+v", second)
	}
}

// TestPopupManualRequired: no choice is offered, digits send nothing,
// Enter jumps to the pane and ends the popup.
func TestPopupManualRequired(t *testing.T) {
	st := permissionStatus(t, "term_m", "int_m", "Bash command")
	st.Terminal.Interaction.State = "manual_required"
	st.Terminal.Interaction.Reasons = []string{"unknown_version"}
	b := &fakeBackend{statuses: map[string][]api.StatusResponse{"term_m": {st}}}
	p := startPopup(t, b)
	p.await("manual required: unknown_version")
	p.s.InjectKey(tcell.KeyRune, '1', 0)
	p.s.InjectKey(tcell.KeyEnter, 0, 0)
	select {
	case err := <-p.done:
		p.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("the popup did not end after the jump")
	}
	if log := b.callLog(); strings.Contains(log, "approve") || !strings.HasSuffix(log, "jump %1") {
		t.Errorf("calls %s", log)
	}
}

func TestSameShown(t *testing.T) {
	a := permissionStatus(t, "term_a", "int_1", "Bash command")
	restyled := permissionStatus(t, "term_a", "int_1", "Bash command")
	restyled.Prompt.ANSI = strings.Replace(restyled.Prompt.ANSI, "31", "32", 1)
	gone := a
	gone.Terminal.Interaction = nil
	for _, tc := range []struct {
		name string
		b    api.StatusResponse
		want bool
	}{
		{"same", permissionStatus(t, "term_a", "int_1", "Bash command"), true},
		{"other interaction", permissionStatus(t, "term_a", "int_2", "Bash command"), false},
		{"other text", permissionStatus(t, "term_a", "int_1", "Bash commant"), false},
		{"other style", restyled, false},
		{"answered meanwhile", gone, false},
		{"other terminal", permissionStatus(t, "term_b", "int_1", "Bash command"), false},
	} {
		if got := answer.SameShown(a, tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
