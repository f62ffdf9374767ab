package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// The native thread transitions (seed 003): a new conversation, or an
// earlier one resumed, in a terminal's agent through its own command; and
// the detaching of a binding a person left stale. They print the daemon's
// ActionResult and exit with its outcome's code, as the other mutations.

// NewThreadCmd is `akk new-thread TERMINAL_ID`.
type NewThreadCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose agent starts a new conversation (${thread_agents}): ${terminal}."`
}

// Run starts a new conversation.
func (c *NewThreadCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.NewThread(ctx, api.NewThreadRequest{TerminalID: c.TerminalID})
	return printThread(g, stdout, res, err)
}

// ResumeThreadCmd is `akk resume-thread TERMINAL_ID [THREAD] [--list]`.
type ResumeThreadCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose agent resumes an earlier conversation: ${terminal}."`
	Thread     string `arg:"" optional:"" help:"The conversation: its number or short ref from the last --list (five minutes), or its full id."`
	List       bool   `help:"List the conversations the agent may resume (newest first, at most 20), numbered."`
}

// Run lists the candidates or resumes one.
func (c *ResumeThreadCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if c.List == (c.Thread != "") {
		return fmt.Errorf("%w: give --list, or the conversation to resume (a number or short ref from --list, or its full id)", errUsage)
	}
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	if c.List {
		out, err := cl.ThreadCandidates(ctx, api.ThreadCandidatesRequest{TerminalID: c.TerminalID})
		if err != nil {
			return err
		}
		return printCandidates(g, stdout, out)
	}
	req := api.ResumeThreadRequest{TerminalID: c.TerminalID, Ref: c.Thread}
	if len(c.Thread) == 36 {
		req = api.ResumeThreadRequest{TerminalID: c.TerminalID, NativeThreadID: c.Thread}
	}
	res, err := cl.ResumeThread(ctx, req)
	return printThread(g, stdout, res, err)
}

// ReconcileBindingCmd is `akk reconcile-binding TERMINAL_ID SESSION_ID`.
type ReconcileBindingCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal: ${terminal}."`
	SessionID  string `arg:"" help:"The AKK session (ses_…) status names as conflicting."`
}

// Run detaches a stale binding.
func (c *ReconcileBindingCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.ReconcileBinding(ctx, api.ReconcileBindingRequest{TerminalID: c.TerminalID, ConflictingSessionID: c.SessionID})
	return printThread(g, stdout, res, err)
}

// printThread prints a transition's result: the outcome line, then the
// conversations it left and entered.
func printThread(g *Globals, stdout io.Writer, res api.ActionResult, err error) error {
	if err == nil && !g.JSON && res.ThreadFacts != nil && res.Outcome == api.OutcomeAccepted {
		f := res.ThreadFacts
		next := f.NativeThreadID
		if next == "" {
			next = "(not written yet: the first prompt writes it)"
		}
		fmt.Fprintf(stdout, "left %s\nnow  %s  binding generation %d\n", orNone(f.PreviousNativeThreadID), next, f.BindingGeneration)
		if res.SessionID != "" {
			fmt.Fprintf(stdout, "session %s\n", res.SessionID)
		}
	}
	return printResult(g, stdout, res, err)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func printCandidates(g *Globals, stdout io.Writer, out api.ThreadCandidates) error {
	if g.JSON {
		return json.NewEncoder(stdout).Encode(out)
	}
	if len(out.Candidates) == 0 {
		fmt.Fprintln(stdout, "no conversation to resume in this workspace")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tREF\tUPDATED\tTITLE")
	for _, c := range out.Candidates {
		title := c.Title
		if c.Previous {
			title += "  (previous)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c.Number, c.ShortRef, c.UpdatedAt.Local().Format(time.DateTime), title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "resume one with: akk resume-thread %s <# or REF> (until %s)\n", out.TerminalID, out.ExpiresAt.Local().Format(time.TimeOnly))
	return nil
}
