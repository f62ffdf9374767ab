package supervisor

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/port"
)

// Asking a person before a managed Turn's approval (issue 10, seed 004).
//
// With AskConfig.Policy "ask_person", a permission prompt of a managed
// Turn is put to a person through the interaction port (the popup on the
// client viewing the session racing a response file, as cmd/akk wires
// it). The policy itself never answers: only a person's "y" leads to an
// approve, and that approve is the full dispatch transaction on a fresh
// offer, made after the answer and refused unless the screen still shows
// the very interaction the person was asked about. "n", a closed popup or
// no answer sends nothing; the Turn's controller keeps its own way to
// answer (approve by turn_id) throughout, and when anyone answers first
// the question is withdrawn (its context is cancelled).

// Ask policies.
const (
	AskOff    = ""
	AskPerson = "ask_person"
)

// AskConfig configures asking a person.
type AskConfig struct {
	// Policy: AskOff or AskPerson.
	Policy string
	// Port returns the port that asks about a terminal of the tmux
	// session (required with AskPerson).
	Port func(session string) port.Port
}

func (c AskConfig) validate() error {
	switch c.Policy {
	case AskOff:
		return nil
	case AskPerson:
		if c.Port == nil {
			return fmt.Errorf("%w: ask policy %s needs a Port", ErrConfig, c.Policy)
		}
		return nil
	}
	return fmt.Errorf("%w: ask policy %q: want %q or none", ErrConfig, c.Policy, AskPerson)
}

// askActions is what the asker does through the daemon's own API: a
// fresh Status (which makes the offer) and approve once.
type askActions interface {
	Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error)
	Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error)
}

// asker holds the open questions, one per terminal.
type asker struct {
	cfg AskConfig
	lg  *slog.Logger
	api askActions
	mu  sync.Mutex
	// ctx is Run's; nil before Run (no question is asked then).
	ctx  context.Context
	open map[string]*question // by terminal id
	wg   sync.WaitGroup
}

type question struct {
	interactionID string
	cancel        context.CancelFunc
}

func newAsker(cfg AskConfig, lg *slog.Logger, actions askActions) *asker {
	return &asker{cfg: cfg, lg: lg, api: actions, open: map[string]*question{}}
}

// run lets questions be asked until ctx ends, then waits for every open
// one to be withdrawn (their UIs closed).
func (a *asker) run(ctx context.Context) error {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	<-ctx.Done()
	a.mu.Lock()
	for id, q := range a.open {
		q.cancel()
		delete(a.open, id)
	}
	a.mu.Unlock()
	a.wg.Wait()
	return nil
}

// observed follows a managed Turn's terminal: a new pending permission
// opens a question, and a question whose interaction is no longer on the
// screen is withdrawn. Called by the task manager (opMu held): it only
// starts or cancels goroutines.
func (a *asker) observed(spec TurnSpec, in *contract.Interaction) {
	if a.cfg.Policy != AskPerson {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	q := a.open[spec.TerminalID]
	if in != nil && q != nil && q.interactionID == in.InteractionID {
		return // still the same question
	}
	if q != nil {
		q.cancel() // answered meanwhile, or another prompt: withdraw
		delete(a.open, spec.TerminalID)
	}
	if in == nil || in.State != contract.StatePending || in.Kind != api.AttentionPermission || a.ctx == nil || a.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.open[spec.TerminalID] = &question{interactionID: in.InteractionID, cancel: cancel}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer cancel()
		a.ask(ctx, spec, in.InteractionID)
	}()
}

// ended withdraws the question of a Turn that ended.
func (a *asker) ended(spec TurnSpec) { a.observed(spec, nil) }

// ask puts one permission prompt to a person and, on a "y", approves it
// once through the dispatch transaction.
func (a *asker) ask(ctx context.Context, spec TurnSpec, interactionID string) {
	s := a.api
	lg := a.lg.With("component", "ask", "turn", spec.TurnID, "terminal", spec.TerminalID, "interaction", interactionID)
	shown, err := s.Status(ctx, api.StatusRequest{TerminalID: spec.TerminalID, Render: true})
	if err != nil || !sameInteraction(shown, interactionID) {
		return // gone already
	}
	t := shown.Terminal
	prompt := port.Prompt{
		Title:    fmt.Sprintf("%s %s (%s:%s) asks permission", t.Agent, t.Version, t.Session, t.PaneID),
		Question: "Approve it once? (y/n)",
	}
	if p := shown.Prompt; p != nil {
		prompt.Lines = strings.Split(strings.TrimRight(p.Text, "\n"), "\n")
		prompt.Styled = p.ANSI
	}
	pt := a.cfg.Port(t.Session)
	lg.Info("asking a person")
	raw, err := pt.AskDecision(ctx, prompt)
	if err != nil {
		lg.Info("question withdrawn", "why", err)
		return
	}
	if d := port.Decision(raw); d != "y" && d != "yes" {
		lg.Info("the person did not approve: nothing sent")
		pt.Notify("not approved: nothing was sent (answer it in the pane)")
		return
	}
	// The person said yes to what they were shown. A fresh Status makes
	// the offer the approve consumes, and only if it still shows that
	// interaction; the dispatch transaction then rechecks the exact
	// styled prompt before any key.
	fresh, err := s.Status(ctx, api.StatusRequest{TerminalID: spec.TerminalID, Render: true})
	if err != nil || !sameInteraction(fresh, interactionID) {
		lg.Info("the prompt changed before the approval: nothing sent")
		pt.Notify("the prompt changed before your answer: nothing was sent")
		return
	}
	res, err := s.Approve(ctx, api.ApproveRequest{TerminalID: spec.TerminalID, Decision: contract.DecisionApproveOnce})
	if err != nil {
		lg.Warn("approve", "err", err)
		pt.Notify("approve failed: " + err.Error())
		return
	}
	lg.Info("approved on a person's answer", "outcome", res.Outcome, "reason", res.Reason)
	pt.Notify(fmt.Sprintf("approve once: %s %s", res.Outcome, res.Reason))
}

func sameInteraction(st api.StatusResponse, id string) bool {
	in := st.Terminal.Interaction
	return in != nil && in.InteractionID == id && in.State == contract.StatePending
}
