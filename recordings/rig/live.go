package rig

import (
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
func (l *Live) Close() {
	if l.model != nil {
		l.model.Close()
	}
}

// PrepareLive sets up agent@version (installed in the cache: see Lookup)
// under root with the same configuration as a recording (the agent's
// World for a scenario that changes nothing).
func PrepareLive(root, agent, version string, script fakemodel.Script, lg *slog.Logger) (*Live, error) {
	in, err := Lookup(agent, version)
	if err != nil {
		return nil, err
	}
	h, err := NewHome(root)
	if err != nil {
		return nil, err
	}
	a := in.Agent
	l := &Live{Home: h}
	url := ""
	if a.Serve != nil {
		if l.model, err = a.Serve(script, fakemodel.NewLog(io.Discard), lg); err != nil {
			return nil, err
		}
		url = l.model.URL()
	}
	env, err := a.World(h, &Scenario{}, version, url)
	if err != nil {
		l.model.Close()
		return nil, err
	}
	argv := append(append(append([]string{"env", "-i"}, env...), in.Bin), a.args(in)...)
	q := make([]string, len(argv))
	for i, arg := range argv {
		q[i] = ShellQuote(arg)
	}
	l.Command = "cd " + ShellQuote(h.Work) + " && exec " + strings.Join(q, " ")
	return l, nil
}

// ShellQuote quotes s for sh.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
