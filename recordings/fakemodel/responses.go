package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Responses serves the OpenAI Responses API for Codex:
//
//	POST /v1/responses   SSE (response.created ... response.completed)
//	GET  /v1/models      a one-model list
//
// A request whose newest input item is a tool output gets the Script's
// after-tool reply; Codex's task-title request gets a short title; any
// other request is a main-loop prompt. A ToolCall marked Custom is sent as
// a custom_tool_call (freeform input). A tool call whose name the request
// did not offer is still sent (the agent then reports the unknown tool):
// scenarios choose tools their model's catalog has.
func Responses(script Script, log *Log, lg *slog.Logger) (*Server, error) {
	return serve(&responses{api: api{choose: newChooser(script), log: log}}, log, lg)
}

type responses struct {
	api
	seq atomic.Int64
}

func (o *responses) answer(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		o.respond(w, r, seq, body)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		o.log.fixed(w, seq, http.StatusOK, `{"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"fake"}],"models":[]}`)
	default:
		o.log.fixed(w, seq, http.StatusNotFound, `{"error":{"message":"not found in fake server","type":"not_found"}}`)
	}
}

// inputItem is the part of a Responses input item the fake reads.
type inputItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Output  json.RawMessage `json:"output"`
}

func (o *responses) respond(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	var rr struct {
		Model string      `json:"model"`
		Input []inputItem `json:"input"`
	}
	if err := json.Unmarshal(body, &rr); err != nil {
		o.log.done(seq, nil)
		http.Error(w, "fake server: bad JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	reply, kind, choice, prompt := o.choose1(rr.Input)
	if reply.fail != nil {
		f := responsesFailure(*reply.fail, time.Now(), fmt.Sprintf("req_fake%04d", o.seq.Add(1)))
		defer o.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt, q.Status = kind, choice, prompt, f.status })
		if reply.fail.InStream {
			o.streamFailed(w, f)
			return
		}
		f.write(w)
		return
	}
	defer o.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt = kind, choice, prompt; logTool(q, reply) })
	o.stream(w, r, reply)
}

func (o *responses) choose1(input []inputItem) (Reply, string, string, string) {
	if n := len(input); n > 0 && strings.HasSuffix(input[n-1].Type, "_output") {
		out := outputText(input[n-1].Output)
		rep, choice := o.choose.toolResult(out, false)
		return rep, "main", choice, ""
	}
	prompt := lastUserText(input)
	if strings.HasPrefix(strings.ToLower(prompt), "generate a concise") {
		_, p, _ := strings.Cut(prompt, "User prompt:")
		return Reply{Text: "Fake task " + clip(p, 24)}, "title", "title", ""
	}
	rep, choice := o.choose.prompt(prompt)
	return rep, "main", choice, prompt
}

// questionReply starts the user message that carries answers to
// request_user_input_async on Codex 0.171.0: a JSON list of
// {answer, question, questionItemId} inside this tag.
const questionReply = "<send_user_message_question_reply>"

// lastUserText is the text of the newest user message that is not an
// injected context block (environment_context, AGENTS.md, ...). Codex
// 0.171.0's answer to an async question looks like such a block but is
// the user's own words (questionReply).
func lastUserText(input []inputItem) string {
	for i := len(input) - 1; i >= 0; i-- {
		it := input[i]
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		t := strings.TrimSpace(contentText(it.Content))
		if strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "<image") && !strings.HasPrefix(t, questionReply) {
			continue
		}
		return t
	}
	return ""
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// outputText is a tool output's text: a string, or the text of its
// content items (a custom tool's output is a list of input_text items).
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Type, Text string
	}
	if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
		var b strings.Builder
		for _, it := range items {
			b.WriteString(it.Text)
		}
		return b.String()
	}
	return string(raw)
}

func (o *responses) stream(w http.ResponseWriter, r *http.Request, reply Reply) {
	ctx := r.Context()
	id := fmt.Sprintf("resp_fake%04d", o.seq.Add(1))
	s := newSSE(w)
	ev := func(v map[string]any) {
		b, _ := json.Marshal(v)
		s.event(v["type"].(string), b)
	}
	resp := func(status string, extra map[string]any) map[string]any {
		m := map[string]any{"id": id, "object": "response", "status": status, "output": []any{}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	ev(map[string]any{"type": "response.created", "response": resp("in_progress", nil)})
	ev(map[string]any{"type": "response.in_progress", "response": resp("in_progress", nil)})
	if !sleep(ctx, reply.FirstDelay) {
		return
	}
	idx := 0
	if reply.Text != "" || reply.Tool == nil {
		if !o.text(ctx, ev, id, idx, reply) {
			return
		}
		idx++
	}
	if reply.Tool != nil && reply.Tool.Custom {
		input, _ := reply.Tool.Input.(string)
		item := map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%s_%d", id, idx),
			"call_id": fmt.Sprintf("call_%s_%d", id, idx), "name": reply.Tool.Name, "status": "in_progress", "input": ""}
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": item})
		ev(map[string]any{"type": "response.custom_tool_call_input.delta", "item_id": item["id"], "output_index": idx, "delta": input})
		ev(map[string]any{"type": "response.custom_tool_call_input.done", "item_id": item["id"], "output_index": idx, "input": input})
		done := map[string]any{}
		for k, v := range item {
			done[k] = v
		}
		done["status"], done["input"] = "completed", input
		ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
	} else if reply.Tool != nil {
		args, _ := json.Marshal(reply.Tool.Input)
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%s_%d", id, idx),
			"call_id": fmt.Sprintf("call_%s_%d", id, idx), "name": reply.Tool.Name, "status": "in_progress", "arguments": ""}
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": item})
		ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": item["id"], "output_index": idx, "delta": string(args)})
		ev(map[string]any{"type": "response.function_call_arguments.done", "item_id": item["id"], "output_index": idx, "arguments": string(args)})
		done := map[string]any{}
		for k, v := range item {
			done[k] = v
		}
		done["status"], done["arguments"] = "completed", string(args)
		ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
	}
	ev(map[string]any{"type": "response.completed", "response": resp("completed", map[string]any{"usage": map[string]any{
		"input_tokens": 100, "input_tokens_details": map[string]int{"cached_tokens": 0},
		"output_tokens": 20, "output_tokens_details": map[string]int{"reasoning_tokens": 0}, "total_tokens": 120}})})
}

// streamFailed starts a response and ends it with response.failed
// carrying the error, as the Responses API does when it fails after the
// 200.
func (o *responses) streamFailed(w http.ResponseWriter, f failureShape) {
	id := fmt.Sprintf("resp_fake%04d", o.seq.Add(1))
	s := newSSE(w)
	ev := func(v map[string]any) {
		b, _ := json.Marshal(v)
		s.event(v["type"].(string), b)
	}
	resp := map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}
	ev(map[string]any{"type": "response.created", "response": resp})
	failed := map[string]any{"id": id, "object": "response", "status": "failed", "output": []any{}, "error": f.body["error"]}
	ev(map[string]any{"type": "response.failed", "response": failed})
}

// text streams one assistant message; false if the client went away.
func (o *responses) text(ctx context.Context, ev func(map[string]any), id string, idx int, reply Reply) bool {
	msgID := "msg_" + id
	ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": map[string]any{
		"type": "message", "id": msgID, "role": "assistant", "status": "in_progress", "content": []any{}}})
	ev(map[string]any{"type": "response.content_part.added", "item_id": msgID, "output_index": idx, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
	for _, wd := range chunks(reply.Text, reply.ChunkDelay > 0) {
		ev(map[string]any{"type": "response.output_text.delta", "item_id": msgID, "output_index": idx, "content_index": 0, "delta": wd})
		if !sleep(ctx, reply.ChunkDelay) {
			return false
		}
	}
	ev(map[string]any{"type": "response.output_text.done", "item_id": msgID, "output_index": idx, "content_index": 0, "text": reply.Text})
	ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": map[string]any{
		"type": "message", "id": msgID, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}}}})
	return true
}
