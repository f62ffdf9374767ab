package codexrig

import (
	"encoding/json"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
)

// The async question of Codex 0.171.0. The rig's gpt-6-sol is offered
// request_user_input_async (codexAsyncModel), in code mode a plain
// function beside `exec`, which the fake model calls as on 0.155.1.
// Measured with the fake model (probes of 2026-12-03), what differs from
// 0.154.0/0.155.1:
//
//   - the questions live only while the turn runs: at task_complete the
//     unanswered ones are dropped (nothing is left to open on the idle
//     screen), and the text typed into an open editor moves into the main
//     composer as "> <question>", a blank row, the text. A turn that ends
//     at once (0.155.1's async-question) shows no surface at all, only the
//     questions printed into the history ("? <title>", "  • <option>");
//     so every scenario here holds the model's reply back;
//   - shift+← opens the collapsed summary ("? 2 questions" / "shift+← to
//     answer") and moves to the next question; ctrl+] skips ("^] skip");
//   - a digit or Enter sends the answer at once, cancelling the model's
//     reply in flight: "↪ Re: <question>" and the answer in the history,
//     a new model request of the same turn whose last input is a user
//     message "<send_user_message_question_reply>" with the JSON list
//     [{answer, question, questionItemId}] (no "Messages to be submitted
//     after next tool call" block). The fake model holds its reply to
//     that back as well (codexAsyncWorkingScript), so the turn runs on;
//   - Tab after typed text queues it for the next turn as on 0.155.1
//     ("↳ > <question>", the text, "shift+← edit last queued message").
const (
	codexAsyncOpenKey171   = "\x1b[1;2D" // shift+←
	codexAsyncCollapsed171 = "shift+← to answer"
	codexAsyncOpen171      = "^] skip"
	codexAsyncNext171      = "shift+← next question"
	codexAsyncQueued171    = "shift+← queued messages"
	codexQueuedEdit171     = "shift+← edit last queued message"
	codexAnswered171       = "↪ Re: "
)

// codexAsk171 asks the two async questions and waits for their collapsed
// summary while the turn runs (the model's reply held back).
func codexAsk171(s steps) {
	s.ask("ask-async", "request_user_input_async")
	s.Journal("function_call_output accepted", rolloutHas("response_item", "function_call_output", "accepted"))
	s.Screen("? Which color should the widget use?", "? Anything else we should know?", "? 2 questions",
		codexAsyncCollapsed171, codexBusy)
	s.Gone("renaming...")
}

// open171 opens the collapsed questions with shift+←.
func open171(s steps) {
	s.Send([]byte(codexAsyncOpenKey171))
	s.Screen(codexAsyncOpen171, "1 of 2", "4. Other", codexAsyncNext171, codexBusy)
}

// answerGreen171 answers the first question with its digit 2: the answer
// is sent at once and the free-text question opens by itself.
func answerGreen171(s steps) {
	s.Key("2")
	s.Screen(codexAnswered171+"Which color should the widget use?", "Green", "Anything else we should know?",
		"Type your answer", codexAsyncOpen171, codexBusy)
	s.Journal("the answer Green", rolloutHas("response_item", "message", "send_user_message_question_reply", `\"answer\":\"Green\"`))
}

var (
	codexColor171 = recordings.Question{Prompt: "Which color should the widget use?"}
	codexMore171  = recordings.Question{Prompt: "Anything else we should know?"}
)

// collapsed171, open171Marker and more171 are the markers of the
// collapsed summary, of the open first question and of the open
// free-text question.
func collapsed171() recordings.MarkerState {
	return recordings.MarkerState{Composer: "empty", Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{codexColor171}}
}

func open171Marker() recordings.MarkerState {
	open := codexColor171
	open.Options = []string{"Red", "Green", "Blue", "Other"}
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{open}, Highlighted: recordings.Index(0)}
}

func more171(composer string) recordings.MarkerState {
	return recordings.MarkerState{Composer: contract.Composer(composer), Kind: recordings.Kind("async_question"),
		Actionable: true, Questions: []recordings.Question{codexMore171}}
}

// asyncQuestion171: collapsed, opened, the first answered by its digit,
// the free-text one skipped, the turn's end.
func asyncQuestion171(s steps) {
	greenAnswered171(s)
	s.Key("C-]")
	s.Gone(codexAsyncOpen171)
	s.Screen(codexBusy, "› Ask Codex to do anything")
	s.Mark("working", recordings.MarkerState{Composer: "empty"})
	s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
	s.Do(func() error { return codexCheckSteerQueue(s.d.JournalPath(), "\n\nGreen", "") })
	s.idle()
	s.MarkIdle()
}

// asyncWorking171: a digit answers; the free-text question is left with a
// draft while the turn ends, which moves the draft into the composer.
func asyncWorking171(s steps) {
	greenAnswered171(s)
	s.Type("Purple")
	s.Screen("  Purple", codexAsyncOpen171)
	s.Pause(codexEnterGap)
	s.Mark("async_question", more171("draft"))
	s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
	s.Screen(codexAsyncAnswered, "› > Anything else we should know?", "  Purple")
	s.Gone(codexAsyncOpen171, codexBusy)
	s.Do(func() error { return codexCheckSteerQueue(s.d.JournalPath(), "\n\nGreen", "") })
	s.Mark("idle", recordings.MarkerState{Composer: "draft"})
}

// asyncQueueText171: a digit answers; the free-text answer typed into the
// next question and Tab queue it for the next turn.
func asyncQueueText171(s steps) {
	codexAsk171(s)
	open171(s)
	answerGreen171(s)
	s.Mark("async_question", more171("empty"))
	// The editor stays open while the working row ticks.
	s.Pause(codexTicks)
	s.Type("Purple")
	s.Screen("  Purple", codexAsyncOpen171)
	s.Pause(codexEnterGap)
	s.Key("Tab")
	s.Screen("↳ > "+codexMore171.Prompt, "Purple", codexQueuedEdit171, "› Ask Codex to do anything", codexBusy)
	queuedTurnEnd(s, codexAsyncOpen171, "\n\nGreen", "\n\nPurple")
}

// asyncWorkingQueue171: "Other" with text and Tab queue it for the next
// turn; the next question's typed text and Enter answer at once. No
// marker before the Tab: no plan sends Tab there.
func asyncWorkingQueue171(s steps) {
	codexAsk171(s)
	open171(s)
	s.Key("4")
	s.Screen("› 4. Other", codexAsyncOpen171)
	s.Type("Teal")
	s.Screen("› 4. Teal", codexAsyncOpen171)
	s.Pause(codexEnterGap)
	s.Key("Tab")
	s.Screen("↳ > Which color should the widget use?", "Teal", codexMore171.Prompt, "Type your answer",
		codexAsyncQueued171, codexBusy)
	s.Mark("async_question", more171("empty"))
	s.Type("Purple")
	s.Screen("  Purple", codexAsyncOpen171)
	s.Pause(codexEnterGap)
	s.Key("Enter")
	s.Screen(codexAnswered171+codexMore171.Prompt, "Purple", codexQueuedEdit171, "› Ask Codex to do anything", codexBusy)
	queuedTurnEnd(s, codexAsyncOpen171, "\n\nPurple", "\n\nTeal")
}

// greenAnswered171: the question asked, marked collapsed and opened, its
// first answered by its digit (Green), the free-text one shown empty.
func greenAnswered171(s steps) {
	codexAsk171(s)
	s.Mark("working", collapsed171())
	open171(s)
	s.Mark("async_question", open171Marker())
	answerGreen171(s)
	s.Mark("async_question", more171("empty"))
}

// questionReplies are the answers of a 0.171.0 question reply (a user
// message "<send_user_message_question_reply>\n[...]\n</…>"), each as
// "\n\n<answer>" (the ending of 0.155.1's "> <question>\n\n<answer>"),
// or nil when text is not one.
func questionReplies(text string) []string {
	body, ok := strings.CutPrefix(text, codexQuestionReply)
	if !ok {
		return nil
	}
	body, _, _ = strings.Cut(body, "</send_user_message_question_reply>")
	var list []struct {
		Answer string `json:"answer"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &list) != nil {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, "\n\n"+a.Answer)
	}
	return out
}
