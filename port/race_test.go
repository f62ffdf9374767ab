package port

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// fake is a recording port: it answers after a delay, fails, never
// answers, or answers even after an abort, and records whether it was
// aborted and whether it had cleaned up by then.
type fake struct {
	answer  string
	after   time.Duration
	fail    error
	never   bool // blocks until aborted
	rogue   bool // ignores the abort and answers anyway
	aborted atomic.Bool
	cleaned atomic.Bool
}

func (f *fake) AskDecision(ctx context.Context, p Prompt) (string, error) {
	if f.fail != nil {
		return "", f.fail
	}
	var timer <-chan time.Time
	if !f.never {
		timer = time.After(f.after)
	}
	select {
	case <-timer:
		return f.answer, nil
	case <-ctx.Done():
		f.aborted.Store(true)
		if f.rogue {
			return "rogue", nil
		}
		time.Sleep(5 * time.Millisecond) // closing a dialog takes a moment
		f.cleaned.Store(true)
		return "", ctx.Err()
	}
}

func (f *fake) AskManualIntervention(ctx context.Context, p Prompt) (string, error) {
	return f.AskDecision(ctx, p)
}

func (f *fake) Notify(string) {}

func TestRace(t *testing.T) {
	errGone := errors.New("window closed")
	for _, tc := range []struct {
		name      string
		ports     []*fake
		timeout   time.Duration
		wantPort  int
		wantText  string
		wantErr   error
		wantAbort []bool
	}{
		{name: "first answer wins", ports: []*fake{{answer: "n", after: 50 * time.Millisecond}, {answer: "y", after: time.Millisecond}},
			wantPort: 1, wantText: "y", wantAbort: []bool{true, false}},
		{name: "a port that cannot ask never answers", ports: []*fake{{never: true}, {answer: "y", after: 10 * time.Millisecond}},
			wantPort: 1, wantText: "y", wantAbort: []bool{true, false}},
		{name: "a failing port drops out, the race goes on", ports: []*fake{{fail: errGone}, {answer: "", after: 10 * time.Millisecond}},
			wantPort: 1, wantText: "", wantAbort: []bool{false, false}},
		{name: "all drop out", ports: []*fake{{fail: errGone}, {fail: ErrCannotAsk}},
			wantErr: ErrNoAnswer},
		{name: "an answer after the abort is dropped", ports: []*fake{{rogue: true, never: true}, {answer: "y", after: time.Millisecond}},
			wantPort: 1, wantText: "y", wantAbort: []bool{true, false}},
		{name: "the caller gives up: no answer at all", ports: []*fake{{never: true, rogue: true}, {never: true}},
			timeout: 20 * time.Millisecond, wantErr: context.DeadlineExceeded, wantAbort: []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			ports := make([]Port, len(tc.ports))
			for i, p := range tc.ports {
				ports[i] = p
			}
			a, err := Race(ctx, ports, func(ctx context.Context, p Port) (string, error) {
				return p.AskDecision(ctx, Prompt{Title: "run tests?"})
			})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
			} else if err != nil || a.Port != tc.wantPort || a.Text != tc.wantText {
				t.Fatalf("got %+v %v, want port %d %q", a, err, tc.wantPort, tc.wantText)
			}
			for i, want := range tc.wantAbort {
				p := tc.ports[i]
				if p.aborted.Load() != want {
					t.Errorf("port %d aborted %v, want %v", i, p.aborted.Load(), want)
				}
				// Race returns only once every aborted port has closed
				// its question (the UI is usable again).
				if want && !p.rogue && !p.cleaned.Load() {
					t.Errorf("port %d was still closing its question when Race returned", i)
				}
			}
		})
	}
}

func TestDecision(t *testing.T) {
	for in, want := range map[string]string{" Y\n": "y", "No": "no", "": "", " q ": "q"} {
		if got := Decision(in); got != want {
			t.Errorf("Decision(%q) = %q, want %q", in, got, want)
		}
	}
}

// decisionOnly has no AskText or AskChoice: questions reach it through
// AskDecision, a choice with its options numbered.
type decisionOnly struct{ got Prompt }

func (d *decisionOnly) AskDecision(ctx context.Context, p Prompt) (string, error) {
	d.got = p
	return "2", nil
}
func (d *decisionOnly) AskManualIntervention(ctx context.Context, p Prompt) (string, error) {
	return "", nil
}
func (d *decisionOnly) Notify(string) {}

func TestAskChoiceFallback(t *testing.T) {
	d := &decisionOnly{}
	a, err := AskChoice(context.Background(), d, Prompt{Title: "colour", Lines: []string{"pick one"}},
		Choice{Options: []string{"Red", "Blue"}})
	if err != nil || a != "2" {
		t.Fatalf("got %q %v", a, err)
	}
	want := []string{"pick one", "1. Red", "2. Blue"}
	if len(d.got.Lines) != len(want) {
		t.Fatalf("lines %q, want %q", d.got.Lines, want)
	}
	for i := range want {
		if d.got.Lines[i] != want[i] {
			t.Errorf("line %d %q, want %q", i, d.got.Lines[i], want[i])
		}
	}
	if d.got.Question != "Choose a number" {
		t.Errorf("question %q", d.got.Question)
	}
}
