package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
)

// opencodeRequests are the three requests OpenCode 1.18.33 sent this fake
// for `opencode run "please run-ls"` (the title, the prompt, the bash
// result), trimmed: the system prompts and tool descriptions are cut, and
// the tool result's request drops its tools (the prompt's again).
func opencodeRequests(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile("testdata/opencode-1.18.33-chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var reqs map[string]json.RawMessage
	if err := json.Unmarshal(b, &reqs); err != nil {
		t.Fatal(err)
	}
	return reqs
}

// TestChat: OpenCode's requests answered as the Chat Completions API
// does; OpenCode ran a shell command through it offline
// (docs/research/gemini-opencode-offline.md).
func TestChat(t *testing.T) {
	log := NewLog(nil)
	srv, err := Chat(Script{
		Keywords: []Keyword{
			{Word: "run-ls", Reply: Reply{Text: "Running it.", Tool: &ToolCall{Name: "bash", Input: map[string]any{"command": "echo probe-ran"}}}},
			{Word: "busy", Fail: &Failure{Kind: FailRateLimit, RetryAfter: 2}},
			{Word: "broken", Fail: &Failure{Kind: FailServerError, InStream: true}},
		},
		AfterTool: func(result string, _ bool) Reply { return Reply{Text: "After tool: " + strings.TrimSpace(result)} },
	}, log, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post := func(body string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Post(srv.URL()+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	reqs := opencodeRequests(t)

	// The title: text only, though the prompt names a tool keyword.
	resp, out := post(string(reqs["title"]))
	if got := readChatStream(t, resp, out); got.text != `"please run-ls"` || len(got.calls) != 0 || got.finish != "stop" || !got.usage {
		t.Errorf("title %+v", got)
	}
	resp, out = post(string(reqs["prompt"]))
	got := readChatStream(t, resp, out)
	want := []chatCall{{id: "call_fake0002_0", typ: "function", name: "bash", args: `{"command":"echo probe-ran"}`}}
	if got.text != "Running it." || !reflect.DeepEqual(got.calls, want) || got.finish != "tool_calls" || !got.usage {
		t.Errorf("prompt %+v", got)
	}
	resp, out = post(string(reqs["tool_result"]))
	if got := readChatStream(t, resp, out); got.text != "After tool: probe-ran" || len(got.calls) != 0 || got.finish != "stop" {
		t.Errorf("tool result %+v", got)
	}

	// Not streamed: one chat.completion.
	_, out = post(strings.Replace(string(reqs["prompt"]), `"stream": true`, `"stream": false`, 1))
	var whole struct {
		Object  string
		Choices []struct {
			Message struct {
				Role      string
				Content   string
				ToolCalls []map[string]any `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	if err := json.Unmarshal([]byte(out), &whole); err != nil || whole.Object != "chat.completion" || len(whole.Choices) != 1 ||
		whole.Choices[0].FinishReason != "tool_calls" || len(whole.Choices[0].Message.ToolCalls) != 1 ||
		whole.Choices[0].Message.ToolCalls[0]["function"].(map[string]any)["arguments"] != `{"command":"echo probe-ran"}` {
		t.Errorf("not streamed: %s (%v)", out, err)
	}

	resp, out = post(`{"model":"fake-model","messages":[{"role":"user","content":"busy"}],"stream":true}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || !strings.Contains(out, `"code":"rate_limit_exceeded"`) {
		t.Errorf("a rate limit: %d %v %s", resp.StatusCode, resp.Header, out)
	}
	resp, out = post(`{"model":"fake-model","messages":[{"role":"user","content":"broken"}],"stream":true}`)
	if resp.StatusCode != 200 || !strings.Contains(out, "\ndata: {\"error\":{") || !strings.Contains(out, `"type":"server_error"`) {
		t.Errorf("an error in the stream: %d %s", resp.StatusCode, out)
	}

	var choices []string
	for _, r := range log.Requests() {
		choices = append(choices, r.Kind+":"+r.Choice+":"+r.Prompt+":"+r.Tool)
	}
	if got := strings.Join(choices, " | "); got != `title:title:: | main:keyword:run-ls:"please run-ls":bash | main:after-tool:: | `+
		`main:keyword:run-ls:"please run-ls":bash | main:keyword:busy:fail:1:busy: | main:keyword:broken:fail:1:broken:` {
		t.Errorf("log %s", got)
	}
}

// TestChatToolCatalog: the tools and required arguments OpenCode 1.18.33
// offers, as Chat's comment lists them.
func TestChatToolCatalog(t *testing.T) {
	var req struct {
		ToolChoice string `json:"tool_choice"`
		Tools      []struct {
			Type     string
			Function struct {
				Name       string
				Parameters struct{ Required []string }
			}
		}
	}
	if err := json.Unmarshal(opencodeRequests(t)["prompt"], &req); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range req.Tools {
		if tl.Type != "function" {
			t.Errorf("tool %s of type %q", tl.Function.Name, tl.Type)
		}
		got[tl.Function.Name] = strings.Join(tl.Function.Parameters.Required, ",")
	}
	want := map[string]string{"bash": "command", "read": "filePath", "write": "content,filePath",
		"edit": "filePath,oldString,newString", "glob": "pattern", "grep": "pattern",
		"task": "description,prompt,subagent_type", "webfetch": "url", "todowrite": "todos", "skill": "name"}
	if !reflect.DeepEqual(got, want) || req.ToolChoice != "auto" {
		t.Errorf("tools %v (tool_choice %q), want %v", got, req.ToolChoice, want)
	}
}

// chatStreamed is a stream folded as a client folds it: the text, the
// tool calls by index, the finish reason, whether usage came.
type chatStreamed struct {
	text   string
	calls  []chatCall
	finish string
	usage  bool
}

type chatCall struct{ id, typ, name, args string }

// readChatStream checks an SSE reply is chat.completion.chunk data lines
// of one id, the first with role assistant, ended by [DONE], and folds it.
func readChatStream(t *testing.T, resp *http.Response, body string) chatStreamed {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q: %s", resp.StatusCode, ct, body)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			lines = append(lines, d)
		}
	}
	if len(lines) < 3 || lines[len(lines)-1] != "[DONE]" {
		t.Fatalf("stream %q", body)
	}
	var out chatStreamed
	id := ""
	for i, d := range lines[:len(lines)-1] {
		var c struct {
			ID, Object string
			Choices    []struct {
				Delta struct {
					Role, Content string
					ToolCalls     []struct {
						Index    int
						ID, Type string
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason *string `json:"finish_reason"`
			}
			Usage *struct {
				TotalTokens int `json:"total_tokens"`
			}
		}
		if err := json.Unmarshal([]byte(d), &c); err != nil || c.Object != "chat.completion.chunk" || (id != "" && c.ID != id) {
			t.Fatalf("chunk %d %q: %v", i, d, err)
		}
		id = c.ID
		if c.Usage != nil {
			out.usage = len(c.Choices) == 0 && c.Usage.TotalTokens > 0
			continue
		}
		if len(c.Choices) != 1 || (i == 0) != (c.Choices[0].Delta.Role == "assistant") {
			t.Fatalf("chunk %d %q", i, d)
		}
		ch := c.Choices[0]
		out.text += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Index == len(out.calls) {
				out.calls = append(out.calls, chatCall{id: tc.ID, typ: tc.Type, name: tc.Function.Name})
			}
			out.calls[tc.Index].args += tc.Function.Arguments
		}
		if ch.FinishReason != nil {
			out.finish = *ch.FinishReason
		}
	}
	return out
}
