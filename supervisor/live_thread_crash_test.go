package supervisor

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// TestLiveThreadCrash kills the daemon (the fault hook's SIGKILL) at each
// point of a new_thread transaction on the real agents: before the
// reservation, after it, after the first input (the command typed, no
// Enter yet), before the receipt (the conversation moved). Restarted on
// the same store, the daemon settles an open reservation uncertain and
// sends nothing: the pane shows the command typed at most once, and where
// it was typed without its Enter the composer keeps it and a fresh
// new_thread is refused with zero input (composer_not_empty). Only with
// nothing reserved does a fresh new_thread go through. It runs in the
// crash tier (-tags akkfault), with the live tier's agents.
func TestLiveThreadCrash(t *testing.T) {
	eachAgentCrash(t, dispatch.FaultPoints, threadCrashRun)
}

// TestLiveResumeCrash is TestLiveThreadCrash for resume_thread: an
// unarmed daemon makes two conversations (a send, new_thread, a send),
// then the armed one resumes the first and dies at the point. Restarted,
// the reservation is uncertain and nothing is sent again; where the
// command was typed without its Enter the composer keeps it (a fresh
// resume is refused, composer_not_empty), and where the conversation
// moved the first one is the terminal's own again (a fresh resume of it
// is refused, not_resumable).
func TestLiveResumeCrash(t *testing.T) {
	eachAgentCrash(t, dispatch.FaultPoints, resumeCrashRun)
}

func resumeCrashRun(t *testing.T, agent, version, point string) {
	la := startLive(t, agent, version, threadLiveScript(agent, version))
	roots := la.withRoots(daemonOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Two conversations, by an unarmed daemon on the store the armed one
	// takes over.
	prep := roots
	prep.storeDir = filepath.Join(t.TempDir(), "store")
	d0 := startDaemon(t, la.srv, prep)
	ld := &liveDispatch{t: t, la: la, d: d0, agent: agent, ctx: ctx, lat: &latencies{}}
	ld.idle()
	ld.awaitSettled(ld.send(liveFirst))
	ld.idle()
	first := ld.binding().SessionID
	ld.accept(mustAction(t)(d0.cl.NewThread(ctx, api.NewThreadRequest{TerminalID: ld.row().TerminalID})))
	ld.idle()
	ld.awaitSettled(ld.send(liveSecond))
	ld.idle()
	d0.stop()

	c := startCrashChild(t, la.srv, point, "AKK_CRASH_CLAUDE_PROJECTS="+roots.claudeProjects, "AKK_CRASH_CODEX_SESSIONS="+roots.codexSessions,
		"AKK_CRASH_DISPATCH_STORE="+prep.storeDir)
	row := c.awaitRow(t, ctx, la.pane, contract.ScreenIdle)
	tmuxtest.Await(t, 30*time.Second, func() string {
		st, err := c.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID})
		if err != nil {
			return err.Error() + "\n" + c.out.String()
		}
		if _, ok := st.Terminal.AvailableActions["resume_thread"]; !ok {
			return fmt.Sprintf("resume_thread not offered yet: %s/%s binding %+v", st.Terminal.ScreenState, st.Terminal.Composer, st.Evidence.Binding)
		}
		return ""
	})
	if _, err := c.cl.ResumeThread(ctx, api.ResumeThreadRequest{TerminalID: row.TerminalID, NativeThreadID: first}); err == nil {
		t.Fatalf("resume_thread returned: the fault hook did not fire")
	}
	rs := c.killedOp(t, "resume_thread", point, api.OpResumeThread)
	d, final := c.restartedUncertain(t, la.srv, "resume_thread", rs, roots)
	defer d.stop()
	typed := point == dispatch.FaultAfterInput
	moved := point == dispatch.FaultBeforeReceipt
	l := awaitIdleAfterKill(t, ctx, d, la.pane, typed, false)
	if moved {
		tmuxtest.Await(t, 20*time.Second, func() string {
			st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: l.TerminalID})
			if err != nil || st.Evidence.Binding == nil || st.Evidence.Binding.SessionID != first {
				return fmt.Sprintf("binding %+v %v, want the first conversation %s", st.Evidence.Binding, err, first)
			}
			return ""
		})
	}
	res, err := d.cl.ResumeThread(ctx, api.ResumeThreadRequest{TerminalID: l.TerminalID, NativeThreadID: first})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case typed && (res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonComposerNotEmpty)):
		t.Fatalf("a fresh resume over the typed command: %+v", res)
	case moved && (res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonNotResumable)):
		t.Fatalf("a fresh resume of the conversation the pane runs: %+v", res)
	case !typed && !moved && res.Outcome != api.OutcomeAccepted:
		t.Fatalf("nothing was typed, yet a fresh resume is %+v\n%s", res, la.srv.MustRun("capture-pane", "-p", "-t", la.pane))
	}
	t.Logf("%s %s at %s: after restart %s; a fresh resume %s (%s)", agent, version, point, final, res.Outcome, res.Reason)
}

// mustAction returns an ActionResult or fails the test on a call error.
func mustAction(t *testing.T) func(api.ActionResult, error) api.ActionResult {
	return func(res api.ActionResult, err error) api.ActionResult {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}

func threadCrashRun(t *testing.T, agent, version, point string) {
	la := startLive(t, agent, version, threadLiveScript(agent, version))
	projects, sessions := filepath.Join(la.home, ".claude", "projects"), filepath.Join(la.home, ".codex", "sessions")
	c := startCrashChild(t, la.srv, point, "AKK_CRASH_CLAUDE_PROJECTS="+projects, "AKK_CRASH_CODEX_SESSIONS="+sessions)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A person's first prompt (the armed daemon must reserve nothing before
	// the transition), then the conversation bound and idle.
	row := c.awaitRow(t, ctx, la.pane, contract.ScreenIdle)
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", liveFirst)
	if agent == "codex" {
		time.Sleep(200 * time.Millisecond) // Codex's paste-burst window: a fast Enter would be a newline
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	tmuxtest.Await(t, 90*time.Second, func() string {
		st, err := c.cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID})
		if err != nil {
			return err.Error() + "\n" + c.out.String()
		}
		if _, ok := st.Terminal.AvailableActions["new_thread"]; !ok || st.Evidence.Binding == nil || st.Evidence.Binding.State != contract.IdentityResolved {
			return fmt.Sprintf("new_thread not offered yet: %s/%s binding %+v", st.Terminal.ScreenState, st.Terminal.Composer, st.Evidence.Binding)
		}
		return ""
	})
	if _, err := c.cl.NewThread(ctx, api.NewThreadRequest{TerminalID: row.TerminalID}); err == nil {
		t.Fatalf("new_thread returned: the fault hook did not fire")
	}
	rs := c.killed(t, "new_thread", point)
	cmd := map[string]string{"claude": "/clear", "codex": "/new"}[agent]
	typed := point == dispatch.FaultAfterInput
	d, final := c.restartedUncertain(t, la.srv, "new_thread", rs, daemonOpts{claudeProjects: projects, codexSessions: sessions})
	defer d.stop()
	// The restarted daemon types nothing: the screen settles as the kill
	// left it, the command on it at most once.
	screen := string(la.srv.MustRun("capture-pane", "-p", "-t", la.pane))
	if n := strings.Count(screen, "❯ "+cmd) + strings.Count(screen, "› "+cmd); n > 1 {
		t.Fatalf("the command shows %d times after the restart:\n%s", n, screen)
	}
	l := awaitIdleAfterKill(t, ctx, d, la.pane, typed, false)
	res, err := d.cl.NewThread(ctx, api.NewThreadRequest{TerminalID: l.TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case typed && (res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonComposerNotEmpty)):
		t.Fatalf("a fresh new_thread over the typed command: %+v", res)
	case point == dispatch.FaultBeforeReserve && res.Outcome != api.OutcomeAccepted:
		t.Fatalf("nothing was reserved, yet a fresh new_thread is %+v\n%s", res, la.srv.MustRun("capture-pane", "-p", "-t", la.pane))
	}
	t.Logf("%s %s at %s: after restart %s; a fresh new_thread %s (%s)", agent, version, point, final, res.Outcome, res.Reason)
}

// awaitIdleAfterKill waits for the restarted daemon to show the pane
// idle on its exact profile, with the command the kill left typed in the
// composer when typed, else (when empty is required) an empty composer.
func awaitIdleAfterKill(t *testing.T, ctx context.Context, d *daemon, pane string, typed, empty bool) api.Terminal {
	t.Helper()
	return awaitRowFor(t, ctx, d, pane, func(r api.Terminal) string {
		switch {
		case r.ScreenState != contract.ScreenIdle || r.Profile != "exact":
			return "idle " + string(r.ScreenState)
		case typed && r.Composer != contract.ComposerDraft:
			return "the typed command in the composer, composer " + string(r.Composer)
		case !typed && empty && r.Composer != contract.ComposerEmpty:
			return "an empty composer, composer " + string(r.Composer)
		}
		return ""
	})
}

// awaitRowFor waits until the daemon's row of pane satisfies ok.
func awaitRowFor(t *testing.T, ctx context.Context, d *daemon, pane string, ok func(api.Terminal) string) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 30*time.Second, func() string {
		l, err := d.cl.List(ctx)
		if err != nil {
			return err.Error()
		}
		row, _ = rowOf(l, pane)
		return ok(row)
	})
	return row
}
