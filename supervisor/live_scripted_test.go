package supervisor

import (
	"context"
	"fmt"
	"testing"
	"time"

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
		model = rig.CodexModel(version)
	}
	la := prepareLiveModel(t, agent, version, model, rig.Script(agent, version))
	la.openPane(t)
	return la, la.log, la.withRoots(daemonOpts{})
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
