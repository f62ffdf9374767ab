package popup

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/answer"
)

// Backend is what the popup talks to: the daemon's API and tmux.
type Backend interface {
	List(ctx context.Context) (api.ListResponse, error)
	Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error)
	Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error)
	Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error)
	// Jump shows the pane on the popup's tmux client.
	Jump(ctx context.Context, session, pane string) error
}

// Options of Run.
type Options struct {
	Logger *slog.Logger
	// Refresh is how often the list is read again (0: 1 s).
	Refresh time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Shown, if set, is called after every frame is shown, on Run's
	// goroutine (tests read the simulation screen there, never halfway
	// through a frame).
	Shown func(tcell.Screen)
}

// Run shows the popup on s (initialised by the caller, finalised by it)
// until the person closes it, jumps to a pane, or ctx ends.
func Run(ctx context.Context, s tcell.Screen, b Backend, o Options) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Refresh == 0 {
		o.Refresh = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Effects run one at a time, in order, on one goroutine: the fresh
	// Status of an answer and the answer itself never interleave with
	// another request of this popup.
	effects := make(chan any, 64)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-effects:
				res := perform(ctx, b, e, o.Now)
				if ctx.Err() == nil {
					s.PostEvent(tcell.NewEventInterrupt(res))
				}
			}
		}
	}()
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	defer close(quit)
	go s.ChannelEvents(events, quit)
	tick := time.NewTicker(o.Refresh)
	defer tick.Stop()

	m := &Model{}
	m.W, m.H = s.Size()
	listing := 0 // list loads queued or running
	enqueue := func(effs []any) {
		for _, e := range effs {
			if _, ok := e.(LoadList); ok {
				if listing > 0 {
					continue
				}
				listing++
			}
			o.Logger.Debug("popup effect", "effect", fmt.Sprintf("%T", e))
			select {
			case effects <- e:
			default:
				if _, ok := e.(LoadList); ok {
					listing--
				}
			}
		}
	}
	enqueue([]any{LoadList{}})
	for {
		View(s, m, o.Now())
		s.Show()
		if o.Shown != nil {
			o.Shown(s)
		}
		if m.Quit {
			return nil
		}
		var ev any
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			enqueue([]any{LoadList{}})
			continue
		case te := <-events:
			ev = te
			if in, ok := te.(*tcell.EventInterrupt); ok {
				ev = in.Data()
				if _, ok := ev.(ListLoaded); ok {
					listing--
				}
			}
		}
		enqueue(m.Update(ev))
	}
}

// perform runs one effect and returns the event that reports it.
func perform(ctx context.Context, b Backend, e any, now func() time.Time) any {
	switch e := e.(type) {
	case LoadList:
		l, err := b.List(ctx)
		return ListLoaded{List: l, Err: err, Now: now()}
	case LoadStatus:
		st, err := b.Status(ctx, api.StatusRequest{TerminalID: e.TerminalID, Render: true})
		return StatusLoaded{TerminalID: e.TerminalID, Status: st, Err: err}
	case Answer:
		return answerNow(ctx, b, e)
	case Jump:
		return Jumped{Err: b.Jump(ctx, e.Session, e.Pane)}
	}
	return nil
}

// answer makes the fresh Status (the offer the answer consumes) and sends
// only when it shows what the person saw.
func answerNow(ctx context.Context, b Backend, a Answer) Answered {
	fresh, err := b.Status(ctx, api.StatusRequest{TerminalID: a.Shown.Terminal.TerminalID, Render: true})
	if err != nil {
		return Answered{Err: fmt.Errorf("fresh status: %w", err)}
	}
	if !answer.SameShown(a.Shown, fresh) {
		return Answered{Changed: &fresh}
	}
	var r api.ActionResult
	if a.Approve != nil {
		r, err = b.Approve(ctx, *a.Approve)
	} else {
		r, err = b.Respond(ctx, *a.Respond)
	}
	return Answered{Result: r, Err: err}
}

// APIBackend is the Backend of a real popup: the daemon's client (its
// controller set to popup:<client tty>) and tmux on the popup's server.
type APIBackend struct {
	*api.Client
	// ClientTTY is the tmux client the popup runs on ("" lets tmux pick).
	ClientTTY string
	// Tmux runs a tmux command (nil: tmux from PATH, which inside a
	// popup reaches its own server through $TMUX).
	Tmux func(ctx context.Context, args ...string) error
}

// Jump switches the client to the pane's session, window and pane
// (switch-client with a pane target selects all three).
func (b APIBackend) Jump(ctx context.Context, session, pane string) error {
	args := []string{"switch-client"}
	if b.ClientTTY != "" {
		args = append(args, "-c", b.ClientTTY)
	}
	args = append(args, "-t", pane)
	if b.Tmux != nil {
		return b.Tmux(ctx, args...)
	}
	out, err := controlmode.Command(ctx, "", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
