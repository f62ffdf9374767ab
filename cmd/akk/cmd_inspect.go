package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/agent-knock-knock/akk/api"
)

// NativeInspectCmd is `akk native-inspect TERMINAL_ID`: the agent's own
// status panel, read through its /status and dismissed.
type NativeInspectCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal whose agent's own status to read: ${terminal}."`
}

// Run reads the status.
func (c *NativeInspectCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer) error {
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	res, err := cl.NativeInspect(ctx, api.NativeInspectRequest{TerminalID: c.TerminalID, Inspection: api.InspectionStatus})
	if err == nil && !g.JSON && res.Status != nil {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, f := range res.Status.Fields {
			v := f.Value
			if f.Redacted {
				v = "(redacted)"
			}
			fmt.Fprintf(tw, "%s\t%s\n", f.Name, v)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return printResult(g, stdout, res, err)
}
