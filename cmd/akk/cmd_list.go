package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
)

// ListCmd is `akk list`: every pane of the supervised tmux server.
type ListCmd struct {
	DaemonFlags
}

// Run prints the list (DESIGN "Contract details" with --json).
func (c *ListCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer, kctx *kong.Context) error {
	l, err := cl.List(ctx)
	if err != nil {
		return err
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(l)
	}
	if d := l.Degraded; d != nil {
		fmt.Fprintf(kctx.Stderr, "akk: the daemon is DEGRADED (%s): %s\n", d.State, d.Detail)
	}
	return printTable(stdout, l.Terminals)
}

// printTable renders rows for a person.
func printTable(w io.Writer, rows []api.Terminal) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	hosts := slices.ContainsFunc(rows, func(r api.Terminal) bool { return r.Host != "" })
	if hosts {
		fmt.Fprint(tw, "HOST\t")
	}
	fmt.Fprintln(tw, "TERMINAL\tSESSION\tPANE\tAGENT\tSTATE\tACTIVITY\tCOMPOSER\tNATIVE\tCWD")
	for _, r := range rows {
		if hosts {
			fmt.Fprint(tw, r.Host+"\t")
		}
		agent := r.Agent
		if r.Agent == api.AgentNone {
			agent = "(" + r.Command + ")"
		} else if r.Version != "" {
			agent += "@" + r.Version
		}
		if r.Replica {
			agent += " replica"
		}
		if q := r.Qualification; q != nil {
			agent += fmt.Sprintf(" (as %s, %d/%d)", q.Base, q.Passed, q.Judged)
		}
		state := string(r.ScreenState)
		if r.Interaction != nil {
			state += " (" + string(r.Interaction.Kind) + ", " + string(r.Interaction.State) + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.TerminalID, r.Session, r.PaneID, agent,
			state, r.ActivityState, r.Composer, r.NativeIdentityState, shortPath(r.Cwd))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Warnings below the table, each said once, with the panes it concerns.
	var order []string
	panes := map[string][]string{}
	for _, r := range rows {
		for _, wn := range r.Warnings {
			if panes[wn] == nil {
				order = append(order, wn)
			}
			panes[wn] = append(panes[wn], r.PaneID)
		}
	}
	for _, wn := range order {
		fmt.Fprintf(w, "warning (%s): %s\n", strings.Join(panes[wn], " "), wn)
	}
	return nil
}

func shortPath(p string) string {
	if len(p) <= 40 {
		return p
	}
	return "…" + p[len(p)-39:]
}
