package fakemodel

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post posts body and returns a plain reply, or the SSE events as "name data" lines.
func post(t *testing.T, url, body string) (string, []string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		return string(b), nil
	}
	var evs []string
	sc := bufio.NewScanner(resp.Body)
	name := ""
	for sc.Scan() {
		l := sc.Text()
		if n, ok := strings.CutPrefix(l, "event: "); ok {
			name = n
		} else if d, ok := strings.CutPrefix(l, "data: "); ok {
			evs = append(evs, name+" "+d)
		}
	}
	return "", evs
}

func TestAnthropicToolUseStream(t *testing.T) {
	log := NewLog(nil)
	input := map[string]any{"command": "touch fake-created.txt", "description": "Create an empty file"}
	s, err := Anthropic(Script{Keywords: []Keyword{{Word: "run-touch", Reply: Reply{Tool: &ToolCall{Name: "Bash", Input: input}}}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("url %s", s.URL())
	}
	resp, err := http.Head(s.URL() + "/api/hello")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("HEAD /api/hello: %v %v", err, resp)
	}
	main := `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>please run-touch"}]}]}`
	_, evs := post(t, s.URL()+"/v1/messages?beta=true", main)
	var js string
	for _, e := range evs {
		if strings.HasPrefix(e, "content_block_delta ") {
			var v struct {
				Delta struct {
					Type        string `json:"type"`
					PartialJSON string `json:"partial_json"`
				} `json:"delta"`
			}
			json.Unmarshal([]byte(strings.TrimPrefix(e, "content_block_delta ")), &v)
			if v.Delta.Type != "input_json_delta" {
				t.Errorf("delta type %q", v.Delta.Type)
			}
			js += v.Delta.PartialJSON
		}
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(js), &got); err != nil || got["command"] != "touch fake-created.txt" {
		t.Errorf("tool input %q: %v", js, err)
	}
	first, last := strings.Fields(evs[0])[0], strings.Fields(evs[len(evs)-1])[0]
	if first != "message_start" || last != "message_stop" || !strings.Contains(strings.Join(evs, "\n"), `"stop_reason":"tool_use"`) {
		t.Errorf("events %v", evs)
	}
	// The tool result gets the after-tool reply, as plain JSON without stream.
	after := `{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"User rejected tool use","is_error":true}]}]}`
	plain, _ := post(t, s.URL()+"/v1/messages", after)
	if !strings.Contains(plain, "The tool call was not completed: User rejected tool use") {
		t.Errorf("after-tool reply %s", plain)
	}
	side, _ := post(t, s.URL()+"/v1/messages", `{"system":"write a title as json","messages":[]}`)
	if !strings.Contains(side, "Fake session") {
		t.Errorf("side reply %s", side)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, at, err := log.Wait(ctx, 0, Main)
	if err != nil || r.Choice != "keyword:run-touch" || r.Prompt != "please run-touch" || r.Tool != "Bash" {
		t.Errorf("first main request %+v (%v)", r, err)
	}
	if r, _, err = log.Wait(ctx, at, Main); err != nil || r.Choice != "after-tool" {
		t.Errorf("second main request %+v (%v)", r, err)
	}
	if n := len(log.Requests()); n != 4 {
		t.Errorf("%d requests logged, want 4", n)
	}
}

func TestResponsesFunctionCall(t *testing.T) {
	log := NewLog(nil)
	s, err := Responses(Script{Queue: []Reply{{Tool: &ToolCall{Name: "request_user_input", Input: map[string]any{"questions": []any{}}}}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"gpt-5.5","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"ask me"}]}]}`
	_, evs := post(t, s.URL()+"/v1/responses", body)
	all := strings.Join(evs, "\n")
	for _, want := range []string{"response.created ", "response.function_call_arguments.done ", `"call_id":"call_resp_fake0001_0"`, `"name":"request_user_input"`, "response.completed "} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in\n%s", want, all)
		}
	}
	out := `{"input":[{"type":"function_call_output","call_id":"c","output":"{\"answers\":{}}"}]}`
	_, evs = post(t, s.URL()+"/v1/responses", out)
	if !strings.Contains(strings.Join(evs, "\n"), "Tool result received") {
		t.Errorf("after tool: %v", evs)
	}
	_, evs = post(t, s.URL()+"/v1/responses", `{"input":[{"type":"message","role":"user","content":"Generate a concise, single-line task title. User prompt: ask me"}]}`)
	if !strings.Contains(strings.Join(evs, "\n"), "Fake task ask me") {
		t.Errorf("title: %v", evs)
	}
	reqs := log.Requests()
	if len(reqs) != 3 || reqs[0].Prompt != "ask me" || reqs[0].Choice != "queue" || reqs[2].Kind != "title" {
		t.Errorf("log %+v", reqs)
	}
}

// TestResponsesCustomToolCall: a freeform (custom) tool call, as Codex's
// code-mode `exec` takes it, carries its input as raw text.
func TestResponsesCustomToolCall(t *testing.T) {
	log := NewLog(nil)
	js := `const r = await tools.exec_command({cmd: "ls -la"});` + "\ntext(r.output);"
	s, err := Responses(Script{Queue: []Reply{{Tool: &ToolCall{Name: "exec", Input: js, Custom: true}}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, evs := post(t, s.URL()+"/v1/responses", `{"model":"gpt-6-sol","stream":true,"input":[{"type":"message","role":"user","content":"run it"}]}`)
	var done string
	for _, e := range evs {
		if strings.HasPrefix(e, "response.output_item.done ") {
			done = strings.TrimPrefix(e, "response.output_item.done ")
		}
	}
	var v struct {
		Item struct{ Type, Name, Input, CallID string } `json:"item"`
	}
	if err := json.Unmarshal([]byte(done), &v); err != nil || v.Item.Type != "custom_tool_call" || v.Item.Name != "exec" || v.Item.Input != js {
		t.Errorf("output_item.done %s (%v)", done, err)
	}
	if !strings.Contains(strings.Join(evs, "\n"), "response.custom_tool_call_input.done ") {
		t.Errorf("no custom_tool_call_input events: %v", evs)
	}
	_, evs = post(t, s.URL()+"/v1/responses", `{"input":[{"type":"custom_tool_call_output","call_id":"c","output":"total 8"}]}`)
	if !strings.Contains(strings.Join(evs, "\n"), "Tool result received: total 8") {
		t.Errorf("after the custom tool: %v", evs)
	}
	if r := log.Requests(); len(r) != 2 || r[0].Tool != "exec" || r[1].Choice != "after-tool" {
		t.Errorf("log %+v", r)
	}
}

func TestOutputText(t *testing.T) {
	for raw, want := range map[string]string{
		`"plain"`: "plain",
		`[{"type":"input_text","text":"Script completed\n"},{"type":"input_text","text":"total 8"}]`: "Script completed\ntotal 8",
		`{"answers":{}}`: `{"answers":{}}`,
	} {
		if got := outputText(json.RawMessage(raw)); got != want {
			t.Errorf("outputText(%s) = %q, want %q", raw, got, want)
		}
	}
}
