package supervisor

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// scriptedPane starts the real agent in a 120x40 window against the fake
// model with the rig's script for it (Codex 0.171.0 with the model it
// does not nudge about), and the daemon options that find its files.
func scriptedPane(t *testing.T, agent, version string) (*liveAgent, *fakemodel.Log, daemonOpts) {
	model := ""
	if agent == "codex" {
		model = codexrig.Model(version)
	}
	la := prepareLiveModel(t, agent, version, model, rig.Script(agent, version))
	la.openPane(t)
	return la, la.log, la.withRoots(daemonOpts{})
}

// scriptedOffering starts agent@version's scripted pane and the
// controller over it (its calls' context ends after within), has a first
// task settle, and returns the row, which must advertise action.
func scriptedOffering(t *testing.T, agent, version, action string, within time.Duration) (*liveDispatch, api.Terminal) {
	t.Helper()
	la, _, roots := scriptedPane(t, agent, version)
	ld := liveDispatchOn(t, la, agent, roots, within)
	ld.awaitSettled(ld.send("hello"))
	ld.idle()
	row := ld.row()
	if _, ok := row.AvailableActions[action]; !ok {
		t.Fatalf("%s not advertised: %+v", action, row.AvailableActions)
	}
	return ld, row
}

// liveCrash is the start of a live crash run on a scripted pane: the
// agent, the daemon options that find its files, the crash child armed at
// the run's point, the run's context and the pane's row.
type liveCrash struct {
	la    *liveAgent
	roots daemonOpts
	c     *crashChild
	ctx   context.Context
	row   api.Terminal
}

// startLiveCrash starts agent@version's scripted pane and a crash child
// armed at point beside it, and once the child shows the agent idle types
// a person's first prompt. The run's context ends after 3 minutes.
func startLiveCrash(t *testing.T, agent, version, point string) liveCrash {
	t.Helper()
	la, _, roots := scriptedPane(t, agent, version)
	c := startCrashChild(t, la.srv, point, "AKK_CRASH_CLAUDE_PROJECTS="+roots.claudeProjects, "AKK_CRASH_CODEX_SESSIONS="+roots.codexSessions)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	row := c.awaitRow(t, ctx, la.pane, contract.ScreenIdle)
	personFirstPrompt(la, agent)
	return liveCrash{la: la, roots: roots, c: c, ctx: ctx, row: row}
}

// personFirstPrompt types the first prompt as a person does: the text,
// then Enter (on Codex past its paste-burst window, where a fast Enter is
// a newline).
func personFirstPrompt(la *liveAgent, agent string) {
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", liveFirst)
	if agent == "codex" {
		time.Sleep(200 * time.Millisecond)
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
}

// awaitOffered waits until the child daemon's status of term advertises
// action over a resolved binding.
func (c *crashChild) awaitOffered(t *testing.T, ctx context.Context, term, action string) {
	t.Helper()
	tmuxtest.Await(t, 90*time.Second, func() string {
		st, err := c.cl.Status(ctx, api.StatusRequest{TerminalID: term})
		if err != nil {
			return err.Error() + "\n" + c.out.String()
		}
		if _, ok := st.Terminal.AvailableActions[action]; !ok || st.Evidence.Binding == nil || st.Evidence.Binding.State != contract.IdentityResolved {
			return fmt.Sprintf("%s not offered yet: %s/%s binding %+v", action, st.Terminal.ScreenState, st.Terminal.Composer, st.Evidence.Binding)
		}
		return ""
	})
}
