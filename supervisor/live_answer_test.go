package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/store"
)

// TestLiveClaudeAnswer and TestLiveCodexAnswer: a managed Turn whose agent
// ends with its own question ("Which file?") is answered inside the same
// Turn: the status says answerable, the answer (the `akk answer` binary
// for Claude Code, the API for Codex) is accepted under the same turn_id,
// lands once in the same conversation, and the Turn completes again. A
// Turn a newer send superseded is refused with nothing typed.
func TestLiveClaudeAnswer(t *testing.T) { liveAnswer(t, "claude", "2.1.267", true) }
func TestLiveCodexAnswer(t *testing.T)  { liveAnswer(t, "codex", "0.155.1", false) }

const (
	answerTask  = "fix-the-bug"
	answerReply = "the file is main.go"
)

func liveAnswer(t *testing.T, agent, version string, viaBinary bool) {
	script := fakemodel.Script{Keywords: []fakemodel.Keyword{{Word: answerTask, Reply: fakemodel.Reply{Text: "Which file?"}}}}
	la := startLive(t, agent, version, script)
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{}), 4*time.Minute)
	d, ctx := ld.d, ld.ctx

	turn := ld.send(answerTask)
	first := ld.awaitAnswerable(turn)
	var res api.ActionResult
	if viaBinary {
		res = answerWithBinary(t, d.sock, turn, answerReply)
	} else {
		var err error
		if res, err = d.cl.Answer(ctx, api.AnswerRequest{TurnID: turn, Request: answerReply}); err != nil {
			t.Fatal(err)
		}
	}
	if res.Outcome != api.OutcomeAccepted || res.TurnID != turn || res.Evidence != "transcript:request_hash" || res.SessionID != first.SessionID {
		t.Fatalf("answer: %+v (turn %s, session %s)", res, turn, first.SessionID)
	}
	again := ld.awaitAnswerable(turn) // the echo reply is the agent's text too
	if again.SessionID != first.SessionID {
		t.Errorf("the answer moved the turn to session %s from %s", again.SessionID, first.SessionID)
	}
	rec, err := d.st.Turn(turn)
	if err != nil || rec.Round != 1 || rec.State != store.TurnDone {
		t.Errorf("turn record after the answer: %+v %v", rec, err)
	}
	ld.idle()

	// A person types a prompt into the pane: the agent's file moves on
	// past the Turn's end, and the answer is refused, nothing typed.
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", "typed by hand")
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.Composer == contract.ComposerEmpty {
			return "the typed draft"
		}
		return ""
	})
	time.Sleep(300 * time.Millisecond) // past Codex's paste-burst window (~120 ms): Enter submits, not a newline
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.ScreenState == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && len(sessionPrompts(t, la, agent)) == 3 {
			return ""
		}
		return "the person's prompt answered"
	})
	ld.idle()
	res, err = d.cl.Answer(ctx, api.AnswerRequest{TurnID: turn, Request: "too late"})
	if err != nil || res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonSuperseded) || res.ReceiptID != "" {
		t.Fatalf("answer after a person's prompt: %+v %v", res, err)
	}

	// A newer Turn supersedes it: refused, nothing typed.
	newer := ld.send("something else")
	ld.awaitAnswerable(newer)
	res, err = d.cl.Answer(ctx, api.AnswerRequest{TurnID: turn, Request: "too late"})
	if err != nil || res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonSuperseded) || res.ReceiptID != "" {
		t.Fatalf("answer to a superseded turn: %+v %v", res, err)
	}
	// Nothing typed: the idle composer stays empty (text akk typed would
	// sit there as a draft, or, submitted, be a fifth prompt below).
	// Codex may redraw meanwhile (a CI run read one frame as unknown), so
	// the check waits for the idle screen instead of comparing one frame.
	awaitRow(t, d.cl, la.pane, 30*time.Second, func(r api.Terminal) string {
		if r.Composer == contract.ComposerDraft {
			t.Fatalf("a refused answer left a draft in the composer")
		}
		if r.ScreenState == contract.ScreenIdle && r.Composer == contract.ComposerEmpty {
			return ""
		}
		return "the idle screen with an empty composer"
	})

	// The conversation, from the agent's own file: one session, the task,
	// the answer once, the other send; never "too late".
	prompts := sessionPrompts(t, la, agent)
	want := []string{answerTask, answerReply, "typed by hand", "something else"}
	if strings.Join(prompts, "|") != strings.Join(want, "|") {
		t.Errorf("prompts in the session file %q, want %q", prompts, want)
	}
	// Two settlements of the one Turn, each its own event.
	var settled int
	if err := d.cl.Events(ctx, 0, false, func(ev api.Event) error {
		if ev.Type == api.EventTurnSettled && ev.Attrs["turn_id"] == turn {
			settled++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if settled != 2 {
		t.Errorf("turn %s settled %d times, want 2 (the question, then the answer's reply)", turn, settled)
	}
}

// awaitAnswerable waits for the Turn to complete with the agent's own
// text last.
func (ld *liveDispatch) awaitAnswerable(turn string) api.Task {
	ld.t.Helper()
	var task api.Task
	tmuxtest.Await(ld.t, 60*time.Second, func() string {
		var err error
		if task, err = ld.d.cl.TaskStatus(ld.ctx, api.TaskRequest{TurnID: turn}); err != nil {
			return err.Error()
		}
		if task.State != "completed" || !task.Answerable {
			return fmt.Sprintf("turn %s: %s answerable=%v", turn, task.State, task.Answerable)
		}
		return ""
	})
	return task
}

// answerWithBinary runs `akk answer --json` against the daemon's socket.
func answerWithBinary(t *testing.T, sock, turn, text string) api.ActionResult {
	t.Helper()
	out, err := exec.Command(buildAkk(t), "answer", "--socket", sock, "--json", turn, text).Output()
	var res api.ActionResult
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		t.Fatalf("akk answer: %v: %s (%v)", err, out, jerr)
	}
	return res
}

// sessionPrompts are the user prompts of the agent's one session file, in
// order.
func sessionPrompts(t *testing.T, la *liveAgent, agent string) []string {
	t.Helper()
	pat := filepath.Join(la.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl")
	if agent == "claude" {
		pat = filepath.Join(la.home, ".claude", "projects", "*", "*.jsonl")
	}
	files, _ := filepath.Glob(pat)
	if len(files) != 1 {
		t.Fatalf("session files %v, want one", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, line := range strings.Split(string(data), "\n") {
		var m struct {
			Type    string `json:"type"`
			IsMeta  bool   `json:"isMeta"`
			Payload struct {
				Type    string `json:"type"`
				Role    string `json:"role"`
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
				Meta *struct {
					Kinds []string `json:"content_item_kinds"`
				} `json:"internal_chat_message_metadata_passthrough"`
			} `json:"payload"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		p := m.Payload
		switch {
		case agent == "codex" && m.Type == "response_item" && p.Type == "message" && p.Role == "user" &&
			p.Meta != nil && slices.Contains(p.Meta.Kinds, "user.text") && len(p.Content) == 1:
			prompts = append(prompts, p.Content[0].Text)
		case agent == "claude" && m.Type == "user" && !m.IsMeta && m.Message.Role == "user":
			var s string
			if json.Unmarshal(m.Message.Content, &s) == nil {
				prompts = append(prompts, s)
			}
		}
	}
	return prompts
}
