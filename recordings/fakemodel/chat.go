package fakemodel

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Chat serves the OpenAI Chat Completions API for OpenCode (a provider of
// npm "@ai-sdk/openai-compatible" whose baseURL is this server's URL +
// "/v1"):
//
//	POST /v1/chat/completions   SSE chunks when "stream": true, else one JSON reply
//
// A request whose system prompt starts "You are a title generator" is
// OpenCode's session title: it gets the prompt's first words, never a tool
// call. A request whose newest message has role "tool" gets the Script's
// after-tool reply; any other is a prompt (the text of the newest user
// message). A ToolCall is an assistant tool_calls entry of type
// "function", its arguments a JSON string; the stream ends with
// finish_reason "tool_calls" or "stop", a usage chunk when
// stream_options.include_usage, and "data: [DONE]". A Failure is an
// OpenAI error body ({"error": {"message", "type", "param", "code"}}); a
// usage limit is the platform's insufficient_quota (ResetIn unused);
// InStream sends it as a data line after the stream's first chunk.
//
// The tools OpenCode 1.18.33 offers this model, as its request's "tools"
// name them, required arguments first, optional ones in brackets
// (testdata/opencode-1.18.33-chat.json, docs/research/gemini-opencode-offline.md):
//
//	bash       command [timeout, workdir]
//	read       filePath [offset, limit]
//	write      content, filePath
//	edit       filePath, oldString, newString [replaceAll]
//	glob       pattern [path]
//	grep       pattern [path, include]
//	task       description, prompt, subagent_type [task_id, command]
//	webfetch   url [format, timeout]
//	todowrite  todos: [{content, status, priority}]
//	skill      name
//
// An argument it does not know is kept, not refused (bash ran
// {"command", "description"}). `opencode run "please run-ls"` sends the
// prompt in quotes (it quotes an argument with a space), so the logged
// Prompt has them; a Keyword matches inside.
func Chat(script Script, log *Log, lg *slog.Logger) (*Server, error) {
	return serve(&chat{api: api{choose: newChooser(script), log: log}}, log, lg)
}

type chat struct {
	api
	seq atomic.Int64
}

// chatMessage is the part of a request message the fake reads; content
// is a string or a list of {"type": "text", "text"} parts.
type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// titlePrompt starts the system prompt of OpenCode's title request.
const titlePrompt = "You are a title generator"

func (c *chat) answer(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions") {
		c.complete(w, r, seq, body)
		return
	}
	c.log.fixed(w, seq, http.StatusNotFound, fmt.Sprintf(`{"error":{"message":"fake server: no %s %s","type":"invalid_request_error","param":null,"code":null}}`, r.Method, r.URL.Path))
}

func (c *chat) complete(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	var cr struct {
		Model         string        `json:"model"`
		Stream        bool          `json:"stream"`
		Messages      []chatMessage `json:"messages"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &cr); err != nil {
		c.log.fixed(w, seq, http.StatusBadRequest, `{"error":{"message":"fake server: bad JSON","type":"invalid_request_error","param":null,"code":null}}`)
		return
	}
	reply, kind, choice, prompt := c.choose1(cr.Messages)
	n := c.seq.Add(1)
	if reply.fail != nil {
		f := chatFailure(*reply.fail, fmt.Sprintf("req_fake%04d", n))
		defer c.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt, q.Status = kind, choice, prompt, f.status })
		if reply.fail.InStream && cr.Stream {
			s := newSSE(w)
			s.data(mustJSON(chatChunk(fmt.Sprintf("chatcmpl-fake%04d", n), cr.Model, map[string]any{"role": "assistant", "content": ""}, nil)))
			s.data(mustJSON(f.body))
			return
		}
		f.write(w)
		return
	}
	defer c.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt = kind, choice, prompt; logTool(q, reply) })
	id := fmt.Sprintf("chatcmpl-fake%04d", n)
	if !cr.Stream {
		if !sleep(r.Context(), reply.FirstDelay) {
			return
		}
		msg := map[string]any{"role": "assistant", "content": nil}
		if reply.Text != "" {
			msg["content"] = reply.Text
		}
		if reply.Tool != nil {
			msg["tool_calls"] = []any{chatToolCall(id, reply.Tool, true)}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": cr.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": chatFinish(reply)}}, "usage": chatUsage()})
		return
	}
	c.stream(w, r, reply, id, cr.Model, cr.StreamOptions.IncludeUsage)
}

// choose1 classifies the request (title, or the main loop's prompt or
// tool result) and picks the reply.
func (c *chat) choose1(msgs []chatMessage) (Reply, string, string, string) {
	prompt := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			prompt = strings.TrimSpace(contentText(msgs[i].Content))
			break
		}
	}
	if len(msgs) > 0 && msgs[0].Role == "system" && strings.HasPrefix(strings.TrimSpace(contentText(msgs[0].Content)), titlePrompt) {
		return Reply{Text: titleOf(prompt)}, "title", "title", ""
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == "tool" {
		rep, choice := c.choose.toolResult(contentText(msgs[n-1].Content), false)
		return rep, "main", choice, ""
	}
	rep, choice := c.choose.prompt(prompt)
	return rep, "main", choice, prompt
}

// titleOf is a title from a prompt: its first five words.
func titleOf(prompt string) string {
	ws := strings.Fields(prompt)
	if len(ws) == 0 {
		return "Fake session"
	}
	return strings.Join(ws[:min(5, len(ws))], " ")
}

// stream sends the reply as chat.completion.chunk events: the role, the
// text deltas, the tool call (its head, then its arguments), the finish,
// the usage when asked, and [DONE].
func (c *chat) stream(w http.ResponseWriter, r *http.Request, reply Reply, id, model string, usage bool) {
	ctx := r.Context()
	s := newSSE(w)
	delta := func(d map[string]any, finish any) { s.data(mustJSON(chatChunk(id, model, d, finish))) }
	delta(map[string]any{"role": "assistant", "content": ""}, nil)
	if !sleep(ctx, reply.FirstDelay) {
		return
	}
	for _, wd := range chunks(reply.Text, reply.ChunkDelay > 0) {
		delta(map[string]any{"content": wd}, nil)
		if !sleep(ctx, reply.ChunkDelay) {
			return
		}
	}
	if reply.Tool != nil {
		delta(map[string]any{"tool_calls": []any{chatToolCall(id, reply.Tool, false)}}, nil)
		args := string(mustJSON(reply.Tool.Input))
		delta(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": args}}}}, nil)
	}
	delta(map[string]any{}, chatFinish(reply))
	if usage {
		u := chatChunk(id, model, nil, nil)
		u["choices"], u["usage"] = []any{}, chatUsage()
		s.data(mustJSON(u))
	}
	s.data([]byte("[DONE]"))
}

// chatChunk is one chat.completion.chunk with one choice.
func chatChunk(id, model string, delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
}

// chatToolCall is the reply's tool call as a tool_calls entry; a stream's
// first delta carries its arguments empty (they follow), a whole message
// carries them all.
func chatToolCall(id string, t *ToolCall, whole bool) map[string]any {
	args := ""
	if whole {
		args = string(mustJSON(t.Input))
	}
	call := map[string]any{"id": "call_" + strings.TrimPrefix(id, "chatcmpl-") + "_0", "type": "function",
		"function": map[string]any{"name": t.Name, "arguments": args}}
	if !whole {
		call["index"] = 0
	}
	return call
}

func chatFinish(r Reply) string {
	if r.Tool != nil {
		return "tool_calls"
	}
	return "stop"
}

func chatUsage() map[string]int {
	return map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
}

// chatFailure shapes f as the Chat Completions API sends it: the
// Responses API's error, except that a usage limit is the platform's
// insufficient_quota (an API key's credits, not a plan's window).
func chatFailure(f Failure, reqID string) failureShape {
	s := responsesFailure(f, time.Now(), reqID)
	if f.Kind == FailUsageLimit {
		s.body = map[string]any{"error": map[string]any{"type": "insufficient_quota", "code": "insufficient_quota", "param": nil,
			"message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."}}
	}
	return s
}
