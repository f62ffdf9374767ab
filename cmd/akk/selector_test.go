package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// TestSelectTerminal resolves every selector form over one fixed list: a
// shell, two Claude Codes, one Codex, and a Gemini on another machine.
func TestSelectTerminal(t *testing.T) {
	const sock = "/tmp/tmux-1000/default"
	rows := []api.Terminal{
		{TerminalID: "term_shellaaaa", Agent: api.AgentNone, PaneID: "%0", Session: "main", Window: "@0", TmuxSocket: sock},
		{TerminalID: "term_claudeone", Agent: "claude", PaneID: "%3", Session: "main", Window: "@2", TmuxSocket: sock},
		{TerminalID: "term_claudetwo", Agent: "claude", PaneID: "%5", Session: "work", Window: "@4", TmuxSocket: sock},
		{TerminalID: "term_codexaaaa", Agent: "codex", PaneID: "%7", Session: "work", Window: "@5", TmuxSocket: sock},
		{TerminalID: "term_geminiaaa", Agent: "gemini", PaneID: "%3", Session: "main", Window: "@1", TmuxSocket: sock, Host: "box"},
	}
	// The tmux server of the rows knows these targets.
	paneOf := func(socket, target string) (string, error) {
		if socket != sock {
			return "", fmt.Errorf("no server on %s", socket)
		}
		switch target {
		case "main:2.1":
			return "%3", nil
		case "work:4":
			return "%7", nil
		}
		return "", errors.New("can't find window")
	}
	only := []api.Terminal{rows[0], rows[3]}
	for _, tc := range []struct {
		sel  string
		rows []api.Terminal
		want string // the id, or "error: " and a part of the message
		code int    // the exit code of an error
	}{
		{"term_anything", rows, "term_anything", 0},
		{"codex", rows, "term_codexaaaa", 0},
		{"gemini", rows, "term_geminiaaa", 0},
		{"opencode", rows, "error: no agent terminal matches", exitNotFound},
		{"claude", rows, "error: 2 match: term_claudeone (claude %3), term_claudetwo (claude %5)", exitUsage},
		{"only", rows, "error: 4 match:", exitUsage},
		{"only", only, "term_codexaaaa", 0},
		{"only", rows[:1], "error: no agent terminal matches", exitNotFound},
		{"@claudet", rows, "term_claudetwo", 0},
		{"@term_claudet", rows, "term_claudetwo", 0},
		{"@claude", rows, "error: 2 match:", exitUsage},
		{"@zzz", rows, "error: no terminal matches", exitNotFound},
		{"@", rows, "error: names no terminal", exitUsage},
		{"%5", rows, "term_claudetwo", 0},
		{"%3", rows, "error: 2 match: term_claudeone (claude %3), term_geminiaaa (gemini %3 on box)", exitUsage},
		{"%9", rows, "error: no terminal matches", exitNotFound},
		{"main:2.1", rows, "term_claudeone", 0},
		{"work:4", rows, "term_codexaaaa", 0},
		{"nope:1.1", rows, "error: no terminal matches", exitNotFound},
		{"main", rows, "error: names no terminal", exitUsage},
	} {
		t.Run(tc.sel, func(t *testing.T) {
			got, err := selectTerminal(tc.rows, tc.sel, paneOf)
			if err != nil {
				got = "error: " + err.Error()
				if code := exitCode(err, &strings.Builder{}); code != tc.code {
					t.Errorf("exit %d, want %d (%v)", code, tc.code, err)
				}
			}
			if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && strings.Contains(got, strings.TrimPrefix(tc.want, "error: "))) {
				t.Errorf("%q: got %q, want %q", tc.sel, got, tc.want)
			}
		})
	}
}
