package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// Foreground identification of an ambiguous Codex pane (api/identify.go):
// the agent's own /status read once, alone or followed by one managed
// send under the same terminal lock. Both print the daemon's ActionResult
// (--json: as it is) and exit with its outcome's code.

// IdentifyForegroundCmd is `akk identify-foreground TERMINAL_ID`.
type IdentifyForegroundCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose binding is ambiguous (${identify_agents}): ${terminal}."`
}

// Run probes the foreground thread.
func (c *IdentifyForegroundCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.IdentifyForeground(ctx, api.IdentifyForegroundRequest{TerminalID: c.TerminalID})
	return printIdentified(g, stdout, res, err)
}

// IdentifyAndSendCmd is `akk identify-and-send TERMINAL_ID REQUEST`.
type IdentifyAndSendCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose binding is ambiguous (${identify_agents}): ${terminal}."`
	Request    string `arg:"" help:"The task text; - reads stdin. A first line starting with / is refused."`
}

// LogValue is the request's: the terminal and the task's length.
func (c IdentifyAndSendCmd) LogValue() slog.Value {
	return api.IdentifyAndSendRequest{TerminalID: c.TerminalID, Request: c.Request}.LogValue()
}

// String is LogValue as text.
func (c IdentifyAndSendCmd) String() string { return c.LogValue().String() }

// Run probes the foreground thread, then sends the task there.
func (c *IdentifyAndSendCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	text, err := readText(c.Request)
	if err != nil {
		return err
	}
	res, err := cl.IdentifyAndSend(ctx, api.IdentifyAndSendRequest{TerminalID: c.TerminalID, Request: text})
	return printIdentified(g, stdout, res, err)
}

// printIdentified prints the proof above the result's line.
func printIdentified(g *Globals, stdout io.Writer, res api.ActionResult, err error) error {
	if p := res.Foreground; err == nil && !g.JSON && p != nil {
		where := "none of the open rollouts holds it"
		if p.Candidate {
			where = "held open in " + p.CandidatePath
		}
		fmt.Fprintf(stdout, "foreground %s (%s; %d rollouts open)\n", p.NativeThreadID, where, p.Candidates)
		fmt.Fprintf(stdout, "  %s %s in %s, observed %s, a diagnostic until %s: it authorizes nothing\n", p.Agent, p.Version, p.Cwd,
			p.ObservedAt.Format(time.TimeOnly), p.ExpiresAt.Format(time.TimeOnly))
	}
	return printResult(g, stdout, res, err)
}
