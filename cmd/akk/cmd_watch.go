package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agent-knock-knock/akk/api"
)

// The Watch and managed Turn commands (seed 003): each sends one request
// with semantic ids only and prints the Task the daemon answers with.

// WatchCmd is `akk watch TERMINAL_ID`.
type WatchCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal to observe: ${terminal}."`
}

func (c *WatchCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.Watch(ctx, api.WatchRequest{TerminalID: c.TerminalID})
	})
}

// UnwatchCmd is `akk unwatch WATCH_ID`.
type UnwatchCmd struct {
	DaemonFlags
	WatchID string `arg:"" help:"The Watch to stop (watch_…)."`
}

func (c *UnwatchCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.Unwatch(ctx, api.UnwatchRequest{WatchID: c.WatchID})
	})
}

// CloseCmd is `akk close TURN_ID`.
type CloseCmd struct {
	DaemonFlags
	TurnID string `arg:"" help:"The managed Turn to release (turn_…)."`
	Reason string `help:"Settle the Turn's handoff decision (a person switched the agent's conversation): superseded_by_human_context_switch." enum:",superseded_by_human_context_switch" default:""`
}

func (c *CloseCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.CloseTurn(ctx, api.CloseRequest{TurnID: c.TurnID, Reason: c.Reason})
	})
}

// TaskTarget is a Watch or a Turn: exactly one flag.
type TaskTarget struct {
	Watch string `help:"A Watch (watch_…)." xor:"target" required:"" placeholder:"WATCH_ID"`
	Turn  string `help:"A managed Turn (turn_…)." xor:"target" required:"" placeholder:"TURN_ID"`
}

// RenewCmd is `akk renew --watch ID|--turn ID [--minutes N]`.
type RenewCmd struct {
	DaemonFlags
	TaskTarget
	Minutes int `help:"Minutes from now (0: the daemon's default)."`
}

func (c *RenewCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.Renew(ctx, api.RenewRequest{WatchID: c.Watch, TurnID: c.Turn, Minutes: c.Minutes})
	})
}

// RecoverCmd is `akk recover --watch ID|--turn ID`.
type RecoverCmd struct {
	DaemonFlags
	TaskTarget
}

func (c *RecoverCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.Recover(ctx, api.RecoverRequest{WatchID: c.Watch, TurnID: c.Turn})
	})
}

// RetryCallbackCmd is `akk retry-callback --watch ID|--turn ID [NOTIFICATION_ID]`.
type RetryCallbackCmd struct {
	DaemonFlags
	TaskTarget
	NotificationID string `arg:"" optional:"" help:"The notification (ntf_…); needed when several failed."`
}

func (c *RetryCallbackCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.RetryCallback(ctx, api.RetryCallbackRequest{WatchID: c.Watch, TurnID: c.Turn, NotificationID: c.NotificationID})
	})
}

// TaskCmd is `akk task TURN_ID|WATCH_ID` (or --watch ID|--turn ID): a
// Watch's or Turn's status.
type TaskCmd struct {
	DaemonFlags
	ID    string `arg:"" optional:"" help:"The managed Turn (turn_…) or Watch (watch_…)."`
	Watch string `help:"A Watch (watch_…)." xor:"target" placeholder:"WATCH_ID"`
	Turn  string `help:"A managed Turn (turn_…)." xor:"target" placeholder:"TURN_ID"`
}

// Validate takes exactly one of the id, --watch and --turn.
func (c *TaskCmd) Validate() error {
	n := 0
	for _, s := range []string{c.ID, c.Watch, c.Turn} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("give one turn_… or watch_… id (or --turn, --watch)")
	}
	switch {
	case c.ID == "":
	case strings.HasPrefix(c.ID, "turn_"):
		c.Turn = c.ID
	case strings.HasPrefix(c.ID, "watch_"):
		c.Watch = c.ID
	default:
		return fmt.Errorf("%q is neither a turn_ nor a watch_ id", c.ID)
	}
	return nil
}

func (c *TaskCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	return taskCall(ctx, cl, g, stdout, func(cl *api.Client) (api.Task, error) {
		return cl.TaskStatus(ctx, api.TaskRequest{WatchID: c.Watch, TurnID: c.Turn})
	})
}

func taskCall(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer, fn func(*api.Client) (api.Task, error)) error {
	task, err := fn(cl)
	if err != nil {
		if api.IsCode(err, api.CodeNotFound) || api.IsCode(err, api.CodeConflict) || api.IsCode(err, api.CodeBadRequest) {
			return fmt.Errorf("%w", err)
		}
		return err
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(task)
	}
	printTask(stdout, task)
	return nil
}

func printTask(w io.Writer, t api.Task) {
	id := t.WatchID
	if t.TurnID != "" {
		id = t.TurnID
	}
	fmt.Fprintf(w, "%s  %s %s  terminal %s\n", id, t.TaskKind, t.WatchMode, t.TerminalID)
	fmt.Fprintf(w, "state:     %s %s  confidence %s\n", t.State, t.Reason, t.Confidence)
	if !t.Deadline.IsZero() {
		fmt.Fprintf(w, "deadline:  %s\n", t.Deadline.Format("2006-01-02 15:04:05"))
	}
	for _, x := range t.Warnings {
		fmt.Fprintf(w, "warning:   %s\n", x)
	}
	for _, n := range t.Notifications {
		detail := ""
		if n.Detail != "" && n.State != "accepted" {
			detail = ": " + n.Detail
		}
		fmt.Fprintf(w, "callback:  %s %s %s (%s, %d attempts%s)\n", n.NotificationID, n.Type, n.Event, n.State, n.Attempts, detail)
	}
}
