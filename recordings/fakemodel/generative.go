package fakemodel

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
)

// GenerativeLanguage serves the Gemini API (generativelanguage.googleapis.com)
// for Gemini CLI (GOOGLE_GEMINI_BASE_URL):
//
//	POST /v1beta/models/M:streamGenerateContent?alt=sse   the main loop: SSE chunks
//	POST /v1beta/models/M:generateContent                 side calls (the model
//	                                                      router, checks): one JSON reply
//	POST /v1beta/models/M:countTokens                     {"totalTokens": 100}
//
// A main-loop request whose newest user content carries a functionResponse
// gets the Script's after-tool reply; any other is a prompt (the text of
// the newest user content). A ToolCall is a functionCall part.
// (docs/research/gemini-opencode-offline.md: what Gemini CLI 0.61.0 sends.)
func GenerativeLanguage(script Script, log *Log, lg *slog.Logger) (*Server, error) {
	return serve(&generative{api: api{choose: newChooser(script), log: log}}, log, lg)
}

type generative struct {
	api
}

// glPart is a content part, in requests and replies.
type glPart struct {
	Text             string          `json:"text,omitempty"`
	FunctionCall     *glCall         `json:"functionCall,omitempty"`
	FunctionResponse json.RawMessage `json:"functionResponse,omitempty"`
}

type glCall struct {
	Name string `json:"name"`
	Args any    `json:"args"`
}

type glContent struct {
	Role  string   `json:"role"`
	Parts []glPart `json:"parts"`
}

func (g *generative) answer(w http.ResponseWriter, r *http.Request, seq int, body []byte) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	switch {
	case r.Method == http.MethodPost && method == "countTokens":
		g.log.fixed(w, seq, http.StatusOK, `{"totalTokens":100}`)
	case r.Method == http.MethodPost && (method == "streamGenerateContent" || method == "generateContent"):
		g.generate(w, r, seq, body, method == "streamGenerateContent")
	default:
		g.log.fixed(w, seq, http.StatusNotFound, fmt.Sprintf(`{"error":{"code":404,"message":"fake server: no %s","status":"NOT_FOUND"}}`, r.URL.Path))
	}
}

func (g *generative) generate(w http.ResponseWriter, r *http.Request, seq int, body []byte, stream bool) {
	var gr struct {
		Contents         []glContent `json:"contents"`
		GenerationConfig struct {
			ResponseSchema     json.RawMessage `json:"responseSchema"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &gr); err != nil {
		g.log.done(seq, nil)
		http.Error(w, `{"error":{"code":400,"message":"fake server: bad JSON"}}`, http.StatusBadRequest)
		return
	}
	schema := gr.GenerationConfig.ResponseJSONSchema
	if len(schema) == 0 {
		schema = gr.GenerationConfig.ResponseSchema
	}
	reply, kind, choice, prompt := g.choose1(gr.Contents, stream, schema)
	if reply.fail != nil {
		f := glFailure(*reply.fail)
		defer g.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt, q.Status = kind, choice, prompt, f.status })
		f.write(w)
		return
	}
	defer g.log.done(seq, func(q *Request) { q.Kind, q.Choice, q.Prompt = kind, choice, prompt; logTool(q, reply) })
	var parts []glPart
	if reply.Text != "" {
		parts = append(parts, glPart{Text: reply.Text})
	}
	if reply.Tool != nil {
		parts = append(parts, glPart{FunctionCall: &glCall{Name: reply.Tool.Name, Args: reply.Tool.Input}})
	}
	if !sleep(r.Context(), reply.FirstDelay) {
		return
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(glChunk(parts, true))
		return
	}
	s := newSSE(w)
	// Text a word a chunk when paced, then the call and the finish.
	if reply.ChunkDelay > 0 && reply.Text != "" {
		for _, wd := range words(reply.Text) {
			s.data(mustJSON(glChunk([]glPart{{Text: wd}}, false)))
			if !sleep(r.Context(), reply.ChunkDelay) {
				return
			}
		}
		parts = parts[1:]
	}
	s.data(mustJSON(glChunk(parts, true)))
}

// choose1 classifies the request: a streamed one is the main loop, a
// single one a side call (the router asks which model, a check asks who
// speaks next); it picks the reply.
func (g *generative) choose1(contents []glContent, stream bool, schema json.RawMessage) (Reply, string, string, string) {
	if !stream {
		// The side calls ask for JSON of a schema (the router's
		// complexity_score, the next speaker): the least of each.
		return Reply{Text: string(mustJSON(fillSchema(schema)))}, "side", "side", ""
	}
	var last *glContent
	for i := len(contents) - 1; i >= 0; i-- {
		if contents[i].Role == "user" {
			last = &contents[i]
			break
		}
	}
	if last == nil {
		rep, choice := g.choose.prompt("")
		return rep, "main", choice, ""
	}
	var texts, results []string
	for _, p := range last.Parts {
		switch {
		case p.FunctionResponse != nil:
			results = append(results, string(p.FunctionResponse))
		case strings.HasPrefix(p.Text, "<session_context>"):
			// The CLI's own context, sent with the first prompt.
		case p.Text != "":
			texts = append(texts, p.Text)
		}
	}
	if len(results) > 0 {
		rep, choice := g.choose.toolResult(strings.Join(results, "\n"), false)
		return rep, "main", choice, ""
	}
	prompt := strings.TrimSpace(strings.Join(texts, "\n"))
	rep, choice := g.choose.prompt(prompt)
	return rep, "main", choice, prompt
}

// fillSchema is the least value of a JSON schema (OpenAPI or JSON Schema
// style): an object of its properties, an enum's first value, "fake", 1,
// false; nil for no schema.
func fillSchema(raw json.RawMessage) any {
	var sc struct {
		Type       any                        `json:"type"`
		Enum       []any                      `json:"enum"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &sc) != nil {
		return map[string]any{}
	}
	if len(sc.Enum) > 0 {
		return sc.Enum[0]
	}
	switch strings.ToLower(fmt.Sprint(sc.Type)) {
	case "string":
		return "fake"
	case "number", "integer":
		return 1
	case "boolean":
		return false
	case "array":
		return []any{}
	}
	out := map[string]any{}
	for k, v := range sc.Properties {
		out[k] = fillSchema(v)
	}
	return out
}

// glChunk is one GenerateContentResponse; the last carries the
// finish reason and the usage.
func glChunk(parts []glPart, last bool) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	out := map[string]any{"candidates": []any{cand}, "modelVersion": "fake-model"}
	if last {
		cand["finishReason"] = "STOP"
		out["usageMetadata"] = map[string]int{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
	}
	return out
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// glFailure shapes f as the Gemini API sends an error: {"error":
// {"code", "message", "status"}} (RESOURCE_EXHAUSTED for a limit,
// UNAVAILABLE for an overload, INTERNAL else), with retry-after when set.
func glFailure(f Failure) failureShape {
	s := failureShape{header: http.Header{}, status: http.StatusInternalServerError}
	status, msg := "INTERNAL", "An internal error has occurred."
	switch f.Kind {
	case FailRateLimit, FailUsageLimit:
		s.status, status, msg = http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."
	case FailOverloaded:
		s.status, status, msg = http.StatusServiceUnavailable, "UNAVAILABLE", "The model is overloaded. Please try again later."
	}
	if f.Status != 0 {
		s.status = f.Status
	}
	if f.RetryAfter > 0 {
		s.header.Set("Retry-After", fmt.Sprint(f.RetryAfter))
	}
	s.body = map[string]any{"error": map[string]any{"code": s.status, "message": msg, "status": status}}
	return s
}
