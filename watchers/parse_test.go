package watchers

import (
	"errors"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// A field whose JSON type changed is read as empty; the record still
// counts.
func TestParsersTolerateFieldTypes(t *testing.T) {
	got := evidencetest.ParseAll(rollout.NewParser(), `{"type":"event_msg","payload":{"type":"task_started","turn_id":7}}`+"\n"+
		`{"type":"event_msg","payload":{"type":"turn_aborted","reason":{"kind":"interrupted"},"turn_id":"t"}}`+"\n")
	if strings.Join(got, "|") != "turn_started |turn_aborted t " {
		t.Fatalf("codex: %q", got)
	}
	got = evidencetest.ParseAll(transcript.NewParser(), `{"type":"user","uuid":"u","isMeta":"no","sessionId":5,"message":{"role":"user","content":"hi"}}`+"\n")
	if strings.Join(got, "|") != "turn_started u|prompt turn=u session= len=2 sha="+evidencetest.HashPrefix("hi") {
		t.Fatalf("claude: %q", got)
	}
}

func TestMalformedCarriesFileAndOffset(t *testing.T) {
	for _, p := range []evidence.Parser{rollout.NewParser(), transcript.NewParser()} {
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
		{"claude text at end_turn", transcript.Agent, agenttest.TranscriptPrompt("s1", "/w", "u1", "which?") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Which file?"}],"stop_reason":"end_turn"}`) + done, true},
		{"claude tool call last", transcript.Agent, agenttest.TranscriptPrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}],"stop_reason":"tool_use"}`) +
			claude(`"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]}`) + done, false},
		{"claude text cut at max_tokens", transcript.Agent, agenttest.TranscriptPrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Which"}],"stop_reason":"max_tokens"}`) + done, false},
		{"claude blank text", transcript.Agent, agenttest.TranscriptPrompt("s1", "/w", "u1", "go") +
			claude(`"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"  "}],"stop_reason":"end_turn"}`) + done, false},
		{"codex last message", rollout.Agent, codex(`,"last_agent_message":"Which file?"`), true},
		{"codex no last message", rollout.Agent, codex(`,"last_agent_message":null`), false},
		{"codex blank last message", rollout.Agent, codex(`,"last_agent_message":" \n"`), false},
		{"codex absent last message", rollout.Agent, codex(``), false},
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
