package fakemodel

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

// Anthropic serves the Messages API for Claude Code:
//
//	HEAD /api/hello (and any HEAD)     200
//	POST /v1/messages[?beta=true]      SSE when "stream": true, else JSON
//	POST /v1/messages/count_tokens     {"input_tokens": 100}
//
// A main-loop request (mainTool: its tools include one only a main loop
// offers) gets the Script's reply; side requests (session titles, topic
// checks) get short fixed text.
func Anthropic(script Script, log *Log, lg *slog.Logger) (*Server, error) {
	return serve(&anthropic{api: api{choose: newChooser(script), log: log}}, log, lg)
}

type anthropic struct {
	api
	ids atomic.Int64
}

func (a *anthropic) id(prefix string) string {
	return fmt.Sprintf("%s_fake%06d", prefix, a.ids.Add(1))
}

func (a *anthropic) answer(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	switch {
	case r.Method == http.MethodHead:
		a.log.done(seq, nil)
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		a.log.fixed(w, seq, http.StatusOK, `{"input_tokens":100}`)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		a.messages(w, r, seq, body)
	default:
		a.log.fixed(w, seq, http.StatusNotFound, fmt.Sprintf(`{"type":"error","error":{"type":"not_found_error","message":"fake server: no %s"}}`, r.URL.Path))
	}
}

// messagesRequest is the part of a Messages request the fake reads.
type messagesRequest struct {
	Model    string                  `json:"model"`
	Stream   bool                    `json:"stream"`
	System   json.RawMessage         `json:"system"`
	Tools    []struct{ Name string } `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// block is a content block, in requests and replies.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     any             `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

func (a *anthropic) messages(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	var mr messagesRequest
	if err := json.Unmarshal(body, &mr); err != nil {
		a.log.done(seq, nil)
		http.Error(w, "fake server: bad JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	reply, kind, choice, prompt := a.choose1(&mr)
	if reply.fail != nil {
		f := anthropicFailure(*reply.fail, time.Now(), a.id("req"))
		defer a.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt, q.Status = kind, choice, prompt, f.status })
		if reply.fail.InStream && mr.Stream {
			a.streamError(w, mr.Model, f)
			return
		}
		f.write(w)
		return
	}
	blocks := a.blocks(reply)
	defer a.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt = kind, choice, prompt; logTool(q, reply) })
	stop := "end_turn"
	if reply.Tool != nil {
		stop = "tool_use"
	}
	model := mr.Model
	if model == "" {
		model = "fake-model"
	}
	if !mr.Stream {
		if !sleep(r.Context(), reply.FirstDelay) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": a.id("msg"), "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 42, "output_tokens": 12},
		})
		return
	}
	a.stream(w, r, model, blocks, stop, reply)
}

// choose1 classifies the request and picks its reply.
func (a *anthropic) choose1(mr *messagesRequest) (Reply, string, string, string) {
	main := false
	for _, t := range mr.Tools {
		main = main || mainTool(t.Name)
	}
	if !main {
		sys := string(mr.System)
		switch {
		case strings.Contains(sys, "isNewTopic"):
			return Reply{Text: `{"isNewTopic": false, "title": null}`}, "side", "topic", ""
		case strings.Contains(strings.ToLower(sys), "title") && strings.Contains(strings.ToLower(sys), "json"):
			return Reply{Text: `{"title": "Fake session"}`}, "title", "title", ""
		}
		return Reply{Text: "Fake session"}, "side", "side", ""
	}
	var content json.RawMessage
	for i := len(mr.Messages) - 1; i >= 0; i-- {
		if mr.Messages[i].Role == "user" && !hostContext(mr.Messages[i].Content) {
			content = mr.Messages[i].Content
			break
		}
	}
	prompt, results, isErr := userContent(content)
	if len(a.choose.script.Rules) > 0 {
		rep, choice := decide(a.choose.script.Rules, conversation(mr, prompt, len(results) > 0))
		return rep, "main", choice, prompt
	}
	if prompt == "" && len(results) > 0 {
		rep, choice := a.choose.toolResult(strings.Join(results, "\n"), isErr)
		return rep, "main", choice, ""
	}
	rep, choice := a.choose.prompt(prompt)
	return rep, "main", choice, prompt
}

// conversation is the request as rules read it: every tool_use of the
// assistant's messages with the tool_result that answers it, the newest
// prompt unless the newest user message carries tool results, the newest
// prompt of all (Asked) and the tools offered.
func conversation(mr *messagesRequest, prompt string, results bool) Conversation {
	var c Conversation
	if !results {
		c.Prompt = prompt
	}
	for _, t := range mr.Tools {
		c.Tools = append(c.Tools, t.Name)
	}
	at := map[string]int{}
	for _, m := range mr.Messages {
		if m.Role == "user" && !hostContext(m.Content) {
			if p, _, _ := userContent(m.Content); p != "" {
				c.Asked = p
			}
		}
		var bs []block
		if json.Unmarshal(m.Content, &bs) != nil {
			continue // a plain-text message
		}
		for _, b := range bs {
			switch {
			case m.Role == "assistant" && b.Type == "tool_use":
				at[b.ID] = len(c.Calls)
				c.Calls = append(c.Calls, Call{Name: b.Name})
			case m.Role == "user" && b.Type == "tool_result":
				if i, ok := at[b.ToolUseID]; ok {
					c.Calls[i].Result, c.Calls[i].IsError, c.Calls[i].Done = resultText(b.Content), b.IsError, true
				}
			}
		}
	}
	return c
}

var reminder = regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>`)

// userContent reads a user message: its prompt text (reminders and
// interruption notes removed) and its tool results. A prompt typed after a
// rejected tool arrives in the same message as the rejection.
func userContent(raw json.RawMessage) (prompt string, results []string, isErr bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return cleanPrompt(s), nil, false
	}
	var bs []block
	_ = json.Unmarshal(raw, &bs)
	var texts []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_result":
			results = append(results, resultText(b.Content))
			isErr = isErr || b.IsError
		}
	}
	return cleanPrompt(strings.Join(texts, "\n")), results, isErr
}

func cleanPrompt(s string) string {
	s = openclawStamp.ReplaceAllString(reminder.ReplaceAllString(s, ""), "")
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "[Request interrupted") {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return structuredResult(s)
	}
	var bs []block
	_ = json.Unmarshal(raw, &bs)
	var texts []string
	for _, b := range bs {
		texts = append(texts, b.Text)
	}
	return structuredResult(strings.Join(texts, "\n"))
}

func (a *anthropic) blocks(r Reply) []block {
	var bs []block
	if r.Text != "" || r.Tool == nil {
		bs = append(bs, block{Type: "text", Text: r.Text})
	}
	if r.Tool != nil {
		bs = append(bs, block{Type: "tool_use", ID: a.id("toolu"), Name: r.Tool.Name, Input: r.Tool.Input})
	}
	return bs
}

func (a *anthropic) stream(w http.ResponseWriter, r *http.Request, model string, blocks []block, stop string, reply Reply) {
	ctx := r.Context()
	s := newSSE(w)
	ev := func(name string, v map[string]any) {
		v["type"] = name
		b, _ := json.Marshal(v)
		s.event(name, b)
	}
	ev("message_start", map[string]any{"message": map[string]any{
		"id": a.id("msg"), "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 42, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	ev("ping", map[string]any{})
	if !sleep(ctx, reply.FirstDelay) {
		return
	}
	n := 0
	for i, b := range blocks {
		switch b.Type {
		case "text":
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, part := range chunks(b.Text, reply.ChunkDelay > 0) {
				ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
				n++
				if !sleep(ctx, reply.ChunkDelay) {
					return
				}
			}
		case "tool_use":
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			js, _ := json.Marshal(b.Input)
			for j := 0; j < len(js); j += 40 {
				ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
					"type": "input_json_delta", "partial_json": string(js[j:min(j+40, len(js))])}})
				n++
			}
		}
		ev("content_block_stop", map[string]any{"index": i})
	}
	ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 10 + n}})
	ev("message_stop", map[string]any{})
}

// streamError starts a stream and breaks it off with the API's error
// event, as the Messages API does when it fails after the 200.
func (a *anthropic) streamError(w http.ResponseWriter, model string, f failureShape) {
	for k, vs := range f.header {
		w.Header()[k] = vs
	}
	s := newSSE(w)
	start, _ := json.Marshal(map[string]any{"type": "message_start", "message": map[string]any{
		"id": a.id("msg"), "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 42, "output_tokens": 1}}})
	s.event("message_start", start)
	body := map[string]any{"type": "error", "error": f.body["error"]}
	b, _ := json.Marshal(body)
	s.event("error", b)
}

// chunks cuts text into a few deltas, or one word each when paced.
func chunks(text string, perWord bool) []string {
	ws := words(text)
	if perWord || len(ws) <= 4 {
		return ws
	}
	per := (len(ws) + 3) / 4
	var out []string
	for i := 0; i < len(ws); i += per {
		out = append(out, strings.Join(ws[i:min(i+per, len(ws))], ""))
	}
	return out
}
