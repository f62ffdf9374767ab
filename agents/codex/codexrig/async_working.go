package codexrig

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The async question of Codex 0.154.0/0.155.1 answered while the turn
// still runs (0.171.0: async_0_171.go): the model asks with
// request_user_input_async and keeps working (its next reply is held
// back 20 s). Measured on both versions:
//
//   - a digit (or Enter) in the editor steers: the answer waits under
//     "• Messages to be submitted after next tool call (press esc to
//     interrupt and send immediately)" and is written as a user message
//     of the same turn_id, after the slow reply and before that turn's
//     task_complete (the turn makes one more model request for it);
//   - Tab after typed text (the free-text question, or "Other" with text)
//     queues: the answer moves under "• Queued follow-up inputs" as
//     "↳ > <question>" / "<text>" / "alt + ↑ edit last queued message", the
//     editor closes, and after task_complete the answer starts a new turn.
//     Tab on a plain option row does nothing;
//   - while nothing is typed only the working row ("• Working (Ns • esc to
//     interrupt)", two rows above the "• Queued follow-up inputs" header)
//     redraws: its spinner alternates •/◦ about every 0.5 s and its seconds
//     count up.
const (
	// codexTicks holds an open editor through a few redraws of the working
	// row (its spinner alternates about every 0.5 s, its seconds count).
	codexTicks       = 2500 * time.Millisecond
	codexSteerHeader = "Messages to be submitted after next tool call"
	codexQueuedEdit  = "alt + ↑ edit last queued message"
	codexAsyncSlow   = "This slow reply came after the async question."
	// codexQuestionReply starts the user message of 0.171.0's answers,
	// codexAsyncAnswered is the fake model's (slow) reply to it.
	codexQuestionReply = "<send_user_message_question_reply>"
	codexAsyncAnswered = "This slow reply came after the answer."
)

// codexAsyncWorkingScript is codexScript whose reply after the async tool's
// {"accepted":true} is held back, so the turn is still running.
func codexAsyncWorkingScript(version string) fakemodel.Script {
	s := codexScript(version)
	// 0.171.0 sends an answer at once, cancelling the reply in flight,
	// as a user message of its own: the reply to it is held back too.
	s.Keywords = append([]fakemodel.Keyword{{Word: codexQuestionReply,
		Reply: fakemodel.Reply{Text: codexAsyncAnswered, FirstDelay: 20 * time.Second}}}, s.Keywords...)
	s.AfterTool = func(result string, isError bool) fakemodel.Reply {
		if strings.Contains(result, `"accepted":true`) {
			return fakemodel.Reply{Text: codexAsyncSlow, FirstDelay: 20 * time.Second}
		}
		return fakemodel.Reply{Text: "Tool result received: " + result}
	}
	return s
}

func asyncWorkingScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	color := recordings.Question{Prompt: "Which color should the widget use?"}
	more := recordings.Question{Prompt: "Anything else we should know?"}
	ask := func(s steps) {
		s.ask("ask-async", "request_user_input_async")
		// The async tool returned; the model's next reply is held back.
		s.Journal("function_call_output accepted", rolloutHas("response_item", "function_call_output", "accepted"))
		// The summary can be drawn before the questions reach the
		// transcript, and the status line renames the thread meanwhile.
		s.Screen("• Which color should the widget use?", "  Anything else we should know?", codexAsyncCollapsed, codexBusy)
		s.Gone("renaming...")
	}
	out = append(out,
		// A digit steers; the next (free-text) question opens by itself and
		// is left with a draft, unsent, while the turn ends.
		&rig.Scenario{Name: "async-working", Agent: "codex", Only: codexAsyncVersions,
			Model: codexAsyncModel, Script: codexAsyncWorkingScript, Drive: drive(asyncDrive(func(s steps) {
				d := s.d
				ask(s)
				s.Mark("working", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{color}})
				s.Key("M-Up")
				s.Screen(codexAsyncOpen, "4. Other", "alt + ↑ next question", codexBusy)
				open := color
				open.Options = []string{"Red", "Green", "Blue", "Other"}
				s.Mark("async_question", recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{open}, Highlighted: recordings.Index(0)})
				s.Key("2")
				s.Screen(codexSteerHeader, "Green", more.Prompt, "Type your answer", codexAsyncOpen, codexBusy)
				s.Mark("async_question", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{more}})
				s.Type("Purple")
				s.Screen("  Purple", codexAsyncOpen)
				s.Pause(codexEnterGap)
				s.Mark("async_question", recordings.MarkerState{Composer: "draft", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{more}})
				// The slow reply, then the steered answer in the same turn.
				s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
				s.Do(func() error { return codexCheckSteerQueue(d.JournalPath(), "\n\nGreen", "") })
				s.Screen("Fake reply to: > Which color should the widget use? Green", "  Purple", codexAsyncOpen)
				s.Gone(codexBusy)
				s.Mark("async_question", recordings.MarkerState{Composer: "draft", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{more}})
			}, asyncWorking171))},
		asyncQueueText(ask),
		// "Other" with text and Tab queues it for the next turn; the next
		// question's typed text and Enter steer. No marker before the Tab:
		// no plan sends Tab.
		&rig.Scenario{Name: "async-working-queue", Agent: "codex", Only: codexAsyncVersions,
			Model: codexAsyncModel, Script: codexAsyncWorkingScript, Drive: drive(asyncDrive(func(s steps) {
				ask(s)
				s.Key("M-Up")
				s.Screen(codexAsyncOpen, "4. Other", codexBusy)
				s.Key("4")
				s.Screen("› 4. Other", codexAsyncOpen)
				s.Type("Teal")
				s.Screen("› 4. Teal", codexAsyncOpen)
				s.Pause(codexEnterGap)
				s.Key("Tab")
				s.Screen("↳ > Which color should the widget use?", "Teal", more.Prompt, "Type your answer",
					"alt + ↑ queued messages", codexBusy)
				// The footer's last segment is new: "alt + ↑ queued messages".
				s.Mark("async_question", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
					Actionable: true, Questions: []recordings.Question{more}})
				s.Type("Purple")
				s.Screen("  Purple", codexAsyncOpen)
				s.Pause(codexEnterGap)
				s.Key("Enter")
				s.Screen(codexSteerHeader, "Purple", codexQueuedEdit, "› Ask Codex to do anything", codexBusy)
				queuedTurnEnd(s, codexAsyncOpen, "\n\nPurple", "\n\nTeal")
			}, asyncWorkingQueue171))},
	)
	return out
}

// queuedTurnEnd: the editor (its anchor open) closed over the working
// screen, the steered and queued blocks between the working row and the
// composer; then the slow reply and the steered answer end the first turn,
// the queued one a turn of its own (codexCheckSteerQueue).
func queuedTurnEnd(s steps, open, steered, queued string) {
	s.Gone(open)
	s.Mark("working", recordings.MarkerState{Composer: "empty"})
	s.Journal("second task_complete", rig.NthLine(s.d, 2, rolloutHas("event_msg", "task_complete")))
	s.Do(func() error { return codexCheckSteerQueue(s.d.JournalPath(), steered, queued) })
	s.idle()
	s.MarkIdle()
}

// CheckSteerQueue is codexCheckSteerQueue for the live tests that
// answer through akk.
func CheckSteerQueue(path, steered, queued string) error {
	return codexCheckSteerQueue(path, steered, queued)
}

// codexCheckSteerQueue checks a Codex rollout for where async answers
// landed: the user message ending in steered is in the first turn, before
// its task_complete, and the one ending in queued (unless "") is in the
// second (the scenarios here, and the live tests that answer through akk).
func codexCheckSteerQueue(path, steered, queued string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("rig: rollout: %w", err)
	}
	defer f.Close()
	var turns []string // turn_ids in task_started order
	completed := map[string]bool{}
	where := map[string]string{} // user message suffix -> "turn N" or "turn N after task_complete"
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			Type    string `json:"type"`
			Payload struct {
				Type    string `json:"type"`
				TurnID  string `json:"turn_id"`
				Role    string `json:"role"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				Meta struct {
					TurnID string `json:"turn_id"`
				} `json:"internal_chat_message_metadata_passthrough"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		p := m.Payload
		switch {
		case m.Type == "event_msg" && p.Type == "task_started":
			turns = append(turns, p.TurnID)
		case m.Type == "event_msg" && p.Type == "task_complete":
			completed[p.TurnID] = true
		case m.Type == "response_item" && p.Type == "message" && p.Role == "user" && len(p.Content) > 0:
			texts := questionReplies(p.Content[0].Text)
			if texts == nil {
				texts = []string{p.Content[0].Text}
			}
			for _, suffix := range []string{steered, queued} {
				if slices.ContainsFunc(texts, func(t string) bool { return strings.HasSuffix(t, suffix) }) {
					n := 0
					for i, t := range turns {
						if t == p.Meta.TurnID {
							n = i + 1
						}
					}
					where[suffix] = fmt.Sprintf("turn %d", n)
					if completed[p.Meta.TurnID] {
						where[suffix] += " after its task_complete"
					}
				}
			}
		}
	}
	if where[steered] != "turn 1" || queued != "" && where[queued] != "turn 2" {
		return fmt.Errorf("rig: rollout: steered answer in %q (want turn 1), queued answer in %q (want turn 2)",
			where[steered], where[queued])
	}
	return nil
}

// asyncQueueText: a digit steers the first answer; the free-text answer typed into
// the next question and Tab queue it for the next turn (akk's
// queue_next_turn delivery: the text, a quiet window, Tab).
func asyncQueueText(ask func(steps)) *rig.Scenario {
	more := recordings.Question{Prompt: "Anything else we should know?"}
	return &rig.Scenario{Name: "async-queue-text", Agent: "codex", Only: codexAsyncVersions,
		Model: codexAsyncModel, Script: codexAsyncWorkingScript, Drive: drive(asyncDrive(func(s steps) {
			ask(s)
			s.Key("M-Up")
			s.Screen(codexAsyncOpen, "4. Other", "alt + ↑ next question", codexBusy)
			s.Key("2")
			s.Screen(codexSteerHeader, "Green", more.Prompt, "Type your answer", codexAsyncOpen, codexBusy)
			s.Mark("async_question", recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
				Actionable: true, Questions: []recordings.Question{more}})
			// The editor stays open while the working row ticks (the
			// spinner and its seconds): nothing in the editor redraws.
			s.Pause(codexTicks)
			s.Type("Purple")
			s.Screen("  Purple", codexAsyncOpen)
			s.Pause(codexEnterGap)
			s.Key("Tab")
			s.Screen("↳ > "+more.Prompt, "Purple", codexQueuedEdit, "› Ask Codex to do anything", codexBusy)
			queuedTurnEnd(s, codexAsyncOpen, "\n\nGreen", "\n\nPurple")
		}, asyncQueueText171))}
}
