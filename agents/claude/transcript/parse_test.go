package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func TestClaudeParser(t *testing.T) {
	rec := func(fields string) string {
		return `{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.267","timestamp":"2026-11-30T10:00:00Z",` + fields + "}\n"
	}
	lines := `{"type":"file-history-snapshot","messageId":"m0","snapshot":{}}` + "\n" +
		agenttest.TranscriptPrompt("s1", "/w", "u1", "make a file") +
		rec(`"type":"attachment","uuid":"a1"`) +
		rec(`"type":"assistant","uuid":"u2","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"touch x","description":"Create"}}],"stop_reason":"tool_use"}`) +
		rec(`"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected."}]},"toolUseResult":"User rejected tool use"`) +
		rec(`"type":"user","uuid":"u4","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}`) +
		rec(`"type":"user","uuid":"u5","message":{"role":"user","content":[{"type":"text","text":"ask me"}]}`) +
		rec(`"type":"assistant","uuid":"u6","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"AskUserQuestion","input":{"questions":[]}}]}`) +
		rec(`"type":"user","uuid":"u7","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"User has answered"}]},"toolUseResult":{"questions":[],"answers":{"Color?":"Red","Size?":"L"}}`) +
		rec(`"type":"assistant","uuid":"u8","message":{"role":"assistant","content":[{"type":"text","text":"Red it is"}],"stop_reason":"end_turn"}`) +
		rec(`"type":"system","subtype":"turn_duration","durationMs":1500,"uuid":"u9"`) +
		rec(`"type":"user","uuid":"u10","isMeta":true,"message":{"role":"user","content":"Caveat: local commands"}`) +
		rec(`"type":"user","uuid":"u11","message":{"role":"user","content":"<command-name>/status</command-name>"}`) +
		rec(`"type":"user","uuid":"s1","isSidechain":true,"message":{"role":"user","content":"sub task"}`) +
		rec(`"type":"user","uuid":"u12","message":{"role":"user","content":"again"}`) +
		rec(`"type":"assistant","uuid":"u13","isApiErrorMessage":true,"error":"rate_limit","message":{"role":"assistant","content":[{"type":"text","text":"API Error"}]}`) +
		rec(`"type":"user","uuid":"u14","message":{"role":"user","content":"[Request interrupted by user]"}`) +
		strings.Replace(agenttest.TranscriptPrompt("s1", "/w2", "u15", "moved"), `"version":"2.1.267"`, `"version":"2.1.267"`, 1) +
		rec(`"type":"hologram","uuid":"x"`) +
		rec(`"type":"system","subtype":"new_thing"`) +
		"not json\n"
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
	want := []string{
		"session s1 cwd=/w version=2.1.267",
		"turn_started u1",
		"prompt turn=u1 session=s1 len=11 sha=" + evidencetest.HashPrefix("make a file"),
		"tool_pending toolu_1 Bash turn=u1",
		"tool_result toolu_1 Bash error=true rejected=true",
		"turn_aborted u1 interrupted_tool_use",
		"turn_started u5",
		"prompt turn=u5 session=s1 len=6 sha=" + evidencetest.HashPrefix("ask me"),
		"tool_pending toolu_2 AskUserQuestion turn=u5",
		"tool_result toolu_2 AskUserQuestion error=false rejected=false",
		"question_answered toolu_2 answered=2/2",
		"turn_completed u5 1.5s stop=end_turn text",
		"turn_started u12",
		"prompt turn=u12 session=s1 len=5 sha=" + evidencetest.HashPrefix("again"),
		"turn_failed u12 rate_limit",
		"turn_aborted u12 interrupted",
		"session s1 cwd=/w2 version=2.1.267",
		"turn_started u15",
		"prompt turn=u15 session=s1 len=5 sha=" + evidencetest.HashPrefix("moved"),
		"session s1 cwd=/w version=2.1.267", // the later records say /w again
		"malformed",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s := p.Stats()
	if s.Unknown["hologram"] != 1 || s.Unknown["system/new_thing"] != 1 || s.Malformed != 1 || s.Lines != 21 {
		t.Fatalf("stats %+v", s)
	}
}

// A rejected tool's result and the next prompt in one user message.
func TestClaudeParserMergedRejectionAndPrompt(t *testing.T) {
	line := `{"type":"user","sessionId":"s","cwd":"/w","uuid":"u9","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"The tool use was rejected"},` +
		`{"type":"text","text":"[Request interrupted by user for tool use]"},{"type":"text","text":"do it differently"}]},"toolUseResult":"User rejected tool use"}`
	got := evidencetest.ParseAll(NewParser(), line+"\n")
	want := []string{
		"session s cwd=/w version=",
		"tool_result toolu_1  error=true rejected=true",
		"turn_aborted  interrupted_tool_use",
		"turn_started u9",
		"prompt turn=u9 session=s len=17 sha=" + evidencetest.HashPrefix("do it differently"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
}

// Claude Code 2.1.263 and 2.1.266 write a turn's reply and turn_duration
// before its prompt record (seen in the recorded corpus): events follow
// the parentUuid chain, not the file.
func TestClaudeParserOutOfOrder(t *testing.T) {
	rec := func(uuid, parent, fields string) string {
		return `{"sessionId":"s","cwd":"/w","version":"2.1.263","uuid":"` + uuid + `","parentUuid":` + parent + `,` + fields + "}\n"
	}
	lines := `{"type":"ai-title","sessionId":"s","aiTitle":"x"}` + "\n" +
		rec("a1", `"att"`, `"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn"}`) +
		rec("d1", `"a1"`, `"type":"system","subtype":"turn_duration","durationMs":10`) +
		rec("u1", "null", `"type":"user","message":{"role":"user","content":"hello"}`) +
		rec("att", `"u1"`, `"type":"attachment","attachment":{}`) +
		rec("u2", `"d1"`, `"type":"user","message":{"role":"user","content":"next"}`)
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
	want := []string{
		"session s cwd= version=",
		"session s cwd=/w version=2.1.263",
		"turn_started u1",
		"prompt turn=u1 session=s len=5 sha=" + evidencetest.HashPrefix("hello"),
		"turn_completed u1 10ms stop=end_turn text",
		"turn_started u2",
		"prompt turn=u2 session=s len=4 sha=" + evidencetest.HashPrefix("next"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
}

// Records whose parent never comes are let go, in file order, once too
// many are held.
func TestClaudeParserLetsGo(t *testing.T) {
	p := NewParser()
	var evs []evidence.Event
	for i := range maxHeld + 1 {
		line := `{"type":"assistant","sessionId":"s","uuid":"a` + fmt.Sprint(i) + `","parentUuid":"missing` + fmt.Sprint(i) +
			`","message":{"content":[{"type":"tool_use","id":"t` + fmt.Sprint(i) + `","name":"Bash","input":{}}]}}`
		evs = p.Parse(evidence.Where{Offset: int64(i)}, []byte(line), evs)
	}
	var offs []int64
	for _, ev := range evs {
		if _, ok := ev.(evidence.ToolPending); ok {
			offs = append(offs, ev.At().Offset)
		}
	}
	if len(offs) != maxHeld+1 {
		t.Fatalf("%d tools let go", len(offs))
	}
	for i, off := range offs {
		if off != int64(i) {
			t.Fatalf("tool %d at %d", i, off)
		}
	}
}

// Claude Code 2.1.332 writes the API requests it sends (api-request,
// api-request-blob, api-request-shape) and the tools used: known, no
// evidence, and a blob's user-role message is no prompt (records as
// recorded in claude/2.1.332/send, cut short).
func TestClaudeParserAPIRequestRecords(t *testing.T) {
	lines := `{"type":"mode","mode":"normal","sessionId":"s1"}` + "\n" +
		`{"type":"tools-used","tools":["Bash"],"sessionId":"s1"}` + "\n" +
		agenttest.TranscriptPrompt("s1", "/w", "u1", "hello there") +
		`{"type":"api-request-shape","sessionId":"s1","shapeHash":"19","timestamp":"2026-11-30T04:10:26.153Z","version":"2.1.267","shape":"{}"}` + "\n" +
		`{"type":"api-request-blob","sessionId":"s1","hash":"f8","message":"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello there\"}]}"}` + "\n" +
		`{"type":"api-request","sessionId":"s1","id":"82","timestamp":"2026-11-30T04:10:26.153Z","version":"2.1.267","querySource":"repl_main_thread","params":"{}","tail":"[]"}` + "\n"
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
	want := []string{
		"session s1 cwd= version=",
		"session s1 cwd=/w version=2.1.267",
		"turn_started u1",
		"prompt turn=u1 session=s1 len=11 sha=" + evidencetest.HashPrefix("hello there"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := p.Stats(); len(s.Unknown) != 0 || s.Ignored != 5 {
		t.Fatalf("stats %+v", s)
	}
}
