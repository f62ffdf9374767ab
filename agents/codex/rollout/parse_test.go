package rollout

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// Lines of the shapes documented in agents-offline.md and
// akk-reference.md §4.1, written here, not recorded; the real rollouts are
// checked in fixtures_test.go.
func TestCodexParser(t *testing.T) {
	lines := agenttest.RolloutMeta("s1", "/src", "0.155.1") +
		`{"timestamp":"2026-11-30T10:00:00.100Z","type":"turn_context","payload":{"cwd":"/src","approval_policy":"on-request","model":"gpt-5.5"}}` + "\n" +
		agenttest.RolloutTurn("t1", "list files") +
		`{"timestamp":"2026-11-30T10:00:02Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls -la\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"look\"}","call_id":"c1"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:03Z","type":"event_msg","payload":{"type":"token_count","info":null}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"total 0"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:05Z","type":"response_item","payload":{"type":"function_call","name":"request_user_input","arguments":"{\"questions\":[]}","call_id":"c2"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:06Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"{\"answers\":{\"color\":{\"answers\":[\"Red\"]}}}"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:07Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"done"}}` + "\n" +
		agenttest.RolloutTurnStarted("t2") +
		`{"timestamp":"2026-11-30T10:00:08Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"event_msg","payload":{"type":"error","message":"stream disconnected"}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"brand_new_record","payload":{}}` + "\n" +
		`{"timestamp":"2026-11-30T10:00:09Z","type":"event_msg","payload":{"type":"brand_new_event"}}` + "\n" +
		"   \n" +
		`{"type":"event_msg","payload":"not an object"}` + "\n" +
		`{"type":` + "\n"
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
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

func TestCodexParserNoApprovalUnderNever(t *testing.T) {
	lines := `{"type":"turn_context","payload":{"approval_policy":"never"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"sandbox_permissions\":\"require_escalated\"}","call_id":"c1"}}` + "\n"
	if got := evidencetest.ParseAll(NewParser(), lines); len(got) != 1 {
		t.Fatalf("got %q", got)
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
	lines := agenttest.RolloutMeta("s", "/p", "0.155.1") + agenttest.RolloutTurnStarted("t1") +
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}],` + meta("t1", "environments.environment_context") + `}}` + "\n" +
		`{"type":"world_state","payload":{"full":true}}` + "\n" +
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"ask-async"}],` + meta("t1", "user.text") + `}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"item_completed","turn_id":"t1","item":{"type":"UserMessage","content":[{"type":"text","text":"ask-async","text_elements":[]}]}}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call","name":"request_user_input_async","arguments":"{}","call_id":"c1"}}` + "\n" +
		`{"type":"token_usage_record","payload":{}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"accepted\":true}"}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","duration_ms":1053}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"thread_settings_applied"}}` + "\n"
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
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
		agenttest.RolloutTurnStarted("t1") +
		custom("c1", "exec", "const r = await tools.exec_command({\"cmd\":\"ls -la\",\"justification\":\"look\",\"sandbox_permissions\":\"require_escalated\"});\ntext(r.output);\n") +
		output("c1", `[{"type":"input_text","text":"Script completed\nWall time 1.2 seconds\nOutput:\n"},{"type":"input_text","text":"total 8\n"}]`) +
		custom("c2", "exec", "const r = await tools.exec_command({ cmd: 'touch x', sandbox_permissions: \"require_escalated\" });\ntext(r.output);\n") +
		output("c2", `[{"type":"input_text","text":"Script failed\n"},{"type":"input_text","text":"aborted by user after 1.2s"}]`) +
		custom("c3", "exec", "const r = await tools.exec_command({\"cmd\":\"echo sandbox_permissions: require_escalated\"});\ntext(r.output);\n") +
		output("c3", `"aborted by user after 0.4s"`) +
		custom("c4", "apply_patch", "*** Begin Patch\n+sandbox_permissions: \"require_escalated\"\n*** End Patch\n") +
		`{"type":"retained_context","payload":{"type":"verified_answer","turn_id":"t1","call_id":"c5","questions":[]}}` + "\n"
	p := NewParser()
	got := evidencetest.ParseAll(p, lines)
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
	if got := evidencetest.ParseAll(NewParser(), never); len(got) != 1 {
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
