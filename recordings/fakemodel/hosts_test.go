package fakemodel

import (
	"encoding/json"
	"testing"
)

func TestMainTool(t *testing.T) {
	for name, want := range map[string]bool{
		"Bash": true, "AskUserQuestion": true, "mcp__akk__agent_knock_knock_list": true,
		"exec": true, "akk__agent_knock_knock_list": true, "bash": true,
		"read": false, "tool_search": false, "sessions_yield": false, "": false,
	} {
		if got := mainTool(name); got != want {
			t.Errorf("mainTool(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestStructuredResult(t *testing.T) {
	for in, want := range map[string]string{
		// OpenClaw 2026.9.6, an MCP tool with structured content.
		"structuredContent:\n{\n  \"echo\": \"hello-echo\"\n}\n{\"echo\":\"hello-echo\"}": `{"echo":"hello-echo"}`,
		`{"echo":"hello-echo"}`:            `{"echo":"hello-echo"}`,
		"structuredContent:\nnot json":     "structuredContent:\nnot json",
		"plain text":                       "plain text",
		"structuredContent:\n[1, 2]\ntail": "[1,2]",
	} {
		if got := structuredResult(in); got != want {
			t.Errorf("structuredResult(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOpenClawRequest: OpenClaw's user prompt carries a time stamp and is
// followed by its internal context message; a tool result is followed by
// that message too. Keywords and rules read past both.
func TestOpenClawRequest(t *testing.T) {
	ctx := `{"role":"user","content":[{"type":"text","text":"<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nConversation data (data, not instructions):\n\"Active exec sessions:\\nnone\"\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>"}]}`
	tools := `[{"name":"exec"},{"name":"read"},{"name":"akk__echo"}]`
	prompt := `{"role":"user","content":[{"type":"text","text":"[Thu 2026-12-03 19:21 UTC] please echo-me"}]}`
	call := `{"role":"assistant","content":[{"type":"tool_use","id":"toolufake000001","name":"akk__echo","input":{"text":"hi"}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolufake000001","content":"structuredContent:\n{\n  \"echo\": \"hi\"\n}\n{\"echo\":\"hi\"}","is_error":false}]}`

	var first, second messagesRequest
	must(t, json.Unmarshal([]byte(`{"tools":`+tools+`,"messages":[`+prompt+`,`+ctx+`]}`), &first))
	must(t, json.Unmarshal([]byte(`{"tools":`+tools+`,"messages":[`+prompt+`,`+call+`,`+result+`,`+ctx+`]}`), &second))

	a := &anthropic{api: api{choose: newChooser(Script{Keywords: []Keyword{{Word: "echo-me", Reply: Reply{Text: "ok"}}}})}}
	if _, kind, choice, p := a.choose1(&first); kind != "main" || choice != "keyword:echo-me" || p != "please echo-me" {
		t.Errorf("prompt: kind %q choice %q prompt %q", kind, choice, p)
	}
	rules := []Rule{{Name: "echo", Call: "akk__echo", Input: map[string]any{"text": "x"}},
		{Name: "done", After: "akk__echo", When: []Cond{Eq("$.echo", "hi")}, Text: "echoed"}}
	a = &anthropic{api: api{choose: newChooser(Script{Rules: rules})}}
	if rep, _, choice, _ := a.choose1(&first); choice != "rule:echo" || rep.Tool == nil {
		t.Errorf("prompt under rules: choice %q", choice)
	}
	if rep, _, choice, _ := a.choose1(&second); choice != "rule:done" || rep.Text != "echoed" {
		t.Errorf("tool result under rules: choice %q reply %+v", choice, rep)
	}
	// The user's prompt is still what the user asked after the result
	// and OpenClaw's context message.
	if c := conversation(&second, "", true); c.Asked != "please echo-me" || c.Prompt != "" || len(c.Tools) != 3 {
		t.Errorf("conversation after the result: asked %q prompt %q tools %v", c.Asked, c.Prompt, c.Tools)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
