package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestGemini: the requests Gemini CLI 0.61.0 sent to this fake (its model
// router's single call with a response schema, then the main loop's
// stream, a function call and its response), answered as the Gemini API
// does; the CLI ran a shell command through it offline
// (docs/research/gemini-opencode-offline.md).
func TestGenerativeLanguage(t *testing.T) {
	log := NewLog(nil)
	srv, err := GenerativeLanguage(Script{Keywords: []Keyword{
		{Word: "run-ls", Reply: Reply{Tool: &ToolCall{Name: "run_shell_command", Input: map[string]any{"command": "ls"}}}},
		{Word: "busy", Fail: &Failure{Kind: FailRateLimit, RetryAfter: 7}},
	}}, log, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post := func(path, body string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Post(srv.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	// The router: one JSON reply that fits its schema.
	_, out := post("/v1beta/models/gemini-3.5-flash-lite:generateContent", `{"contents":[{"role":"user","parts":[{"text":"x"}]}],
		"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{
		"complexity_reasoning":{"type":"string"},"complexity_score":{"type":"integer"}},"required":["complexity_reasoning","complexity_score"]}}}`)
	var side struct {
		Candidates []struct {
			Content struct{ Parts []glPart }
		}
	}
	if err := json.Unmarshal([]byte(out), &side); err != nil || len(side.Candidates) != 1 ||
		side.Candidates[0].Content.Parts[0].Text != `{"complexity_reasoning":"fake","complexity_score":1}` {
		t.Fatalf("router reply %s (%v)", out, err)
	}

	// The main loop: the prompt is the user's text, not the CLI's context.
	resp, out := post("/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[
		{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"},{"text":"please run-ls"}]}]}`)
	call := lastChunk(t, resp, out)
	if p := call.Candidates[0].Content.Parts; len(p) != 1 || p[0].FunctionCall == nil || p[0].FunctionCall.Name != "run_shell_command" ||
		call.Candidates[0].FinishReason != "STOP" {
		t.Fatalf("function call chunk %s", out)
	}
	resp, out = post("/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"please run-ls"}]},
		{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"ls"}}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"a.go"}}}]}]}`)
	if p := lastChunk(t, resp, out).Candidates[0].Content.Parts; len(p) != 1 || !strings.HasPrefix(p[0].Text, "Tool result received") {
		t.Fatalf("after the function response %s", out)
	}

	resp, out = post("/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"busy"}]}]}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(out, `"RESOURCE_EXHAUSTED"`) {
		t.Errorf("a rate limit: %d %v %s", resp.StatusCode, resp.Header, out)
	}
	var choices []string
	for _, r := range log.Requests() {
		choices = append(choices, r.Kind+":"+r.Choice+":"+r.Prompt)
	}
	if got := strings.Join(choices, " | "); got != "side:side: | main:keyword:run-ls:please run-ls | main:after-tool: | main:keyword:busy:fail:1:busy" {
		t.Errorf("log %s", got)
	}
}

type chunk struct {
	Candidates []struct {
		Content      struct{ Parts []glPart }
		FinishReason string
	}
}

// lastChunk reads an SSE stream's data lines and returns the last one.
func lastChunk(t *testing.T, resp *http.Response, body string) chunk {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var last chunk
	sc := bufio.NewScanner(strings.NewReader(body))
	n := 0
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			if err := json.Unmarshal([]byte(d), &last); err != nil {
				t.Fatalf("chunk %q: %v", d, err)
			}
			n++
		}
	}
	if n == 0 || len(last.Candidates) != 1 {
		t.Fatalf("stream %q", body)
	}
	return last
}
