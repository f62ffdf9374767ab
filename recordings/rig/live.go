package rig

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Live is a real pinned agent ready to run outside the rig's own
// recorder: its isolated world, a fake model serving script, and the
// shell command that starts it in its project directory. Tests of other
// packages (the popup's live screenshots) run it in their own tmux.
type Live struct {
	Home *Home
	// Command is a shell command line: cd to the project, then exec the
	// agent under env -i with the world's environment.
	Command string
	model   *fakemodel.Server
}

// Close stops the fake model.
func (l *Live) Close() { l.model.Close() }

// PrepareLive sets up agent@version (installed in the cache: see Lookup)
// under root with the same configuration as a recording: Claude Code in
// its manual permission mode, Codex on-request with a read-only sandbox.
func PrepareLive(root, agent, version string, script fakemodel.Script, lg *slog.Logger) (*Live, error) {
	in, err := Lookup(agent, version)
	if err != nil {
		return nil, err
	}
	h, err := newHome(root)
	if err != nil {
		return nil, err
	}
	sc := &Scenario{}
	l := &Live{Home: h}
	var env []string
	log := fakemodel.NewLog(io.Discard)
	switch agent {
	case "claude":
		if l.model, err = fakemodel.Anthropic(script, log, lg); err != nil {
			return nil, err
		}
		env, err = claudeEnv(h, l.model.URL()), writeClaudeConfig(h, version, false)
	case "codex":
		if l.model, err = fakemodel.Responses(script, log, lg); err != nil {
			return nil, err
		}
		env, err = codexEnv(h), writeCodexConfig(h, l.model.URL(), sc.model(version))
	default:
		return nil, fmt.Errorf("rig: unknown agent %q", agent)
	}
	if err != nil {
		l.model.Close()
		return nil, err
	}
	argv := append(append(append([]string{"env", "-i"}, env...), in.Bin), sc.args(in)...)
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	l.Command = "cd " + shellQuote(h.Work) + " && exec " + strings.Join(q, " ")
	return l, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
