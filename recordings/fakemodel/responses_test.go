package fakemodel

import (
	"encoding/json"
	"testing"
)

// TestLastUserTextQuestionReply: an injected context block is passed
// over, Codex 0.171.0's answer to an async question is the prompt.
func TestLastUserTextQuestionReply(t *testing.T) {
	reply := questionReply + "\n[{\"answer\":\"Green\",\"question\":\"Which color?\"}]\n</send_user_message_question_reply>"
	for _, c := range []struct {
		last, want string
	}{
		{"<environment_context>x</environment_context>", "ask-async"},
		{reply, reply},
	} {
		text, _ := json.Marshal(c.last)
		var input []inputItem
		body := `[{"type":"message","role":"user","content":"ask-async"},{"type":"message","role":"user","content":` + string(text) + `}]`
		if err := json.Unmarshal([]byte(body), &input); err != nil {
			t.Fatal(err)
		}
		if got := lastUserText(input); got != c.want {
			t.Errorf("last %q: prompt %q, want %q", c.last, got, c.want)
		}
	}
}
