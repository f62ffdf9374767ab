package sessions

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// Lines of the documented shapes (the program's journal.go).
func header(id string) string {
	return `{"type":"session","time":"2026-12-01T10:00:00Z","session":"` + id + `","cwd":"/src","version":"1.0.0"}`
}

func prompt(turn, text string) string {
	return `{"type":"prompt","time":"2026-12-01T10:00:01Z","turn":"` + turn + `","text":` + evidencetest.JSON(text) + `}`
}

func reply(turn, text string) string {
	return `{"type":"reply","time":"2026-12-01T10:00:01.5Z","turn":"` + turn + `","text":` + evidencetest.JSON(text) + `}`
}

func call(turn, id, cmd string) string {
	return `{"type":"tool_call","time":"2026-12-01T10:00:01.5Z","turn":"` + turn + `","call":"` + id + `","name":"run","input":{"command":` + evidencetest.JSON(cmd) + `}}`
}

func result(turn, id, decision string) string {
	return `{"type":"tool_result","time":"2026-12-01T10:00:02Z","turn":"` + turn + `","call":"` + id + `","name":"run","decision":"` + decision + `"}`
}

func end(turn, outcome string) string {
	return `{"type":"turn_end","time":"2026-12-01T10:00:03Z","turn":"` + turn + `","outcome":"` + outcome + `"}`
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"an echo", []string{header("s1"), prompt("turn-1", "hello"), reply("turn-1", "hello"), end("turn-1", "completed")}, []string{
			"session s1 cwd=/src version=1.0.0",
			"turn_started turn-1",
			"prompt turn=turn-1 session=s1 len=5 sha=" + evidencetest.HashPrefix("hello"),
			"turn_completed turn-1 2s stop= text",
		}},
		{"a command run", []string{header("s1"), prompt("turn-1", "run ls"), call("turn-1", "call-1", "ls"), result("turn-1", "call-1", "yes"),
			reply("turn-1", "Ran: ls"), end("turn-1", "completed")}, []string{
			"session s1 cwd=/src version=1.0.0",
			"turn_started turn-1",
			"prompt turn=turn-1 session=s1 len=6 sha=" + evidencetest.HashPrefix("run ls"),
			"tool_pending call-1 run turn=turn-1",
			"tool_result call-1 run error=false rejected=false",
			"turn_completed turn-1 2s stop= text",
		}},
		{"declined with No, then Esc", []string{header("s1"), prompt("turn-1", "run ls"), call("turn-1", "call-1", "ls"), result("turn-1", "call-1", "no"),
			end("turn-1", "declined"), prompt("turn-2", "run rm"), call("turn-2", "call-2", "rm"), result("turn-2", "call-2", "cancel"), end("turn-2", "declined")}, []string{
			"session s1 cwd=/src version=1.0.0",
			"turn_started turn-1",
			"prompt turn=turn-1 session=s1 len=6 sha=" + evidencetest.HashPrefix("run ls"),
			"tool_pending call-1 run turn=turn-1",
			"tool_result call-1 run error=true rejected=true",
			"turn_aborted turn-1 rejected",
			"turn_started turn-2",
			"prompt turn=turn-2 session=s1 len=6 sha=" + evidencetest.HashPrefix("run rm"),
			"tool_pending call-2 run turn=turn-2",
			"tool_result call-2 run error=true rejected=true",
			"turn_aborted turn-2 rejected",
		}},
		{"a call after the reply ends without text", []string{header("s1"), prompt("turn-1", "x"), reply("turn-1", "x"), call("turn-1", "c", "ls"),
			result("turn-1", "c", "yes"), end("turn-1", "completed")}, []string{
			"session s1 cwd=/src version=1.0.0",
			"turn_started turn-1",
			"prompt turn=turn-1 session=s1 len=1 sha=" + evidencetest.HashPrefix("x"),
			"tool_pending c run turn=turn-1",
			"tool_result c run error=false rejected=false",
			"turn_completed turn-1 2s stop=",
		}},
		{"the header again, unknown records and outcomes", []string{header("s1"), header("s1"), `{"type":"mood","turn":"t"}`, result("t", "c", "maybe"),
			end("t", "exploded"), `{"type":"prompt","turn":"t","text":7}`}, []string{
			"session s1 cwd=/src version=1.0.0",
		}},
		{"malformed", []string{`{`, `{"turn":"t"}`, `{"type":"prompt","text":"x"}`, `[]`}, []string{
			"malformed", "malformed", "malformed", "malformed",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := evidencetest.ParseAll(NewParser(), strings.Join(tc.lines, "\n")+"\n")
			evidencetest.CheckBriefs(t, got, tc.want)
		})
	}
}

func TestParseStats(t *testing.T) {
	p := NewParser()
	evidencetest.ParseAll(p, strings.Join([]string{header("s1"), "", prompt("t", "x"), reply("t", "x"), `{"type":"mood"}`, end("t", "exploded"), `{`}, "\n")+"\n")
	s := p.Stats()
	if s.Lines != 7 || s.Blank != 1 || s.Events != 3 || s.Malformed != 1 || s.Ignored != 1 || s.Unknown["mood"] != 1 || s.Unknown["turn_end/exploded"] != 1 {
		t.Errorf("stats %+v", *s)
	}
	p.Reset()
	if got := evidencetest.ParseAll(p, prompt("t", "x")+"\n"); len(got) != 2 || !strings.Contains(got[1], "session= ") {
		t.Errorf("after Reset: %q", got)
	}
}

func TestFormat(t *testing.T) {
	f, ok := evidence.FormatOf(Agent)
	if !ok || f.Depth != 0 || f.Accept != evidence.AcceptFileSession || f.NewParser == nil {
		t.Fatalf("registered format %+v %v", f, ok)
	}
	for name, want := range map[string]bool{"20261201T100000-ab.jsonl": true, "x.json": false, ".tmp.jsonl": false} {
		if f.Match(name) != want {
			t.Errorf("Match(%q) = %v", name, !want)
		}
	}
}
