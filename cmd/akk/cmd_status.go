package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// StatusCmd is `akk status TERMINAL_ID`.
type StatusCmd struct {
	DaemonFlags
	TerminalID string `arg:"" help:"The terminal: ${terminal}."`
}

// Run prints one terminal's state, its evidence and the prompt region: on a
// terminal with its styles, in JSON as text (never a draft's text).
func (c *StatusCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer, kctx *kong.Context) error {
	// Styled renderings (which may show a draft) only for a person's own
	// terminal, never for --json.
	render := !g.JSON && isTTY(stdout)
	if err := resolveInto(ctx, cl, &c.TerminalID); err != nil {
		return err
	}
	st, err := cl.Status(ctx, api.StatusRequest{TerminalID: c.TerminalID, Render: render})
	if err != nil {
		if api.IsCode(err, api.CodeNotFound) {
			return fmt.Errorf("%w", err)
		}
		return err
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(st)
	}
	if d := st.Degraded; d != nil {
		fmt.Fprintf(kctx.Stderr, "akk: the daemon is DEGRADED (%s): %s; every action is refused\n", d.State, d.Detail)
	}
	t := st.Terminal
	fmt.Fprintf(stdout, "%s  %s pane %s (window %s)  %s\n", t.TerminalID, t.Session, t.PaneID, t.Window, t.Cwd)
	agent := t.Agent
	if t.Version != "" {
		agent += "@" + t.Version
	}
	if t.Replica {
		agent += " (replica)"
	}
	fmt.Fprintf(stdout, "agent:     %s  profile %s  pid %d\n", agent, t.Profile, t.PID)
	if q := t.Qualification; q != nil {
		fmt.Fprintf(stdout, "qualified: as %s on %d/%d surfaces (akk qualify)\n", q.Base, q.Passed, q.Judged)
	}
	fmt.Fprintf(stdout, "screen:    %s  composer %s  activity %s\n", t.ScreenState, t.Composer, t.ActivityState)
	fmt.Fprintf(stdout, "native:    %s  durable %s\n", t.NativeIdentityState, t.DurableActivityState)
	if b := st.Evidence.Binding; b != nil {
		fmt.Fprintf(stdout, "binding:   generation %d %s %s\n", b.Generation, b.SessionID, b.Path)
	}
	for _, p := range st.Evidence.Process {
		fmt.Fprintf(stdout, "process:   %d %s (%s)\n", p.PID, p.Comm, p.Exe)
	}
	fmt.Fprintf(stdout, "evidence:  %s; recognizer %s\n", string(st.Evidence.Identification), st.Evidence.Recognizer)
	for _, w := range t.Warnings {
		fmt.Fprintf(stdout, "warning:   %s\n", w)
	}
	if b := t.Blocked; b != nil {
		line := b.Reason
		if b.HTTPStatus != 0 {
			line += fmt.Sprintf(" (HTTP %d)", b.HTTPStatus)
		}
		switch {
		case !b.ResetsAt.IsZero():
			line += fmt.Sprintf("; resets %s (shown %q)", b.ResetsAt.Local().Format("Mon 15:04"), b.ResetsAtShown)
		case b.ResetsAtShown != "":
			line += fmt.Sprintf("; resets %q", b.ResetsAtShown)
		}
		fmt.Fprintf(stdout, "blocked:   %s; akk sends nothing here: resume with a send after it clears\n", line)
	}
	if i := t.Interaction; i != nil {
		fmt.Fprintf(stdout, "interaction: %s %s %s %v\n", i.Kind, i.State, i.InteractionID, i.Reasons)
		if i.Tool != "" {
			fmt.Fprintf(stdout, "  tool: %s\n", i.Tool) // what a permission asks for
		}
		for _, q := range i.Questions {
			fmt.Fprintf(stdout, "  question %s (%s): %s\n", q.QuestionID, q.ResponseKind, q.Prompt)
			for _, o := range q.Options {
				extra := ""
				if o.FreeText {
					extra = " [text]"
				}
				fmt.Fprintf(stdout, "    option %s  %s%s\n", o.OptionID, o.Label, extra)
			}
		}
		if len(i.Decisions) > 0 {
			fmt.Fprintf(stdout, "  decisions: %s\n", contract.Join(i.Decisions, ", "))
		}
	}
	for name, a := range t.AvailableActions {
		args, _ := json.Marshal(a.Arguments)
		fmt.Fprintf(stdout, "action:    %s %s\n", name, args)
	}
	if st.OfferExpiresAt != nil {
		fmt.Fprintf(stdout, "offer:     answer before %s (then run status again)\n", st.OfferExpiresAt.Local().Format("15:04:05"))
	}
	if p := st.Prompt; p != nil {
		fmt.Fprintf(stdout, "prompt (rows %d-%d):\n", p.Top, p.Bottom)
		if p.ANSI != "" {
			fmt.Fprint(stdout, p.ANSI, "\x1b[0m\n")
		} else {
			fmt.Fprintln(stdout, p.Text)
		}
	}
	return nil
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
