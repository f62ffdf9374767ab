package demo

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// The demo's acts: what a person does with akk, as the commands they
// would type, each with the outcome it must have. Every act goes through
// the daemon's API like the CLI does, with semantic ids read from a fresh
// status; the replicas are strict, so a wrong byte ends one of them
// unclean and fails the demo.

// Step is one command of the demo and whether its outcome was the one
// expected.
type Step struct {
	Command string // as a person would type it
	Outcome string
	Detail  string
	OK      bool
}

// Acts runs the demo's commands once every scene reached its takeover
// screen, printing each before it runs and its outcome after; pause is
// called between steps (a terminal waits for Enter there). It returns the
// steps; the demo passed when each is OK and Ended reports every replica
// clean.
func (dm *Demo) Acts(ctx context.Context, w io.Writer, pause func(), styled bool) ([]Step, error) {
	panes, err := dm.PaneIDs()
	if err != nil {
		return nil, err
	}
	a := &actor{ctx: ctx, cl: dm.Client, w: w, pause: pause, panes: panes, person: dm.PersonTypes, styled: styled}
	if err := a.ready(); err != nil {
		return nil, err
	}
	a.approve(0)
	a.questionnaire(1)
	a.digit(2)
	a.send(3, "hello there")
	a.userSend(5, "hello there")
	return a.steps, nil
}

// Ready waits until every scene akk acts on shows its takeover screen.
func (dm *Demo) Ready(ctx context.Context) error {
	panes, err := dm.PaneIDs()
	if err != nil {
		return err
	}
	return (&actor{ctx: ctx, cl: dm.Client, panes: panes}).ready()
}

// takeoverScreens is the screen each scene akk acts on shows at its
// takeover point ("": a scene it only watches).
var takeoverScreens = []contract.ScreenState{contract.ScreenAwaitingApproval, contract.ScreenQuestionnaire, contract.ScreenQuestionnaire, contract.ScreenIdle, "",
	contract.ScreenIdle}

func (a *actor) ready() error {
	for i, st := range takeoverScreens {
		if st == "" {
			continue
		}
		if _, err := a.await(i, st); err != nil {
			return err
		}
	}
	return nil
}

type actor struct {
	ctx   context.Context
	cl    *api.Client
	w     io.Writer
	pause func()
	panes []string
	steps []Step
	ids   map[int]string // scene -> terminal id
	// person types scene i's next recorded input, as the person would.
	person func(i int) error
	styled bool // print prompts in their colours (a terminal)
}

// await waits for scene i's row in screen state want (30 s).
func (a *actor) await(i int, want contract.ScreenState) (api.Terminal, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		l, err := a.cl.List(a.ctx)
		if err == nil {
			for _, r := range l.Terminals {
				if r.PaneID == a.panes[i] && r.ScreenState == want && (want == contract.ScreenIdle || r.Interaction != nil) {
					if a.ids == nil {
						a.ids = map[int]string{}
					}
					a.ids[i] = r.TerminalID
					return r, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return api.Terminal{}, fmt.Errorf("demo: %s/%s did not reach %s", Scenes[i].Agent, Scenes[i].Surface, want)
		}
		select {
		case <-a.ctx.Done():
			return api.Terminal{}, a.ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// awaitPrompt waits for scene i's row to show another question than old.
func (a *actor) awaitPrompt(i int, old string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if l, err := a.cl.List(a.ctx); err == nil {
			for _, r := range l.Terminals {
				if r.TerminalID == a.ids[i] && r.Interaction != nil && firstPrompt(r.Interaction) != old {
					return nil
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("the pane still shows %q", old)
}

// step prints a command, runs it, and records whether its outcome is want.
func (a *actor) step(command, want string, run func() (api.ActionResult, error), explain func(api.ActionResult) string) api.ActionResult {
	a.pause()
	fmt.Fprintf(a.w, "\n$ %s\n", command)
	res, err := run()
	st := Step{Command: command, Outcome: res.Outcome}
	if err != nil {
		st.Outcome, st.Detail = "error", err.Error()
	} else {
		st.OK = res.Outcome == want
		st.Detail = explain(res)
	}
	mark := "ok"
	if !st.OK {
		mark = "UNEXPECTED (wanted " + want + ")"
	}
	fmt.Fprintf(a.w, "  %s: %s  [%s]\n", st.Outcome, st.Detail, mark)
	a.steps = append(a.steps, st)
	return res
}

// status prints `akk status` of scene i: the prompt as the agent drew it,
// its interaction with the ids to answer by, and the offer's expiry.
func (a *actor) status(i int) (api.StatusResponse, bool) {
	a.pause()
	id := a.ids[i]
	fmt.Fprintf(a.w, "\n$ akk status %s        # %s %s\n", id, Scenes[i].Agent, Scenes[i].Version)
	st, err := a.cl.Status(a.ctx, api.StatusRequest{TerminalID: id})
	ok := err == nil && st.Terminal.Interaction != nil && st.Terminal.Interaction.State == contract.StatePending && st.OfferExpiresAt != nil
	step := Step{Command: "akk status " + id, Outcome: "shown", OK: ok}
	if err != nil {
		step.Outcome, step.Detail = "error", err.Error()
		fmt.Fprintf(a.w, "  error: %v\n", err)
		a.steps = append(a.steps, step)
		return st, false
	}
	if p := st.Prompt; p != nil && a.styled && p.ANSI != "" {
		fmt.Fprint(a.w, p.ANSI, "\x1b[0m\n")
	} else if p != nil {
		for _, line := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			fmt.Fprintf(a.w, "  │ %s\n", line)
		}
	}
	if in := st.Terminal.Interaction; in != nil {
		fmt.Fprintf(a.w, "  %s, %s (%s)\n", st.Terminal.ScreenState, in.Kind, in.State)
		for _, q := range in.Questions {
			fmt.Fprintf(a.w, "  question %s: %s\n", q.QuestionID, q.Prompt)
			for _, o := range q.Options {
				fmt.Fprintf(a.w, "    option %s  %s\n", o.OptionID, o.Label)
			}
		}
		if len(in.Decisions) > 0 {
			fmt.Fprintf(a.w, "  decisions: %s\n", contract.Join(in.Decisions, ", "))
		}
	}
	if st.OfferExpiresAt != nil {
		fmt.Fprintf(a.w, "  offer: answer before %s, or run status again\n", st.OfferExpiresAt.Local().Format("15:04:05"))
	}
	a.steps = append(a.steps, step)
	return st, ok
}

func screenOf(res api.ActionResult) string {
	if res.Next != nil {
		return fmt.Sprintf("%s, next: %s %q", res.ScreenState, res.Next.Kind, firstPrompt(res.Next))
	}
	return string(res.ScreenState) + " (" + res.Evidence + ")"
}

func firstPrompt(in *contract.Interaction) string {
	if len(in.Questions) == 0 {
		return ""
	}
	return in.Questions[0].Prompt
}

// approve: the permission prompt, approved once.
func (a *actor) approve(i int) {
	if _, ok := a.status(i); !ok {
		return
	}
	id := a.ids[i]
	a.step("akk approve "+id, api.OutcomeAccepted, func() (api.ActionResult, error) {
		return a.cl.Approve(a.ctx, api.ApproveRequest{TerminalID: id})
	}, screenOf)
}

// answer picks option n of the status's first question.
func (a *actor) answer(i int, st api.StatusResponse, n int, want string) (api.ActionResult, *contract.Interaction) {
	in := st.Terminal.Interaction
	q := in.Questions[0]
	if n >= len(q.Options) {
		a.steps = append(a.steps, Step{Command: "respond", Outcome: "no option", Detail: fmt.Sprintf("%d options", len(q.Options))})
		return api.ActionResult{}, in
	}
	o := q.Options[n]
	id := a.ids[i]
	cmd := fmt.Sprintf("akk respond --terminal %s --interaction %s --question %s --option %s   # %q",
		id, in.InteractionID, q.QuestionID, o.OptionID, o.Label)
	res := a.step(cmd, want, func() (api.ActionResult, error) {
		return a.cl.Respond(a.ctx, api.RespondRequest{TerminalID: id, InteractionID: in.InteractionID,
			Answers: []api.Answer{{QuestionID: q.QuestionID, ResponseKind: q.ResponseKind, SelectedOptionIDs: []string{o.OptionID}}}})
	}, func(res api.ActionResult) string {
		if res.Outcome == api.OutcomeAccepted {
			return screenOf(res)
		}
		return res.Reason + "; nothing was sent"
	})
	return res, in
}

// questionnaire: Claude Code's two questions and their review, answered
// step by step by their ids. The first is answered by the person in the
// pane meanwhile, so akk's answer to what its status showed is refused
// (the prompt changed) with nothing typed; akk answers the rest.
func (a *actor) questionnaire(i int) {
	st, ok := a.status(i)
	if !ok {
		return
	}
	a.pause()
	fmt.Fprintf(a.w, "\n# meanwhile the person answers the first question in the pane themselves")
	if err := a.person(i); err != nil {
		a.steps = append(a.steps, Step{Command: "the person types", Outcome: "error", Detail: err.Error()})
		return
	}
	// Once the pane shows the next question (a key in flight to the
	// agent is not on its screen yet: no one can see it coming), akk's
	// answer to the first is refused.
	if err := a.awaitPrompt(i, firstPrompt(st.Terminal.Interaction)); err != nil {
		a.steps = append(a.steps, Step{Command: "the person's answer shows", Outcome: "error", Detail: err.Error()})
		return
	}
	a.answer(i, st, 0, api.OutcomeRejected) // what the status showed is no longer on screen
	for _, n := range []int{1, 0} {         // the second option of the next question, then "Submit answers"
		if st, ok = a.status(i); !ok {
			return
		}
		a.answer(i, st, n, api.OutcomeAccepted)
	}
}

// digit: Codex's question, answered with its second option.
func (a *actor) digit(i int) {
	if st, ok := a.status(i); ok {
		a.answer(i, st, 1, api.OutcomeAccepted)
	}
}

// send: a task for the idle agent, as a managed Turn.
func (a *actor) send(i int, text string) {
	id := a.ids[i]
	a.step(fmt.Sprintf("akk send %s %q", id, text), api.OutcomeAccepted, func() (api.ActionResult, error) {
		return a.cl.Send(a.ctx, api.SendRequest{TerminalID: id, Request: text})
	}, func(res api.ActionResult) string { return "turn " + res.TurnID + ", " + screenOf(res) })
}

// userSend: the person's own send to an agent with a draft in its
// composer (terminal_user_explicit): Codex's one-line draft is deleted
// with its own ctrl+u, then the task goes in with one Enter.
func (a *actor) userSend(i int, text string) {
	id := a.ids[i]
	a.pause()
	fmt.Fprintf(a.w, "\n# a draft sits in this %s composer; a plain send would be refused (composer_not_empty)", display(Scenes[i].Agent))
	a.step(fmt.Sprintf("akk send --user %s %q", id, text), api.OutcomeAccepted, func() (api.ActionResult, error) {
		return a.cl.Send(a.ctx, api.SendRequest{TerminalID: id, Mode: api.SendUserExplicit, Request: text})
	}, func(res api.ActionResult) string {
		if res.SendFacts != nil && res.ClearedDraft {
			return "the draft cleared first; turn " + res.TurnID + ", " + screenOf(res)
		}
		return res.Reason + " " + screenOf(res)
	})
}

// Passed says whether every step had its expected outcome.
func Passed(steps []Step) bool {
	return len(steps) > 0 && !slices.ContainsFunc(steps, func(s Step) bool { return !s.OK })
}

// display is an agent's name for people.
func display(agent string) string {
	if a, ok := registry.Lookup(agent); ok {
		return a.Display()
	}
	return agent
}
