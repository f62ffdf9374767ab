package watchers

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// describe prints an event without its location: the parser tables below
// compare these.
func describe(ev evidence.Event) string {
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		return fmt.Sprintf("session %s cwd=%s version=%s", e.SessionID, e.Cwd, e.Version)
	case evidence.PromptAccepted:
		return fmt.Sprintf("prompt turn=%s session=%s len=%d sha=%s", e.TurnID, e.SessionID, e.Len, hex.EncodeToString(e.SHA256[:4]))
	case evidence.TurnStarted:
		return "turn_started " + e.TurnID
	case evidence.TurnCompleted:
		d := fmt.Sprintf("turn_completed %s %v stop=%s", e.TurnID, e.Duration, e.StopReason)
		if e.EndedWithText {
			d += " text"
		}
		return d
	case evidence.ReplyEnded:
		return fmt.Sprintf("reply_ended %s text=%v", e.TurnID, e.Text)
	case evidence.TurnAborted:
		return fmt.Sprintf("turn_aborted %s %s", e.TurnID, e.Reason)
	case evidence.TurnFailed:
		return fmt.Sprintf("turn_failed %s %s", e.TurnID, e.Reason)
	case evidence.ToolPending:
		d := fmt.Sprintf("tool_pending %s %s turn=%s", e.CallID, e.Name, e.TurnID)
		if e.SecretQuestion {
			d += " secret"
		}
		return d
	case evidence.ToolResult:
		return fmt.Sprintf("tool_result %s %s error=%v rejected=%v", e.CallID, e.Name, e.IsError, e.Rejected)
	case evidence.QuestionAnswered:
		return fmt.Sprintf("question_answered %s answered=%d/%d", e.CallID, e.Answered, e.Questions)
	case evidence.ApprovalRequested:
		return fmt.Sprintf("approval_requested %s %s %s", e.CallID, e.Name, e.Reason)
	case evidence.Malformed:
		return "malformed"
	}
	return fmt.Sprintf("%T", ev)
}

func parseAll(p evidence.Parser, text string) []string {
	var out []string
	off := int64(0)
	ends := map[int64]int64{}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		line := strings.TrimSuffix(l, "\n")
		ends[off] = off + int64(len(l))
		for _, ev := range p.Parse(evidence.Where{Offset: off, End: off + int64(len(l))}, []byte(line), nil) {
			if at := ev.At(); ends[at.Offset] != at.End {
				panic("event not at a line read so far")
			}
			out = append(out, describe(ev))
		}
		off += int64(len(l))
	}
	return out
}

// Lines of the shapes documented in agents-offline.md and
// akk-reference.md §4.1, written here, not recorded; the real rollouts are
// checked in fixtures_test.go.
func TestCodexParser(t *testing.T) {
	lines := metaLine("s1", "/src", "0.155.1") +
		`{"timestamp":"2026-11-30T10:00:00.100Z","type":"turn_context","payload":{"cwd":"/src","approval_policy":"on-request","model":"gpt-5.5"}}` + "\n" +
		codexTurn("t1", "list files") +
		`{"timestamp":"2026-11-30T10:00:02Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls -la\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"look\"}","call_id":"c1"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:03Z","type":"event_msg","payload":{"type":"token_count","info":null}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"total 0"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:05Z","type":"response_item","payload":{"type":"function_call","name":"request_user_input","arguments":"{\"questions\":[]}","call_id":"c2"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:06Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"{\"answers\":{\"color\":{\"answers\":[\"Red\"]}}}"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:07Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"done"}}` + "\n" +
		codexTurnStarted("t2") +
		`{"timestamp":"2026-11-30T10:00:08Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"event_msg","payload":{"type":"error","message":"stream disconnected"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"brand_new_record","payload":{}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"event_msg","payload":{"type":"brand_new_event"}}` + "\n" +
		"   \n" +
		`{"type":"event_msg","payload":"not an object"}` + "\n" +
		`{"type":` + "\n"
	p := NewCodexParser()
	got := parseAll(p, lines)
	want := []string{
		"session s1 cwd=/src version=0.155.1",
		"turn_started t1",
		"prompt turn=t1 session=s1 len=10 sha=" + evidencetest.HashPrefix("list files"),
		"tool_pending c1 exec_command turn=t1",
		"approval_requested c1 exec_command require_escalated",
		"tool_result c1 exec_command error=false rejected=false",
		"tool_pending c2 request_user_input turn=t1",
		"tool_result c2 request_user_input error=false rejected=false",
		"question_answered c2 answered=1/1",
		"turn_completed t1 0s stop= text",
		"turn_started t2",
		"turn_aborted t2 interrupted",
		"turn_failed t2 stream disconnected",
		"malformed", // {"type": cut short; a payload that is not an object is an unknown event_msg
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s := p.Stats()
	if s.Lines != 19 || s.Blank != 1 || s.Malformed != 1 || s.Unknown["brand_new_record"] != 1 || s.Unknown["event_msg/brand_new_event"] != 1 || s.Unknown["event_msg/"] != 1 || s.Events != int64(len(want)-1) {
		t.Fatalf("stats %+v", s)
	}
}

// A field whose JSON type changed is read as empty; the record still
// counts.
func TestParsersTolerateFieldTypes(t *testing.T) {
	got := parseAll(NewCodexParser(), `{"type":"event_msg","payload":{"type":"task_started","turn_id":7}}`+"\n"+
		`{"type":"event_msg","payload":{"type":"turn_aborted","reason":{"kind":"interrupted"},"turn_id":"t"}}`+"\n")
	if strings.Join(got, "|") != "turn_started |turn_aborted t " {
		t.Fatalf("codex: %q", got)
	}
	got = parseAll(NewClaudeParser(), `{"type":"user","uuid":"u","isMeta":"no","sessionId":5,"message":{"role":"user","content":"hi"}}`+"\n")
	if strings.Join(got, "|") != "turn_started u|prompt turn=u session= len=2 sha="+evidencetest.HashPrefix("hi") {
		t.Fatalf("claude: %q", got)
	}
}

func TestCodexParserNoApprovalUnderNever(t *testing.T) {
	lines := `{"type":"turn_context","payload":{"approval_policy":"never"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"sandbox_permissions\":\"require_escalated\"}","call_id":"c1"}}` + "\n"
	if got := parseAll(NewCodexParser(), lines); len(got) != 1 {
		t.Fatalf("got %q", got)
	}
}

func TestClaudeParser(t *testing.T) {
	rec := func(fields string) string {
		return `{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.267","timestamp":"2026-11-30T10:00:00Z",` + fields + "}\n"
	}
	lines := `{"type":"file-history-snapshot","messageId":"m0","snapshot":{}}` + "\n" +
		claudePrompt("s1", "/w", "u1", "make a file") +
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
		strings.Replace(claudePrompt("s1", "/w2", "u15", "moved"), `"version":"2.1.267"`, `"version":"2.1.267"`, 1) +
		rec(`"type":"hologram","uuid":"x"`) +
		rec(`"type":"system","subtype":"new_thing"`) +
		"not json\n"
	p := NewClaudeParser()
	got := parseAll(p, lines)
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
	got := parseAll(NewClaudeParser(), line+"\n")
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

func TestMalformedCarriesFileAndOffset(t *testing.T) {
	for _, p := range []evidence.Parser{NewCodexParser(), NewClaudeParser()} {
		evs := p.Parse(evidence.Where{Path: "/x/f.jsonl", Offset: 1234}, []byte("{nope"), nil)
		m, ok := evs[0].(evidence.Malformed)
		if !ok || !errors.Is(m.Err, evidence.ErrMalformed) || m.Offset != 1234 || !strings.Contains(m.Err.Error(), "/x/f.jsonl:1234") {
			t.Fatalf("%T: %+v", p, evs)
		}
	}
}

func TestPromptHashTrimsTrailingSpace(t *testing.T) {
	if evidence.PromptHash("abc \n\t") != evidence.PromptHash("abc") || evidence.PromptHash(" abc") == evidence.PromptHash("abc") {
		t.Fatal("PromptHash")
	}
}

// Shapes seen in Codex 0.155.1 rollouts (written here from observation;
// the recorded rollouts are checked in fixtures_test.go once the corpus
// has them): the environment context is a user message of the turn too,
// told apart by its content kinds; the prompt is reported once although
// both its response item and its UserMessage item carry it; the async
// question tool returns at once and is no answer.
func TestCodexParserObservedShapes(t *testing.T) {
	meta := func(turn, kind string) string {
		return `"internal_chat_message_metadata_passthrough":{"turn_id":"` + turn + `","content_item_kinds":["` + kind + `"]}`
	}
	lines := metaLine("s", "/p", "0.155.1") + codexTurnStarted("t1") +
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}],` + meta("t1", "environments.environment_context") + `}}` + "\n" +
		`{"type":"world_state","payload":{"full":true}}` + "\n" +
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"ask-async"}],` + meta("t1", "user.text") + `}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"item_completed","turn_id":"t1","item":{"type":"UserMessage","content":[{"type":"text","text":"ask-async","text_elements":[]}]}}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call","name":"request_user_input_async","arguments":"{}","call_id":"c1"}}` + "\n" +
		`{"type":"token_usage_record","payload":{}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"accepted\":true}"}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","duration_ms":1053}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"thread_settings_applied"}}` + "\n"
	p := NewCodexParser()
	got := parseAll(p, lines)
	want := []string{
		"session s cwd=/p version=0.155.1",
		"turn_started t1",
		"prompt turn=t1 session=s len=9 sha=" + evidencetest.HashPrefix("ask-async"),
		"tool_pending c1 request_user_input_async turn=t1",
		"tool_result c1 request_user_input_async error=false rejected=false",
		"turn_completed t1 1.053s stop=",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
	if len(p.Stats().Unknown) != 0 {
		t.Fatalf("unknown %v", p.Stats().Unknown)
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
	p := NewClaudeParser()
	got := parseAll(p, lines)
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
	p := NewClaudeParser()
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

// Codex 0.171 code mode: shell commands run through the freeform exec
// tool, whose JavaScript calls tools.exec_command; the escalation request
// is inside it, and the output is a list of input_text items. The JSON
// argument is the shape recorded from 0.171.0 (codex/0.171.0/
// permission-approve); the object literal is the shape exec's own
// description teaches.
func TestCodexParserCodeMode(t *testing.T) {
	custom := func(call, name, input string) string {
		return `{"type":"response_item","payload":{"type":"custom_tool_call","status":"completed","call_id":"` + call + `","name":"` + name + `","input":` + evidencetest.JSON(input) + `}}` + "\n"
	}
	output := func(call, out string) string {
		return `{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"` + call + `","output":` + out + `}}` + "\n"
	}
	lines := `{"type":"turn_context","payload":{"approval_policy":"on-request"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"additional_tools","role":"developer","tools":[]}}` + "\n" +
		codexTurnStarted("t1") +
		custom("c1", "exec", "const r = await tools.exec_command({\"cmd\":\"ls -la\",\"justification\":\"look\",\"sandbox_permissions\":\"require_escalated\"});\ntext(r.output);\n") +
		output("c1", `[{"type":"input_text","text":"Script completed\nWall time 1.2 seconds\nOutput:\n"},{"type":"input_text","text":"total 8\n"}]`) +
		custom("c2", "exec", "const r = await tools.exec_command({ cmd: 'touch x', sandbox_permissions: \"require_escalated\" });\ntext(r.output);\n") +
		output("c2", `[{"type":"input_text","text":"Script failed\n"},{"type":"input_text","text":"aborted by user after 1.2s"}]`) +
		custom("c3", "exec", "const r = await tools.exec_command({\"cmd\":\"echo sandbox_permissions: require_escalated\"});\ntext(r.output);\n") +
		output("c3", `"aborted by user after 0.4s"`) +
		custom("c4", "apply_patch", "*** Begin Patch\n+sandbox_permissions: \"require_escalated\"\n*** End Patch\n") +
		`{"type":"retained_context","payload":{"type":"verified_answer","turn_id":"t1","call_id":"c5","questions":[]}}` + "\n"
	p := NewCodexParser()
	got := parseAll(p, lines)
	want := []string{
		"turn_started t1",
		"tool_pending c1 exec turn=t1",
		"approval_requested c1 exec require_escalated",
		"tool_result c1 exec error=false rejected=false",
		"tool_pending c2 exec turn=t1",
		"approval_requested c2 exec require_escalated",
		"tool_result c2 exec error=true rejected=true",
		"tool_pending c3 exec turn=t1",
		"tool_result c3 exec error=true rejected=true",
		"tool_pending c4 apply_patch turn=t1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := p.Stats(); len(s.Unknown) != 0 || s.Ignored != 3 {
		t.Fatalf("stats %+v", s)
	}
	never := `{"type":"turn_context","payload":{"approval_policy":"never"}}` + "\n" +
		custom("c1", "exec", "await tools.exec_command({\"cmd\":\"ls\",\"sandbox_permissions\":\"require_escalated\"});")
	if got := parseAll(NewCodexParser(), never); len(got) != 1 {
		t.Fatalf("under never: %q", got)
	}
}

func TestCodeModeEscalation(t *testing.T) {
	for _, c := range []struct {
		js   string
		want bool
	}{
		{`await tools.exec_command({"cmd":"ls","sandbox_permissions":"require_escalated"});`, true},
		{`await tools.exec_command({"cmd":"ls","with_escalated_permissions":true});`, true},
		{`await tools . exec_command( {"cmd":"ls"} ); await tools.exec_command({"cmd":"rm x","sandbox_permissions":"require_escalated"})`, true},
		{`await tools.exec_command({cmd: "ls", sandbox_permissions: 'require_escalated'})`, true},
		{"const a = {cmd: \"ls\", sandbox_permissions: `require_escalated`}; await tools.exec_command(a)", true},
		{`await tools["exec_command"]({"cmd":"ls","sandbox_permissions":"require_escalated"})`, true},
		{`await tools.exec_command({"cmd":"ls","sandbox_permissions":"use_default"});`, false},
		{`await tools.exec_command({"cmd":"grep 'sandbox_permissions: \"require_escalated\"' f"});`, false},
		{`await tools.exec_command({cmd: "ls"})`, false},
		{`text("sandbox_permissions")`, false},
	} {
		if got := codeModeEscalation([]byte(c.js)); got != c.want {
			t.Errorf("%s: %v, want %v", c.js, got, c.want)
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
		claudePrompt("s1", "/w", "u1", "hello there") +
		`{"type":"api-request-shape","sessionId":"s1","shapeHash":"19","timestamp":"2026-11-30T04:10:26.153Z","version":"2.1.267","shape":"{}"}` + "\n" +
		`{"type":"api-request-blob","sessionId":"s1","hash":"f8","message":"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello there\"}]}"}` + "\n" +
		`{"type":"api-request","sessionId":"s1","id":"82","timestamp":"2026-11-30T04:10:26.153Z","version":"2.1.267","querySource":"repl_main_thread","params":"{}","tail":"[]"}` + "\n"
	p := NewClaudeParser()
	got := parseAll(p, lines)
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

// TestEndedWithText: a completed turn says whether the agent's own text
// had the last word (what the text says is never read).
func TestEndedWithText(t *testing.T) {
	claude := func(fields string) string {
		return `{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.267","timestamp":"2026-11-30T10:00:00Z",` + fields + "}\n"
	}
	done := claude(`"type":"system","subtype":"turn_duration","durationMs":10,"uuid":"d"`)
	codex := func(last string) string {
		return `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"` + last + `}}` + "\n"
	}
	for _, tc := range []struct {
		name  string
		agent evidence.Agent
		lines string
		want  bool
	}{
		{"claude text at end_turn", evidence.Claude, claudePrompt("s1", "/w", "u1", "which?") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Which file?"}],"stop_reason":"end_turn"}`) + done, true},
		{"claude tool call last", evidence.Claude, claudePrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}],"stop_reason":"tool_use"}`) +
			claude(`"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]}`) + done, false},
		{"claude text cut at max_tokens", evidence.Claude, claudePrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Which"}],"stop_reason":"max_tokens"}`) + done, false},
		{"claude blank text", evidence.Claude, claudePrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"  "}],"stop_reason":"end_turn"}`) + done, false},
		{"codex last message", evidence.Codex, codex(`,"last_agent_message":"Which file?"`), true},
		{"codex no last message", evidence.Codex, codex(`,"last_agent_message":null`), false},
		{"codex blank last message", evidence.Codex, codex(`,"last_agent_message":" \n"`), false},
		{"codex absent last message", evidence.Codex, codex(``), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []bool
			p := NewParser(tc.agent)
			for _, l := range strings.Split(strings.TrimSuffix(tc.lines, "\n"), "\n") {
				for _, ev := range p.Parse(evidence.Where{}, []byte(l), nil) {
					if c, ok := ev.(evidence.TurnCompleted); ok {
						got = append(got, c.EndedWithText)
					}
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("completions %v, want one with ended_with_text=%v", got, tc.want)
			}
		})
	}
}
