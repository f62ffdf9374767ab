package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
)

// A terminal selector is how a person names a terminal on the command
// line. Only the CLI takes selectors: the API and MCP take semantic ids,
// and a selector resolves to one before any request that acts (so the
// offer a `status` by selector made is the one an `approve` by the same
// selector consumes):
//
//	term_…            the id itself, sent as it is
//	only              the one agent terminal
//	claude, codex,    the one terminal of that agent
//	gemini, opencode
//	@REF              the one terminal whose id after term_ starts with REF
//	%3                the terminal in tmux pane %3
//	main:2.1          a tmux target (session:window.pane, or any target
//	                  with a colon), asked of the rows' own tmux server
//
// No match is not_found (exit 8); two or more are a usage error that names
// them ("2 match: term_… (claude %3), term_… (claude %5)").

// resolveInto replaces the selector in *sel by the terminal id it names;
// an empty or term_ value is left as it is (the daemon checks ids).
func resolveInto(ctx context.Context, cl *api.Client, sel *string) error {
	if *sel == "" || strings.HasPrefix(*sel, "term_") {
		return nil
	}
	if err := checkSelector(*sel); err != nil {
		return err // before asking the daemon anything
	}
	l, err := cl.List(ctx)
	if err != nil {
		return err
	}
	id, err := selectTerminal(l.Terminals, *sel, tmuxPaneOf)
	if err != nil {
		return err
	}
	*sel = id
	return nil
}

// paneOfFunc asks the tmux server on socket which pane target names.
type paneOfFunc func(socket, target string) (string, error)

// tmuxPaneOf asks tmux itself, so every target form tmux takes works.
// display-message does not fail on a target that is not there (tmux 3.3a
// falls back to the current pane), so list-panes, which does, checks the
// target first.
func tmuxPaneOf(socket, target string) (string, error) {
	if err := controlmode.Command(context.Background(), socket, "list-panes", "-t", target).Run(); err != nil {
		return "", err
	}
	out, err := controlmode.Command(context.Background(), socket, "display-message", "-p", "-t", target, "#{pane_id}").Output()
	return strings.TrimSpace(string(out)), err
}

// selectTerminal resolves sel over the list's rows.
func selectTerminal(rows []api.Terminal, sel string, paneOf paneOfFunc) (string, error) {
	if err := checkSelector(sel); err != nil {
		return "", err
	}
	var match func(api.Terminal) bool
	switch {
	case strings.HasPrefix(sel, "term_"):
		return sel, nil
	case sel == "only":
		match = func(r api.Terminal) bool { return registry.Known(r.Agent) }
	case registry.Known(sel):
		match = func(r api.Terminal) bool { return r.Agent == sel }
	case strings.HasPrefix(sel, "@"):
		prefix := "term_" + strings.TrimPrefix(sel[1:], "term_")
		match = func(r api.Terminal) bool { return strings.HasPrefix(r.TerminalID, prefix) }
	case strings.HasPrefix(sel, "%"):
		match = func(r api.Terminal) bool { return r.PaneID == sel }
	default: // session:window.pane
		match = tmuxTargetMatch(rows, sel, paneOf)
	}
	var found []api.Terminal
	for _, r := range rows {
		if match(r) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0].TerminalID, nil
	case 0:
		what := "terminal"
		if sel == "only" || registry.Known(sel) {
			what = "agent terminal"
		}
		return "", api.Errorf(api.CodeNotFound, "no %s matches %q (akk list shows them)", what, sel)
	}
	names := make([]string, len(found))
	for i, r := range found {
		names[i] = fmt.Sprintf("%s (%s %s)", r.TerminalID, r.Agent, r.PaneID)
		if r.Host != "" {
			names[i] = fmt.Sprintf("%s (%s %s on %s)", r.TerminalID, r.Agent, r.PaneID, r.Host)
		}
	}
	return "", fmt.Errorf("%w: %q: %d match: %s", errUsage, sel, len(found), strings.Join(names, ", "))
}

// checkSelector refuses a word of no selector form: a usage error.
func checkSelector(sel string) error {
	switch {
	case strings.HasPrefix(sel, "term_"), sel == "only", registry.Known(sel), strings.HasPrefix(sel, "%"), strings.Contains(sel, ":"):
		return nil
	case strings.HasPrefix(sel, "@") && strings.TrimPrefix(sel[1:], "term_") != "":
		return nil
	}
	return fmt.Errorf("%w: %q names no terminal: give term_…, only, an agent (%s), @REF (a prefix of a terminal id), a pane %%N or session:window.pane", errUsage, sel, registry.Names(", "))
}

// tmuxTargetMatch asks each tmux server of this machine's rows which pane
// target names (the rows carry window ids, not the indexes people type).
func tmuxTargetMatch(rows []api.Terminal, target string, paneOf paneOfFunc) func(api.Terminal) bool {
	panes := map[string]string{} // tmux socket -> the pane target names there
	for _, r := range rows {
		if r.Host != "" || r.TmuxSocket == "" {
			continue // another machine's server, or an unnamed one
		}
		if _, asked := panes[r.TmuxSocket]; asked {
			continue
		}
		p, err := paneOf(r.TmuxSocket, target)
		if err != nil {
			p = "" // no such target on that server
		}
		panes[r.TmuxSocket] = p
	}
	return func(r api.Terminal) bool {
		return r.Host == "" && r.TmuxSocket != "" && panes[r.TmuxSocket] != "" && panes[r.TmuxSocket] == r.PaneID
	}
}
