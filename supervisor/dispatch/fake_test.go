package dispatch

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/vt"
)

const corpusDir = "../../recordings/testdata"

// fakeTerminal is a Terminal that serves a real recording: its output
// goes through vt and the recognizers at each point, as in a pane. It
// plays like a strict replica: bytes akk sends must be the recording's
// next inputs, which advance it; any other byte is a divergence. It never
// waits: after its input the screen is final until the next input, so an
// Await that does not hold at once never will.
type fakeTerminal struct {
	mu     sync.Mutex
	rec    *recordings.Recording
	pos    int // the next event
	scr    *vt.Screen
	r      *recognizers.Recognizer
	v      terminal.View
	lock   chan struct{}
	frozen bool  // input is taken (one input per write) but the screen never moves on
	fail   error // Barrier and Settle fail with it
	// respawn: the next Barrier or Settle finds another terminal id.
	respawn string

	pending  []byte // sent, not yet matched to a recorded input
	sent     int    // bytes received
	inputs   int    // recorded inputs matched
	diverged []byte // bytes that matched no recorded input
	resolved int    // Resolve calls
	// onInput, when set, runs before each write reaches the fake: the
	// runner checks there that the input was durably marked sent first.
	onInput func()
	// onResolve, when set, is the binder's answer to a Resolve: it may
	// change the view's binding.
	onResolve func(v *terminal.View)
	// onBarrier, when set, runs at each Barrier or Settle (the nth, from
	// 1) with mu held: what changed in the pane before that look.
	onBarrier func(n int, v *terminal.View)
	barriers  int
}

// newFake loads the recording of agent/version/name and shows it as
// version shown (another version: no profile knows it).
func newFake(agent, version, shown, name string) (*fakeTerminal, error) {
	rec, err := recordings.ReadFile(filepath.Join(corpusDir, agent, version, name+".cast"))
	if err != nil {
		return nil, err
	}
	key := recognizers.Key(bytes.Repeat([]byte{7}, 32))
	f := &fakeTerminal{rec: rec, scr: vt.New(rec.Header.Width, rec.Header.Height, vt.Options{}),
		r: recognizers.NewRecognizer(recognizers.Lookup(agent, shown), key), lock: make(chan struct{}, 1)}
	f.v = terminal.View{ID: "term_" + terminal.Derive([]byte("test"), "terminal", agent, version, name), Recorded: true,
		Ident: &procid.Identity{Agent: agent, Version: shown, Replica: true, PGID: 4242, LeaderStart: 99,
			AgentPID: 4242, AgentStart: 99, Cwd: "/project"}}
	return f, nil
}

// play applies events from pos while stop says go on. Inputs on the way
// are the recording's own (typed by "the person"), not akk's.
func (f *fakeTerminal) play(stop func(e recordings.Event) bool) {
	evs := f.rec.Events
	for ; f.pos < len(evs); f.pos++ {
		e := evs[f.pos]
		if stop(e) {
			return
		}
		switch e.Code {
		case recordings.Output, recordings.OutputRaw:
			f.scr.Write(e.Data)
		case recordings.Resize:
			if w, h, err := recordings.ParseSize(string(e.Data)); err == nil {
				f.scr.Resize(w, h)
			}
		}
	}
}

// toMarker plays up to and including the k-th marker from here (k -1:
// up to the next input, not sent) and recognizes the screen.
func (f *fakeTerminal) toMarker(k int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen, found := 0, false
	f.play(func(e recordings.Event) bool {
		switch {
		case k < 0 && e.Code == recordings.Input:
			found = true
			return true
		case e.Code == recordings.MarkerEv && seen == k:
			found = true
			return true
		case e.Code == recordings.MarkerEv:
			seen++
		}
		return false
	})
	if !found {
		return fmt.Errorf("no marker %d", k)
	}
	if k >= 0 {
		f.pos++ // past the marker
	}
	f.recognize()
	return nil
}

// tick plays the recording's output up to its next input (what the agent
// redraws by itself meanwhile: a working row's spinner and seconds) and
// recognizes the screen afresh.
func (f *fakeTerminal) tick() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.play(func(e recordings.Event) bool { return e.Code == recordings.Input })
	f.recognize()
}

// recognize makes a new recognition of the screen. Called with mu held.
func (f *fakeTerminal) recognize() {
	r := terminal.FromRecognition(f.r.Recognize(f.scr))
	if f.v.Fenced {
		r = terminal.Fence(r, false)
	}
	f.v.Rec = r
	f.v.Seq++
	f.v.CurrentFence = terminal.FenceKey(f.v.ID, r.Fingerprint, f.v.Bind.Generation, f.v.Bind.LastCall)
}

// edit changes the view (a fault) and recognizes again.
func (f *fakeTerminal) edit(fn func(v *terminal.View)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(&f.v)
	f.recognize()
}

// input takes bytes akk sent: each recorded input they begin with is
// consumed and the output after it played, up to the next input.
func (f *fakeTerminal) input(b []byte) error {
	if f.onInput != nil {
		f.onInput()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent += len(b)
	if f.frozen { // taken, and nothing shows it
		f.inputs++
		return nil
	}
	f.pending = append(f.pending, b...)
	for len(f.pending) > 0 {
		f.play(func(e recordings.Event) bool { return e.Code == recordings.Input })
		if f.pos >= len(f.rec.Events) {
			break
		}
		want := f.rec.Events[f.pos].Data
		switch {
		case bytes.HasPrefix(f.pending, want):
			f.pending = f.pending[len(want):]
			f.inputs++
			f.pos++
			f.play(func(e recordings.Event) bool { return e.Code == recordings.Input })
			f.recognize()
		case bytes.HasPrefix(want, f.pending):
			return nil // the rest of this input comes in the next write
		default:
			f.diverged = append(f.diverged, f.pending...)
			f.pending = nil
		}
	}
	if len(f.pending) > 0 {
		f.diverged = append(f.diverged, f.pending...)
		f.pending = nil
	}
	return nil
}

func (f *fakeTerminal) Lock(ctx context.Context) (func(), error) {
	select {
	case f.lock <- struct{}{}:
		return func() { <-f.lock }, nil
	default:
		return nil, terminal.ErrBusy // a real pane waits a while first
	}
}

func (f *fakeTerminal) Barrier(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.respawn != "" {
		f.v.ID, f.respawn = f.respawn, ""
	}
	f.barriers++
	if f.onBarrier != nil {
		f.onBarrier(f.barriers, &f.v)
	}
	return f.fail
}

func (f *fakeTerminal) Settle(ctx context.Context) error { return f.Barrier(ctx) }

func (f *fakeTerminal) View() terminal.View {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.v
	if v.Ident != nil {
		cp := *v.Ident
		v.Ident = &cp
	}
	return v
}

func (f *fakeTerminal) Next() (terminal.View, <-chan struct{}) {
	ch := make(chan struct{})
	close(ch)
	return f.View(), ch
}

func (f *fakeTerminal) Await(ctx context.Context, seq uint64, timeout time.Duration, ok func(terminal.Recognition) bool) (terminal.Recognition, bool) {
	v := f.View()
	return v.Rec, v.Seq != seq && ok(v.Rec)
}

func (f *fakeTerminal) AwaitQuiet(ctx context.Context, seq uint64, quiet, max time.Duration) {}

func (f *fakeTerminal) SendBytes(ctx context.Context, b []byte) error { return f.input(b) }

func (f *fakeTerminal) TypeText(ctx context.Context, text string) error { return f.input([]byte(text)) }

func (f *fakeTerminal) ForgetFence() {}

func (f *fakeTerminal) SetActiveTurn(turnID string) {
	f.mu.Lock()
	f.v.ActiveTurn = turnID
	f.mu.Unlock()
}

func (f *fakeTerminal) Resolve() {
	f.mu.Lock()
	f.resolved++
	if f.onResolve != nil {
		f.onResolve(&f.v)
	}
	f.mu.Unlock()
}

func (f *fakeTerminal) Poke() {}

// oneTerminal is the registry of one terminal (a fake, or a fake that
// deviates).
type oneTerminal struct{ t Terminal }

func (r oneTerminal) Terminal(id string) Terminal {
	if r.t.View().ID == id {
		return r.t
	}
	return nil
}

func (r oneTerminal) All() []Terminal { return []Terminal{r.t} }

// storeAndFake is a real store and a fake terminal played to marker k
// (toMarker's k), for a test that runs one transaction on them.
func storeAndFake(t *testing.T, agent, version, name string, k int) (*store.Store, *fakeTerminal) {
	t.Helper()
	return storeAndShownFake(t, agent, version, version, name, k)
}

// storeAndShownFake is storeAndFake of a fake whose screen shows another
// version (newFake's shown).
func storeAndShownFake(t *testing.T, agent, version, shown, name string, k int) (*store.Store, *fakeTerminal) {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f, err := newFake(agent, version, shown, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.toMarker(k); err != nil {
		t.Fatal(err)
	}
	return st, f
}
