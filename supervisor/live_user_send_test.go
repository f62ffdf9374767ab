package supervisor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// TestLiveClaudeUserSend and TestLiveCodexUserSend: a person's
// user-explicit send (mode terminal_user_explicit) on the real agents.
// First zero input where a dialog owns the input (Claude Code's
// permission prompt, Codex's questionnaire): refused, nothing reserved,
// the dialog answered as usual after. Then Claude Code with a person's
// draft in its composer: the draft is stashed with ctrl+s, the task goes
// in with one Enter, and the draft is back after the submit; Codex while
// it works on a slow task: the task is steered into the running turn.
// Each is delivered once, proven from the agent's own file, whose user
// prompts never show the draft.
func TestLiveClaudeUserSend(t *testing.T) { liveUserSend(t, "claude", "2.1.267") }
func TestLiveCodexUserSend(t *testing.T)  { liveUserSend(t, "codex", "0.155.1") }

// TestLiveClaude332UserSend: the same on Claude Code 2.1.332, whose stash
// chip reads "draft stashed".
func TestLiveClaude332UserSend(t *testing.T) { liveUserSend(t, "claude", "2.1.332") }

const (
	userDraft = "my own words, not sent"
	userTask  = "the user-explicit task"
	userSlow  = "slow-task please"
)

func liveUserSend(t *testing.T, agent, version string) {
	script := rig.Script(agent, version)
	script.Keywords = append([]fakemodel.Keyword{{Word: "slow-task",
		Reply: fakemodel.Reply{Text: "Done, slowly.", FirstDelay: 6 * time.Second}}}, script.Keywords...)
	la := startLive(t, agent, version, script)
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{}), 5*time.Minute)

	// A dialog owns the input: zero input, nothing reserved.
	word, screen := "run-touch", contract.ScreenAwaitingApproval
	if agent == "codex" {
		word, screen = "ask-color", contract.ScreenQuestionnaire
	}
	turn := ld.send(word)
	row := ld.awaitScreen(screen)
	if _, ok := row.AvailableActions["send_user_explicit"]; ok {
		t.Fatalf("a user-explicit send is advertised on a %s: %+v", screen, row.AvailableActions)
	}
	res := ld.userSend(row.TerminalID, userTask)
	if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonInputOwned) || res.ReceiptID != "" ||
		res.TerminalInputDispatched {
		t.Fatalf("user-explicit send to a %s: %+v", screen, res)
	}
	if agent == "claude" {
		ld.accept(ld.approve(turn, contract.DecisionApproveOnce))
	} else {
		ld.accept(ld.respond(turn, ld.row(), func(q contract.Question) (int, string) { return 0, "" }))
	}
	ld.idle()
	ld.awaitSettled(turn)

	var restoredLen int
	if agent == "claude" {
		// A person's draft in the composer.
		la.srv.MustRun("send-keys", "-t", la.pane, "-l", userDraft)
		row = ld.awaitUserSendable(func(r api.Terminal) bool {
			return r.Composer == contract.ComposerDraft && r.ScreenState == contract.ScreenIdle
		})
		res = ld.userSend(row.TerminalID, userTask)
		if !res.ClearedDraft || !res.DraftRestored {
			t.Errorf("Claude's draft: cleared %v, restored %v, want both", res.ClearedDraft, res.DraftRestored)
		}
		restoredLen = len([]rune(userDraft))
	} else {
		// A slow task runs; the person's task goes into the working agent.
		slow := ld.send(userSlow)
		row = ld.awaitUserSendable(func(r api.Terminal) bool { return r.ScreenState == contract.ScreenWorking })
		res = ld.userSend(row.TerminalID, userTask)
		ld.awaitSettled(slow)
	}
	if res.Outcome != api.OutcomeAccepted || res.Evidence != "transcript:request_hash" || res.TurnID == "" ||
		!res.TerminalInputDispatched || res.AgentAcceptance != api.AcceptanceAccepted || res.ManagementMode != "managed_turn" {
		t.Fatalf("user-explicit send: %+v", res)
	}
	t.Logf("%s %s user-explicit send: %s (%s), cleared %v, restored %v", agent, version, res.Outcome, res.Evidence,
		res.ClearedDraft, res.DraftRestored)
	ld.awaitSettled(res.TurnID)
	after := ld.row()
	if after.DraftLength != restoredLen {
		t.Errorf("after the send the composer holds %d characters (%s), want %d", after.DraftLength, after.Composer, restoredLen)
	}
	want := []string{word, userTask}
	if agent == "codex" {
		want = []string{word, userSlow, userTask}
	}
	if got := sessionPrompts(t, la, agent); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("prompts in the session file %q, want %q (each once, never the draft)", got, want)
	}
}

// userSend makes one user-explicit send, as the person asked.
func (ld *liveDispatch) userSend(terminalID, text string) api.ActionResult {
	ld.t.Helper()
	res, err := ld.d.cl.Send(ld.ctx, api.SendRequest{TerminalID: terminalID, Mode: api.SendUserExplicit, Request: text})
	if err != nil {
		ld.t.Fatal(err)
	}
	return res
}

// awaitUserSendable waits for a row ok accepts that advertises the
// user-explicit send.
func (ld *liveDispatch) awaitUserSendable(ok func(api.Terminal) bool) api.Terminal {
	ld.t.Helper()
	return awaitRow(ld.t, ld.d.cl, ld.la.pane, 60*time.Second, func(r api.Terminal) string {
		a, adv := r.AvailableActions["send_user_explicit"]
		if !ok(r) || !adv || a.Arguments["mode"] != api.SendUserExplicit {
			return fmt.Sprintf("user-explicit send on %s/%s (actions %v)", r.ScreenState, r.Composer, r.AvailableActions)
		}
		return ""
	})
}
