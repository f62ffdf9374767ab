package supervisor

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestLiveListFourAgents: one tmux server running the four agents akk
// knows (Claude Code, Codex, Gemini CLI, OpenCode, each the real pinned
// binary offline against its fake model), and two replicas that claim
// versions akk has no profile for (Gemini CLI 0.62.0, OpenCode 1.19.0).
// The list shows each real agent with its version, its exact profile and
// its idle screen, and each unpinned one generic, with the warning that
// says so and no action that types offered (only watch): zero input.
func TestLiveListFourAgents(t *testing.T) {
	agents := [][2]string{{"claude", "2.1.267"}, {"codex", "0.155.1"}, {"gemini", "0.61.0"}, {"opencode", "1.18.33"}}
	var las []*liveAgent
	for _, a := range agents {
		las = append(las, prepareLive(t, a[0], a[1], rig.Script(a[0], a[1])))
	}
	srv := las[0].srv // one server: the others' commands run in its panes
	panes := map[string][2]string{}
	for i, la := range las {
		pane := newWindow(t, srv, 120, 40, "sh -c "+shq(fmt.Sprintf("cd %s && exec %s", shq(la.work), la.command)))
		panes[pane] = agents[i]
	}
	akk := buildAkk(t)
	dir := t.TempDir()
	for _, u := range [][3]string{{"gemini", "0.61.0", "0.62.0"}, {"opencode", "1.18.33", "1.19.0"}} {
		rec := loadCorpus(t, u[0], u[1], "idle")
		rec.Header.Akk.Version = u[2]
		appendEvents(rec, sentinel) // it waits there, its idle screen up
		file := saveRecording(t, dir, u[0]+"-"+u[2]+".cast", rec)
		pane := newWindow(t, srv, rec.Header.Width, rec.Header.Height, fmt.Sprintf(`sh -c 'exec "%s" replica "%s"'`, akk, file))
		panes[pane] = [2]string{u[0], u[2]}
	}
	d := startDaemon(t, srv, daemonOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var l api.ListResponse
	tmuxtest.Await(t, 90*time.Second, func() string {
		var err error
		if l, err = d.cl.List(ctx); err != nil {
			return err.Error()
		}
		return listMissing(l, panes)
	})
	// What a person sees: akk list, the CLI, against the same daemon.
	out, err := exec.Command(akk, "list", "--socket", d.sock).CombinedOutput()
	if err != nil {
		t.Fatalf("akk list: %v\n%s", err, out)
	}
	for _, a := range panes {
		if !strings.Contains(string(out), a[0]+"@"+a[1]) {
			t.Errorf("akk list does not show %s@%s:\n%s", a[0], a[1], out)
		}
	}
	t.Logf("akk list:\n%s", out)
}

// listMissing says what the list does not show yet of the expected panes
// (agent, version): pinned ones exact and idle, the others generic with
// the warning and no action.
func listMissing(l api.ListResponse, panes map[string][2]string) string {
	for pane, a := range panes {
		r, ok := rowOf(l, pane)
		pinned := !strings.Contains("0.62.0 1.19.0", a[1])
		switch {
		case !ok:
			return pane + ": no row"
		case r.Agent != a[0] || r.Version != a[1]:
			return fmt.Sprintf("%s: %s@%s, want %s@%s", pane, r.Agent, r.Version, a[0], a[1])
		case pinned && (r.Profile != "exact" || r.ScreenState != contract.ScreenIdle):
			return fmt.Sprintf("%s %s: %s profile, %s", pane, a[0], r.Profile, r.ScreenState)
		case !pinned && r.Profile != "generic":
			return fmt.Sprintf("%s %s@%s: %s profile, want generic", pane, a[0], a[1], r.Profile)
		case !pinned && !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "has no exact profile") }):
			return fmt.Sprintf("%s %s@%s: warnings %q", pane, a[0], a[1], r.Warnings)
		case !pinned && slices.ContainsFunc(slices.Collect(maps.Keys(r.AvailableActions)), func(k string) bool { return k != "watch" }):
			// Watching is observing; nothing that types is offered.
			return fmt.Sprintf("%s %s@%s: offers %v", pane, a[0], a[1], slices.Collect(maps.Keys(r.AvailableActions)))
		}
	}
	return ""
}
