package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agent-knock-knock/akk/api"
)

// ModelOptionsCmd is `akk model-options TERMINAL_ID`: the agent's own
// model menu read (every model, its efforts) and closed again.
type ModelOptionsCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose agent's models to list: ${terminal}."`
}

// Run lists the catalog.
func (c *ModelOptionsCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.ModelOptions(ctx, api.ModelOptionsRequest{TerminalID: c.TerminalID})
	if err == nil && !g.JSON && res.Catalog != nil {
		cat := res.Catalog
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tEFFORTS\t")
		for _, m := range cat.Models {
			mark := ""
			if m.Current {
				mark = " (current)"
			}
			efforts := make([]string, len(m.Efforts))
			for i, e := range m.Efforts {
				efforts[i] = e
				if e == m.DefaultEffort {
					efforts[i] += "*"
				}
			}
			fmt.Fprintf(tw, "%s%s\t%s\t\n", m.Model, mark, cmp(strings.Join(efforts, ", "), "-"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "in use: %s %s · set-model changes %s · until %s (* default effort)\n", cat.Current.Model,
			cat.Current.ReasoningEffort, cat.Scope, cat.ExpiresAt.Local().Format("15:04:05"))
		for _, w := range cat.Warnings {
			fmt.Fprintln(stdout, "note:", w)
		}
	}
	return printResult(g, stdout, res, err)
}

// SetModelCmd is `akk set-model TERMINAL_ID MODEL [EFFORT]`: one tuple
// of the catalog model-options just listed, set through the agent's menu.
type SetModelCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose agent's model to set: ${terminal}."`
	Model      string `arg:"" help:"A model exactly as model-options listed it (quote names with spaces)."`
	Effort     string `arg:"" optional:"" help:"One of its efforts as listed (none for a model without efforts)."`
}

// Run sets the model.
func (c *SetModelCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.SetModel(ctx, api.SetModelRequest{TerminalID: c.TerminalID, Model: c.Model, ReasoningEffort: c.Effort})
	if err == nil && !g.JSON && res.ModelSet != nil {
		fmt.Fprintf(stdout, "%s %s (%s): %s\n", res.ModelSet.Model, res.ModelSet.ReasoningEffort, res.ModelSet.Scope, res.ModelSet.Notice)
	}
	if err == nil && res.Reason != "" && strings.HasPrefix(res.Reason, api.ReasonNoCatalog) {
		fmt.Fprintf(stdout, "run `akk model-options %s` first\n", c.TerminalID)
	}
	return printResult(g, stdout, res, err)
}

// RepairModelControlCmd is `akk repair-model-control TERMINAL_ID`:
// Codex's cleanup of a failed model change (Esc or C-u, never Enter).
type RepairModelControlCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal to clean up: ${terminal}."`
}

// Run repairs.
func (c *RepairModelControlCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.RepairModelControl(ctx, api.RepairModelControlRequest{TerminalID: c.TerminalID})
	return printResult(g, stdout, res, err)
}
