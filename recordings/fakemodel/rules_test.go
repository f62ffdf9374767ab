package fakemodel

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// loopRules is a controller's loop as rules: list, send to the codex row,
// status by the turn until its prompt is pending (at most 3 looks), approve,
// then done once completed.
var loopRules = []Rule{
	{Name: "list", Call: "list"},
	{Name: "send", After: "list", Call: "send",
		Input: map[string]any{"terminal_id": "$.terminals[agent==codex].terminal_id", "request": "do it"}},
	{Name: "look", After: "send", When: []Cond{Eq("$.outcome", "accepted")}, Call: "status",
		Input: map[string]any{"turn_id": "$.turn_id"}},
	{Name: "approve", After: "status", When: []Cond{Eq("$.interaction.state", "pending"), Has("$.offer_expires_at")},
		Call: "approve", Input: map[string]any{"turn_id": "$.turn_id", "decision": "approve_once"}},
	{Name: "respond", After: "status", When: []Cond{Eq("$.interaction.kind", "questionnaire")}, Call: "respond",
		Input: map[string]any{"answers": []map[string]any{{"selected_option_ids": []string{"$.interaction.options[free_text!=true].option_id"}}}}},
	{Name: "done", After: "status", When: []Cond{Eq("$.state", "completed")}, Text: "Completed."},
	{Name: "again", After: "status", When: []Cond{Eq("$.state", "running")}, Max: 3, Call: "status",
		Input: map[string]any{"turn_id": "$.turn_id"}, Pace: 5 * time.Millisecond},
	{Name: "refused", After: "send", Error: true, Text: "The send failed."},
	{Name: "look-again", After: "approve", When: []Cond{Eq("$.outcome", "rejected_before_input"), Eq("$.do_not_retry", "false")},
		Max: 2, Call: "status", From: "status", Input: map[string]any{"turn_id": "$.turn_id"}},
}

func call(name, result string) Call { return Call{Name: name, Result: result, Done: true} }

func TestDecide(t *testing.T) {
	list := call("list", `{"terminals":[{"agent":"claude","terminal_id":"term_c"},{"agent":"codex","terminal_id":"term_x"}]}`)
	sent := call("send", `{"outcome":"accepted","turn_id":"turn_1"}`)
	running := call("status", `{"turn_id":"turn_1","state":"running"}`)
	for _, tc := range []struct {
		name   string
		conv   Conversation
		choice string
		tool   string
		input  string // JSON of the tool input
		text   string
	}{
		{"the prompt lists", Conversation{Prompt: "go"}, "rule:list", "list", `{}`, ""},
		{"the send copies the codex row's id", Conversation{Calls: []Call{list}}, "rule:send", "send",
			`{"request":"do it","terminal_id":"term_x"}`, ""},
		{"no codex row: no rule", Conversation{Calls: []Call{call("list", `{"terminals":[{"agent":"claude"}]}`)}},
			"rule:none", "", "", "no rule holds after the list result"},
		{"a result that is not JSON resolves no path", Conversation{Calls: []Call{call("list", `oops`)}}, "rule:none", "", "", ""},
		{"a prompt after results is the newest input", Conversation{Prompt: "again", Calls: []Call{list}}, "rule:list", "list", `{}`, ""},
		{"a call without its result", Conversation{Calls: []Call{{Name: "list"}}}, "rule:none", "", "", "a tool call that has no result"},
		{"an accepted send: status by its turn", Conversation{Calls: []Call{list, sent}}, "rule:look", "status", `{"turn_id":"turn_1"}`, ""},
		{"an error result takes the error rule", Conversation{Calls: []Call{list, {Name: "send", Result: "bad_request: x", IsError: true, Done: true}}},
			"rule:refused", "", "", "The send failed."},
		{"running: status again", Conversation{Calls: []Call{list, sent, running}}, "rule:again", "status", `{"turn_id":"turn_1"}`, ""},
		{"running a fourth time: the bound is spent", Conversation{Calls: []Call{list, sent, running, running, running, running}},
			"rule:none", "", "", "no rule holds after the status result"},
		{"pending with an offer: approve", Conversation{Calls: []Call{list, sent, running,
			call("status", `{"turn_id":"turn_1","state":"running","interaction":{"state":"pending"},"offer_expires_at":"t"}`)}},
			"rule:approve", "approve", `{"decision":"approve_once","turn_id":"turn_1"}`, ""},
		{"pending without an offer: not approved", Conversation{Calls: []Call{list, sent,
			call("status", `{"turn_id":"turn_1","state":"running","interaction":{"state":"pending"}}`)}},
			"rule:again", "status", `{"turn_id":"turn_1"}`, ""},
		{"a []string template is filled", Conversation{Calls: []Call{list, sent, call("status",
			`{"turn_id":"turn_1","state":"running","interaction":{"kind":"questionnaire","options":[{"option_id":"opt_n","free_text":true},{"option_id":"opt_p"}]}}`)}},
			"rule:respond", "respond", `{"answers":[{"selected_option_ids":["opt_p"]}]}`, ""},
		{"a refusal: status again by the turn the last status named", Conversation{Calls: []Call{list, sent, call("status",
			`{"turn_id":"turn_1","state":"running","interaction":{"state":"pending"},"offer_expires_at":"t"}`),
			call("approve", `{"outcome":"rejected_before_input","do_not_retry":false,"terminal_id":"term_x"}`)}},
			"rule:look-again", "status", `{"turn_id":"turn_1"}`, ""},
		{"a refusal never to retry: no rule", Conversation{Calls: []Call{list, sent, running,
			call("approve", `{"outcome":"uncertain","do_not_retry":true}`)}}, "rule:none", "", "", "the approve result"},
		{"completed", Conversation{Calls: []Call{list, sent, running, call("status", `{"turn_id":"turn_1","state":"completed"}`)}},
			"rule:done", "", "", "Completed."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, choice := decide(loopRules, tc.conv)
			if choice != tc.choice {
				t.Fatalf("choice %s, want %s (reply %+v)", choice, tc.choice, r)
			}
			if tc.tool == "" {
				if r.Tool != nil || !strings.Contains(r.Text, tc.text) {
					t.Errorf("reply %+v, want text %q", r, tc.text)
				}
				return
			}
			if r.Tool == nil || r.Tool.Name != tc.tool {
				t.Fatalf("reply %+v, want a %s call", r, tc.tool)
			}
			if b, _ := json.Marshal(r.Tool.Input); string(b) != tc.input {
				t.Errorf("input %s, want %s", b, tc.input)
			}
		})
	}
}

// TestAnthropicRules: a request carrying a conversation (Claude Code
// sends the whole of it each time) gets the rules' reply, streamed as a
// tool_use whose input came from the newest tool_result, and the log keeps
// the input it produced.
func TestAnthropicRules(t *testing.T) {
	log := NewLog(nil)
	s, err := Anthropic(Script{Rules: loopRules}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"stream":true,"tools":[{"name":"mcp__akk__list"}],"messages":[
		{"role":"user","content":[{"type":"text","text":"<system-reminder>r</system-reminder>go"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"list","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"{\"terminals\":[{\"agent\":\"codex\",\"terminal_id\":\"term_x\"}]}"}]}]},
		{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_2","name":"send","input":{"terminal_id":"term_x"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"{\"outcome\":\"accepted\",\"turn_id\":\"turn_9\"}"}]}]}`
	_, evs := post(t, s.URL()+"/v1/messages?beta=true", body)
	var js string
	for _, e := range evs {
		var v struct {
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		if rest, ok := strings.CutPrefix(e, "content_block_delta "); ok && json.Unmarshal([]byte(rest), &v) == nil {
			js += v.Delta.PartialJSON
		}
	}
	if js != `{"turn_id":"turn_9"}` {
		t.Errorf("streamed tool input %q; events %v", js, evs)
	}
	reqs := log.Requests()
	if len(reqs) != 1 || reqs[0].Kind != "main" || reqs[0].Choice != "rule:look" || reqs[0].Tool != "status" ||
		string(reqs[0].ToolInput) != `{"turn_id":"turn_9"}` {
		t.Errorf("log %+v", reqs)
	}
}

// TestDecideHosts: one rule set drives every host. A rule names an MCP
// tool by its own name; the call goes out under the name the request
// offers (Claude Code and Pi: mcp__akk__X, OpenClaw: akk__X), and a
// result of that call meets After and From. A rule's Prompt reads the
// user's newest prompt (also after tool results), and at a prompt its
// named groups fill the input.
func TestDecideHosts(t *testing.T) {
	rules := []Rule{
		{Name: "list", Prompt: `run the tests in the (codex|claude) pane`, Call: "list"},
		{Name: "send", After: "list", Prompt: `codex pane`, Call: "send",
			Input: map[string]any{"terminal_id": "$.terminals[agent==codex].terminal_id"}},
		{Name: "wake", Prompt: `(?s)akk callback: .*?\b(?P<turn_id>turn_[0-9]+)\b`, Call: "status",
			Input: map[string]any{"turn_id": "$.turn_id"}},
		{Name: "recheck", Prompt: `^yes\b`, Call: "status", From: "status", Input: map[string]any{"turn_id": "$.turn_id"}},
		{Name: "approve", After: "status", Prompt: `^yes\b`, Call: "approve", Input: map[string]any{"turn_id": "$.turn_id"}},
		{Name: "ask", After: "status", Text: "Approve?"},
	}
	list := `{"terminals":[{"agent":"codex","terminal_id":"term_x"}]}`
	for _, prefix := range []string{"mcp__akk__", "akk__"} {
		tools := []string{"read", prefix + "list", prefix + "send", prefix + "status", prefix + "approve"}
		status := Call{Name: prefix + "status", Result: `{"turn_id":"turn_1"}`, Done: true}
		for _, tc := range []struct {
			name          string
			conv          Conversation
			choice, input string
		}{
			{"the user's request lists", Conversation{Prompt: "run the tests in the codex pane", Asked: "run the tests in the codex pane"},
				"rule:list", `{}`},
			{"another prompt: no rule", Conversation{Prompt: "hello", Asked: "hello"}, "rule:none", ""},
			{"the list, for the pane the user named", Conversation{Asked: "run the tests in the codex pane",
				Calls: []Call{{Name: prefix + "list", Result: list, Done: true}}}, "rule:send", `{"terminal_id":"term_x"}`},
			{"a wake-up names its turn", Conversation{Prompt: "Job ID: 1\nakk callback: blocked (turn_id turn_1) on term_x",
				Asked: "Job ID: 1\nakk callback: blocked (turn_id turn_1) on term_x"}, "rule:wake", `{"turn_id":"turn_1"}`},
			{"yes: status again by the turn the last status showed", Conversation{Prompt: "yes", Asked: "yes", Calls: []Call{status}},
				"rule:recheck", `{"turn_id":"turn_1"}`},
			{"after it, yes still holds: approve", Conversation{Asked: "yes", Calls: []Call{status, status}}, "rule:approve", `{"turn_id":"turn_1"}`},
			{"a wake-up's status: ask", Conversation{Asked: "akk callback: x turn_1", Calls: []Call{status}}, "rule:ask", ""},
		} {
			t.Run(prefix+tc.name, func(t *testing.T) {
				tc.conv.Tools = tools
				r, choice := decide(rules, tc.conv)
				if choice != tc.choice {
					t.Fatalf("choice %s, want %s (reply %+v)", choice, tc.choice, r)
				}
				if tc.input == "" {
					if r.Tool != nil {
						t.Errorf("reply %+v, want text", r)
					}
					return
				}
				if r.Tool == nil || !strings.HasPrefix(r.Tool.Name, prefix) {
					t.Fatalf("reply %+v, want a call named as the host offers it (%s...)", r, prefix)
				}
				if b, _ := json.Marshal(r.Tool.Input); string(b) != tc.input {
					t.Errorf("input %s, want %s", b, tc.input)
				}
			})
		}
	}
	// A name offered twice under prefixes is not guessed.
	c := Conversation{Tools: []string{"a__list", "b__list"}}
	if got := c.offered("list"); got != "list" {
		t.Errorf("offered(list) among two = %q, want list", got)
	}
}
