package supervisor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestLiveIdentifyCrash kills the daemon (the fault hook's SIGKILL) in
// identify_and_send on the real Codex, its binding made ambiguous as a
// person does (a prompt, /new, a prompt): after the probe's Enter (before
// the card is read and before any of the task), and after the task's
// Enter (before its acceptance is read). Restarted on the same store, the
// daemon settles the open reservation uncertain (and its Turn: never
// retried) and types nothing: the pane shows the /status probe once, the
// fake model gets the request at most once, and only where its Enter went
// before the kill. It runs in the crash tier (-tags akkfault), with the
// live tier's agents.
func TestLiveIdentifyCrash(t *testing.T) {
	requireFaultHook(t)
	for _, version := range []string{"0.155.1", "0.171.0"} {
		t.Run(version, func(t *testing.T) {
			for _, point := range dispatch.IdentifyFaultPoints {
				t.Run(point, func(t *testing.T) { identifyCrashRun(t, version, point) })
			}
		})
	}
}

func identifyCrashRun(t *testing.T, version, point string) {
	la := prepareLiveModel(t, "codex", version, codexrig.Model(version), identifyLiveScript(version))
	la.openPane(t)
	roots := la.withRoots(daemonOpts{})
	c := startCrashChild(t, la.srv, point, "AKK_CRASH_CLAUDE_PROJECTS="+roots.claudeProjects, "AKK_CRASH_CODEX_SESSIONS="+roots.codexSessions)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A person's first conversation, then /new and a second one: both
	// rollouts open, the binding ambiguous (the armed daemon sent nothing).
	row := c.awaitRow(t, ctx, la.pane, contract.ScreenIdle)
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", liveFirst)
	time.Sleep(200 * time.Millisecond) // a person's pace: Codex's paste-burst window takes a fast Enter for a newline
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	tmuxtest.Await(t, 60*time.Second, func() string {
		if !turnEnded(roots.codexSessions, liveFirst) {
			return "the person's first turn has not ended in its rollout"
		}
		return ""
	})
	personNewThread(t, la, c.cl, row.TerminalID)
	if _, err := c.cl.IdentifyAndSend(ctx, api.IdentifyAndSendRequest{TerminalID: row.TerminalID, Request: liveIdentified}); err == nil {
		t.Fatalf("identify_and_send returned: the fault hook did not fire")
	}
	open := identifyKilled(t, c, point)
	d, final := c.restartedUncertain(t, la.srv, "identify_and_send", []store.Reservation{open}, roots)
	defer d.stop()
	sent := point == dispatch.FaultIdentifyTaskEnter
	if sent {
		tr, err := d.st.Turn(open.TurnID)
		if err != nil || tr.State != store.TurnUncertain {
			t.Fatalf("after the restart the Turn is %+v (%v), want uncertain", tr, err)
		}
		task, err := d.cl.TaskStatus(ctx, api.TaskRequest{TurnID: open.TurnID})
		if err != nil || task.State == "running" {
			t.Fatalf("the Turn's task after the restart: %+v %v", task, err)
		}
		// The Enter went before the kill: the agent takes the request,
		// once, and its turn ends in its rollout.
		tmuxtest.Await(t, 60*time.Second, func() string {
			if !turnEnded(roots.codexSessions, liveIdentified) {
				return "the request's turn has not ended in its rollout"
			}
			return ""
		})
	}
	awaitRowFor(t, ctx, d, la.pane, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty || r.Profile != "exact" {
			return fmt.Sprintf("idle and empty: %s/%s", r.ScreenState, r.Composer)
		}
		return ""
	})
	// Nothing typed again: the probe's echo once, the request at most once
	// (where its Enter went), in the pane's history and at the model.
	screen := string(la.srv.MustRun("capture-pane", "-p", "-S", "-", "-t", la.pane))
	echoes, prompts := 0, strings.Count(screen, "› "+liveIdentified)
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == "/status" {
			echoes++
		}
	}
	got := 0
	for _, r := range la.log.Requests() {
		if r.Kind == "main" && strings.Contains(r.Prompt, "after-identify") {
			got++
		}
	}
	want := map[bool]int{true: 1, false: 0}[sent]
	if echoes != 1 || prompts != want || got != want {
		t.Fatalf("after the restart: /status echoed %d times, the request shown %d and received %d times (want 1, %d, %d):\n%s",
			echoes, prompts, got, want, want, screen)
	}
	t.Logf("codex %s at %s: %s reservation %s after the restart; the request reached the model %d times", version, point, open.Op, final, got)
}

// identifyKilled waits for the child to die at point and checks the
// store as the kill left it: the probe's private reservation open at its
// Enter; or, at the task's Enter, the probe's settled and the send's open
// with its Turn. It returns the open one.
func identifyKilled(t *testing.T, c *crashChild, point string) store.Reservation {
	t.Helper()
	rs := c.atKill(t, "identify_and_send", point)
	var probe, send []store.Reservation
	for _, r := range rs {
		switch r.Op {
		case api.OpIdentifyForeground:
			probe = append(probe, r)
		case api.OpIdentifyAndSend:
			send = append(send, r)
		}
	}
	switch {
	case len(probe) != 1 || !probe[0].Private:
		t.Fatalf("at kill time the probe's reservations are %+v", probe)
	case point == dispatch.FaultIdentifyProbeEnter && (probe[0].Stage != store.StageInputSent || len(send) != 0):
		t.Fatalf("killed after the probe's Enter: probe %+v, send %+v", probe, send)
	case point == dispatch.FaultIdentifyProbeEnter:
		return probe[0]
	case probe[0].Stage != store.StageDone || len(send) != 1 || send[0].Stage != store.StageInputSent || send[0].TurnID == "":
		t.Fatalf("killed after the task's Enter: probe %+v, send %+v", probe, send)
	}
	return send[0]
}
