package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// The mutating commands: approve, respond, send, cancel. Each prints the
// daemon's ActionResult (--json: as is) and exits with the outcome's code:
// 0 accepted, 3 rejected_before_input, 4 manual_required, 5 uncertain
// (never retry it), 2 usage, 6 no daemon. approve and respond act only on
// what a fresh `akk status` by the same user showed (the daemon's offer).

// ApproveCmd is `akk approve`.
type ApproveCmd struct {
	DaemonFlags
	TerminalID string `arg:"" optional:"" help:"The terminal showing the permission prompt (approve_once only): ${terminal}."`
	Turn       string `help:"The managed turn (turn_…): approve_once or reject." placeholder:"TURN_ID"`
	Reject     bool   `help:"Reject (the agent's own 'No'); needs --turn."`
}

// Run approves once or rejects.
func (c *ApproveCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if (c.TerminalID == "") == (c.Turn == "") {
		return fmt.Errorf("%w: give a terminal id or --turn, not both", errUsage)
	}
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	req := api.ApproveRequest{TerminalID: c.TerminalID, TurnID: c.Turn, Decision: contract.DecisionApproveOnce}
	if c.Reject {
		req.Decision = contract.DecisionReject
	}
	res, err := cl.Approve(ctx, req)
	return printResult(g, stdout, res, err)
}

// RespondCmd is `akk respond`.
type RespondCmd struct {
	DaemonFlags
	Terminal    string   `help:"Answer on this terminal (a local person's offer): ${terminal}." placeholder:"TERMINAL" xor:"subject" required:""`
	Turn        string   `help:"Answer for this managed turn." placeholder:"TURN_ID" xor:"subject" required:""`
	Watch       string   `help:"Answer through this exact-task watch." placeholder:"WATCH_ID" xor:"subject" required:""`
	Interaction string   `help:"The interaction id akk status showed." placeholder:"INT_ID" required:""`
	Question    string   `help:"The question id." placeholder:"Q_ID" required:""`
	Option      []string `help:"The chosen option id (single_select); repeat it (or separate ids with commas) for the options a multi_select ends with ticked." placeholder:"OPT_ID"`
	Text        string   `help:"The typed answer (a free-text question or option); - reads stdin."`
	Kind        string   `help:"The response kind (default: multi_select with several --option, single_select with one, else free_text)." enum:",single_select,multi_select,free_text,open" default:""`
	Delivery    string   `help:"For an async question: steer_current_turn or queue_next_turn." enum:",steer_current_turn,queue_next_turn" default:""`
}

// Run answers the current step of an interaction.
func (c *RespondCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.Terminal); err != nil {
		return err
	}
	text, err := readText(c.Text)
	if err != nil {
		return err
	}
	kind := contract.ResponseKind(c.Kind)
	if kind == "" {
		switch len(c.Option) {
		case 0:
			kind = contract.ResponseFreeText
		case 1:
			kind = contract.ResponseSingleSelect
		default:
			kind = contract.ResponseMultiSelect
		}
	}
	ans := api.Answer{QuestionID: c.Question, ResponseKind: kind, Text: text, SelectedOptionIDs: c.Option}
	res, err := cl.Respond(ctx, api.RespondRequest{TerminalID: c.Terminal, TurnID: c.Turn, WatchID: c.Watch,
		InteractionID: c.Interaction, Answers: []api.Answer{ans}, DeliveryMode: contract.DeliveryMode(c.Delivery)})
	return printResult(g, stdout, res, err)
}

// SendCmd is `akk send`.
type SendCmd struct {
	DaemonFlags
	Target  string `arg:"" help:"A terminal (a term_… id, or a selector: ${agent_selectors}, @REF, %PANE or session:window.pane), an AKK session (ses_…), or 'only': the one terminal ready for a send (refused unless exactly one is)."`
	Request string `arg:"" help:"The task text; - reads stdin. A first line starting with / is refused."`
	Mode    string `enum:",session_exact,terminal_follow_current,terminal_user_explicit" default:"" help:"session_exact (a ses_ target), terminal_follow_current (a term_ target, the default) or terminal_user_explicit: your own send to the terminal you chose, into a working agent or over a draft (the agent's draft is deleted, or stashed and put back after where the agent stashes drafts); a dialog still refuses it."`
	// User is --mode terminal_user_explicit.
	User      bool   `help:"Short for --mode terminal_user_explicit."`
	MessageID string `help:"An idempotency key: sending it again returns the first turn and sends nothing." placeholder:"ID"`
}

// Run sends a task as a managed turn.
func (c *SendCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	text, err := readText(c.Request)
	if err != nil {
		return err
	}
	req := api.SendRequest{Request: text, MessageID: c.MessageID, Mode: c.Mode}
	if c.User {
		if c.Mode != "" && c.Mode != api.SendUserExplicit {
			return fmt.Errorf("%w: --user and --mode %s contradict", errUsage, c.Mode)
		}
		req.Mode = api.SendUserExplicit
	}
	switch {
	case c.Target == "only":
	case strings.HasPrefix(c.Target, "ses_"):
		req.SessionID = c.Target
	default:
		if err := resolveInto(ctx, cl, &c.Target); err != nil {
			return err
		}
		req.TerminalID = c.Target
	}
	res, err := cl.Send(ctx, req)
	return printResult(g, stdout, res, err)
}

// AnswerCmd is `akk answer`.
type AnswerCmd struct {
	DaemonFlags
	Turn    string `arg:"" help:"The managed turn whose agent ended with its own text (status says answerable)."`
	Request string `arg:"" help:"The reply; - reads stdin. A first line starting with / is refused."`
}

// Run continues an answerable turn with the reply.
func (c *AnswerCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	text, err := readText(c.Request)
	if err != nil {
		return err
	}
	res, err := cl.Answer(ctx, api.AnswerRequest{TurnID: c.Turn, Request: text})
	return printResult(g, stdout, res, err)
}

// CancelCmd is `akk cancel`.
type CancelCmd struct {
	DaemonFlags
	Turn string `arg:"" help:"The managed turn to interrupt (turn_…)."`
}

// Run interrupts a managed turn.
func (c *CancelCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	res, err := cl.Cancel(ctx, api.CancelRequest{TurnID: c.Turn})
	return printResult(g, stdout, res, err)
}

func readText(arg string) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	b, err := io.ReadAll(io.LimitReader(os.Stdin, api.MaxRequestText+1))
	if err != nil {
		return "", fmt.Errorf("read stdin: %w", err)
	}
	return strings.TrimSuffix(string(b), "\n"), nil
}

// printResult prints an action's result and exits with its code.
func printResult(g *Globals, stdout io.Writer, res api.ActionResult, err error) error {
	if errors.Is(err, api.ErrNoReply) {
		// Sent, and no answer: as uncertain as input that may have landed.
		res, err = api.ActionResult{V: api.SchemaVersion, Outcome: api.OutcomeUncertain, Reason: api.ReasonNoReply, DoNotRetry: true}, nil
	}
	if err != nil {
		if api.IsCode(err, api.CodeBadRequest) {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		return err
	}
	if g.JSON {
		if err := json.NewEncoder(stdout).Encode(res); err != nil {
			return err
		}
	} else {
		line := res.Outcome
		if res.Op != "" {
			line = res.Op + ": " + line
		}
		if res.Reason != "" {
			line += " (" + res.Reason + ")"
		}
		if res.TurnID != "" {
			line += "  turn " + res.TurnID
		}
		if res.ScreenState != "" {
			line += "  now " + string(res.ScreenState)
		}
		switch res.Outcome {
		case api.OutcomeUncertain:
			line += "  — input may have landed: do not retry; look at the pane"
		case api.OutcomePending:
			line += "  — submitted, the agent's file does not show it yet: do not retry; `akk task` follows the turn"
		}
		fmt.Fprintln(stdout, line)
		if n := res.Next; n != nil {
			fmt.Fprintf(stdout, "next: %s %s (%s)\n", n.Kind, n.State, n.InteractionID)
		}
	}
	if code := api.ExitCode(res.Outcome); code != 0 {
		return exitWith(code) // the outcome is printed: say nothing more
	}
	return nil
}
