package chats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The Gemini CLI 0.61.0 chats files in testdata/gemini (README.md there
// says where each comes from) and their events, one line each: the line
// number (1-based) of the event's record, then the event in brief (ids cut
// to their first 8 characters, tool call ids to their last part).

// geminiPrompt is geminiBrief's line for the prompt text accepted as turn id.
func geminiPrompt(id, text string) string {
	return fmt.Sprintf("prompt %s %s %d", id, evidencetest.HashPrefix(text), len(text))
}

// geminiBriefs parses data line by line (a last line without its newline
// is held back, as the tail does) and lists brief events by line number.
// Every event must lie on a line read so far.
func geminiBriefs(t *testing.T, p evidence.Parser, data []byte) []string {
	t.Helper()
	var out []string
	lineNo := map[int64]int{}
	ends := map[int64]int64{}
	off := int64(0)
	for n := 1; ; n++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		lineNo[off], ends[off] = n, off+int64(i)+1
		for _, ev := range p.Parse(evidence.Where{Agent: Agent, Path: "chats.jsonl", Offset: off, End: off + int64(i) + 1}, data[:i], nil) {
			at := ev.At()
			if lineNo[at.Offset] == 0 || ends[at.Offset] != at.End {
				t.Fatalf("%s at %d-%d: not a line read so far", evidencetest.Brief(ev), at.Offset, at.End)
			}
			out = append(out, fmt.Sprintf("L%d %s", lineNo[at.Offset], evidencetest.Brief(ev)))
		}
		data, off = data[i+1:], off+int64(i)+1
	}
	return out
}

// TestGeminiParserRecorded: the events of the recorded files, reviewed
// against the records.
func TestGeminiParserRecorded(t *testing.T) {
	for _, tc := range geminiRecorded {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "chats", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			p := NewParser()
			evidencetest.CheckBriefs(t, geminiBriefs(t, p, data), tc.want)
			if s := p.Stats(); s.Malformed != 0 || len(s.Unknown) != 0 || s.Lines != int64(bytes.Count(data, []byte("\n"))) {
				t.Fatalf("stats %+v", s)
			}
		})
	}
}

// geminiRecorded: probe-session is one session of the real CLI against
// the fake model (README.md lists its turns); sample-approve-cancel-reject
// the first sample; rig-* the rig's recordings of the corpus surfaces.
var geminiRecorded = []struct {
	file string
	want []string
}{
	{"probe-session.jsonl", []string{
		"L1 session f696fc42",
		"L3 started dabe991c",
		"L3 " + geminiPrompt("dabe991c", "hello there"),
		"L5 reply dabe991c text",
		"L5 completed dabe991c text 122ms",
		"L7 started f1232f46",
		"L7 " + geminiPrompt("f1232f46", "text-tool please"),
		"L9 reply f1232f46 text",
		"L11 pending run_shell_command 1796525755061_0",
		"L11 result run_shell_command 1796525755061_0 rejected",
		"L12 aborted f1232f46 interrupted",
		"L19 started 9ee817ab",
		"L19 " + geminiPrompt("9ee817ab", "text-tool again"),
		"L21 reply 9ee817ab text",
		"L23 pending run_shell_command 1796525767332_0",
		"L23 result run_shell_command 1796525767332_0 ok",
		"L26 reply 9ee817ab text",
		"L26 completed 9ee817ab text 4.172s",
		"L28 started 3f468107",
		"L28 " + geminiPrompt("3f468107", "ask-color please"),
		"L32 pending ask_user 1796525778946_0",
		"L32 result ask_user 1796525778946_0 ok",
		"L32 answered 1796525778946_0 1/1",
		"L35 reply 3f468107 text",
		"L35 completed 3f468107 text 7.007s",
		"L37 started 091422ba",
		"L37 " + geminiPrompt("091422ba", "ask-color again"),
		"L41 pending ask_user 1796525792286_0",
		"L41 result ask_user 1796525792286_0 rejected",
		"L42 aborted 091422ba interrupted",
		"L65 started ab534de3",
		"L65 " + geminiPrompt("ab534de3", "run-false please"),
		"L69 pending run_shell_command 1796525802570_0",
		"L69 result run_shell_command 1796525802570_0 ok",
		"L72 reply ab534de3 text",
		"L72 completed ab534de3 text 167ms",
		"L74 started 8a695653",
		"L74 " + geminiPrompt("8a695653", "read-missing please"),
		"L78 pending read_file 1796525814251_0",
		"L78 result read_file 1796525814251_0 error",
		"L81 reply 8a695653 text",
		"L81 completed 8a695653 text 105ms",
		"L83 started 54141c58",
		"L83 " + geminiPrompt("54141c58", "fail-bad please"),
		"L86 failed 54141c58",
		"L90 started 471b5f36",
		"L90 " + geminiPrompt("471b5f36", "slow-text please"),
		"L92 aborted 471b5f36 interrupted",
		"L95 started 3f39fce0",
		"L95 " + geminiPrompt("3f39fce0", "run-sleep please"),
		"L99 aborted 3f39fce0 interrupted",
		"L101 pending run_shell_command 1796525846087_0",
		"L101 result run_shell_command 1796525846087_0 error",
		"L104 started 88843974",
		"L104 " + geminiPrompt("88843974", "/foobar"),
		"L106 reply 88843974 text",
		"L106 completed 88843974 text 8ms",
		"L108 started 0506b616",
		"L108 " + geminiPrompt("0506b616", "fail-rate please"),
		"L110 aborted 0506b616 interrupted",
		"L113 started 88f48f91",
		"L113 " + geminiPrompt("88f48f91", "slow-work again"),
		"L115 reply 88f48f91 text",
		"L115 completed 88f48f91 text 45.013s",
		"L117 started 2c4a47fa",
		"L117 " + geminiPrompt("2c4a47fa", "hello queued"),
		"L119 reply 2c4a47fa text",
		"L119 completed 2c4a47fa text 7ms",
		"L123 started bba26163",
		"L123 " + geminiPrompt("bba26163", "text-tool third"),
		"L125 reply bba26163 text",
		"L127 pending run_shell_command 1796526394886_0",
		"L127 result run_shell_command 1796526394886_0 rejected",
		"L128 aborted bba26163 interrupted",
		"L175 started e7091817",
		"L175 " + geminiPrompt("e7091817", "hello after resume"),
		"L177 reply e7091817 text",
	}},
	{"rig-cancel.jsonl", []string{
		"L1 session f22cb795",
		"L3 started 4a8cb268",
		"L3 " + geminiPrompt("4a8cb268", "slow-work please"),
		"L5 aborted 4a8cb268 interrupted",
	}},
	{"rig-edit-approve.jsonl", []string{
		"L1 session 10c0f2ce",
		"L3 started 0ced22c4",
		"L3 " + geminiPrompt("0ced22c4", "write-notes please"),
		"L7 pending write_file 1796525824396_0",
		"L7 result write_file 1796525824396_0 ok",
		"L10 reply 0ced22c4 text",
	}},
	{"rig-edit-reject.jsonl", []string{
		"L1 session bd7eed3c",
		"L3 started e300fc33",
		"L3 " + geminiPrompt("e300fc33", "write-notes please"),
		"L7 pending write_file 1796525834924_0",
		"L7 result write_file 1796525834924_0 rejected",
		"L8 aborted e300fc33 interrupted",
	}},
	{"rig-idle.jsonl", []string{
		"L1 session 713b9522",
	}},
	{"rig-permission-approve.jsonl", []string{
		"L1 session 393942f0",
		"L3 started d1f82dda",
		"L3 " + geminiPrompt("d1f82dda", "run-touch please"),
		"L7 pending run_shell_command 1796525973892_0",
		"L7 result run_shell_command 1796525973892_0 ok",
		"L10 reply d1f82dda text",
	}},
	{"rig-permission-escape.jsonl", []string{
		"L1 session d65743b7",
		"L3 started 01d75347",
		"L3 " + geminiPrompt("01d75347", "run-touch please"),
		"L7 pending run_shell_command 1796526113482_0",
		"L7 result run_shell_command 1796526113482_0 rejected",
		"L8 aborted 01d75347 interrupted",
	}},
	{"rig-permission-reject.jsonl", []string{
		"L1 session 19a5ed89",
		"L3 started f7a48c04",
		"L3 " + geminiPrompt("f7a48c04", "run-touch please"),
		"L7 pending run_shell_command 1796526123753_0",
		"L7 result run_shell_command 1796526123753_0 rejected",
		"L8 aborted f7a48c04 interrupted",
	}},
	{"rig-send.jsonl", []string{
		"L1 session b4a9d04a",
		"L3 started 05ba4431",
		"L3 " + geminiPrompt("05ba4431", "hello there"),
		"L5 reply 05ba4431 text",
	}},
	{"sample-approve-cancel-reject.jsonl", []string{
		"L1 session dd86b651",
		"L3 started 875d7940",
		"L3 " + geminiPrompt("875d7940", "please run-touch"),
		"L7 pending run_shell_command 1796524613524_0",
		"L7 result run_shell_command 1796524613524_0 ok",
		"L10 reply 875d7940 text",
		"L10 completed 875d7940 text 8.265s",
		"L12 started 34acfa26",
		"L12 " + geminiPrompt("34acfa26", "please slow-work"),
		"L14 aborted 34acfa26 interrupted",
		"L17 started b0711b38",
		"L17 " + geminiPrompt("b0711b38", "please write-file"),
		"L21 pending write_file 1796524789673_0",
		"L21 result write_file 1796524789673_0 rejected",
		"L22 aborted b0711b38 interrupted",
	}},
}

// Records of the shapes the CLI writes (see gemini.go), for the cases the
// recordings lack.

const gTime = `"timestamp":"2026-12-06T10:00:00.000Z"`

func gHeader(session, kind string) string {
	return `{"sessionId":"` + session + `","projectHash":"ph","startTime":"2026-12-06T10:00:00.000Z","lastUpdated":"2026-12-06T10:00:00.000Z","kind":"` + kind + `"}`
}

// gParts is a content of text parts.
func gParts(texts ...string) string {
	parts := make([]string, len(texts))
	for i, t := range texts {
		parts[i] = `{"text":` + evidencetest.JSON(t) + `}`
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func gUser(id string, texts ...string) string {
	return `{"id":"` + id + `",` + gTime + `,"type":"user","content":` + gParts(texts...) + `}`
}

// gResponse is the user message carrying a call's result to the model.
func gResponse(id, call string) string {
	return `{"id":"` + id + `",` + gTime + `,"type":"user","content":[{"functionResponse":{"id":"` + call + `","name":"t","response":{"output":"x"}}}]}`
}

// gReply is a reply as recordMessage writes it; calls, when given, are
// its toolCalls (the same id written again).
func gReply(id, text string, calls ...string) string {
	tc := ""
	if len(calls) > 0 {
		tc = `,"toolCalls":[` + strings.Join(calls, ",") + `]`
	}
	return `{"id":"` + id + `",` + gTime + `,"type":"gemini","content":` + evidencetest.JSON(text) +
		`,"thoughts":[],"tokens":{"input":100,"output":20,"cached":0,"thoughts":0,"tool":0,"total":120},"model":"m"` + tc + `}`
}

// gAgain is a reply written again by setHistory: parts, tokens null.
func gAgain(id string, texts ...string) string {
	return `{"id":"` + id + `",` + gTime + `,"type":"gemini","content":` + gParts(texts...) + `,"thoughts":[],"tokens":null}`
}

// gCall is one entry of toolCalls; result is its function response's
// response object.
func gCall(id, name, status, args, response string) string {
	return `{"id":"` + id + `","name":"` + name + `","args":` + args + `,"result":[{"functionResponse":{"id":"` + id + `","name":"` + name +
		`","response":` + response + `}}],"status":"` + status + `","timestamp":"2026-12-06T10:00:05.000Z"}`
}

func gNote(id, typ, text string) string {
	return `{"id":"` + id + `",` + gTime + `,"type":"` + typ + `","content":` + evidencetest.JSON(text) + `}`
}

const (
	gStamp   = `{"$set":{"lastUpdated":"2026-12-06T10:00:00.000Z"}}`
	gContext = "<session_context>\nThis is the Gemini CLI.\n</session_context>"
	gDenied  = `{"error":"[Operation Cancelled] Reason: User denied execution."}`
	gOK      = `{"output":"done"}`
)

// gList is a $set messages naming ids (their contents are not read but
// for the first message's).
func gList(first string, ids ...string) string {
	msgs := []string{first}
	for _, id := range ids {
		msgs = append(msgs, `{"id":"`+id+`","type":"user","content":[]}`)
	}
	return `{"$set":{"messages":[` + strings.Join(msgs, ",") + `],"lastUpdated":"2026-12-06T10:00:00.000Z"}}`
}

var gInit = gList(gUser("env", gContext))

func TestGeminiParserShapes(t *testing.T) {
	head := []string{gHeader("s1", "main"), gInit} // L1, L2
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"a text reply is the turn's end once the next prompt comes", append(head,
			gUser("u1", "hi"), gStamp, gReply("r1", "Hello"), gStamp, gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "hi"),
				"L5 reply u1 text", "L5 completed u1 text 0s", "L7 started u2", "L7 " + geminiPrompt("u2", "next")}},
		{"the calls of a reply with text come later on its id", append(head,
			gUser("u1", "go"), gReply("r1", "Running it."), gReply("r1", "Running it.", gCall("c_1_0", "run_shell_command", "success", `{"command":"ls"}`, gOK)),
			gResponse("f1", "c_1_0"), gReply("r2", "Done."), gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L4 reply u1 text",
				"L5 pending run_shell_command 1_0", "L5 result run_shell_command 1_0 ok",
				"L7 reply u1 text", "L7 completed u1 text 0s", "L8 started u2", "L8 " + geminiPrompt("u2", "next")}},
		{"calls that never ended: no end", append(head,
			gUser("u1", "go"), gReply("r1", ""), gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L5 started u2", "L5 " + geminiPrompt("u2", "next")}},
		{"an id written twice is read once", append(head,
			gUser("u1", "go"), gUser("u1", "go"), gReply("r1", ""),
			gReply("r1", "", gCall("c_1_0", "write_file", "cancelled", `{}`, gDenied)),
			gReply("r1", "", gCall("c_1_0", "write_file", "cancelled", `{}`, gDenied)),
			gNote("i1", "info", "Request cancelled."), gNote("i1", "info", "Request cancelled.")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"),
				"L6 pending write_file 1_0", "L6 result write_file 1_0 rejected", "L8 aborted u1 interrupted"}},
		{"the history written again after a refusal is no prompt", append(head,
			gUser("u1", "hi"), gReply("r1", "Hello"), gUser("u2", "write"), gReply("r2", ""),
			gReply("r2", "", gCall("c_2_0", "write_file", "cancelled", `{}`, gDenied)), gNote("i1", "info", "Request cancelled."),
			gUser("x1", gContext, "hi"), gStamp, gAgain("x2", "Hello"), gStamp, gUser("x3", "write"), gStamp,
			gList(gUser("x1", gContext, "hi"), "x2", "x3"), gUser("u3", "write"), gReply("r3", "Written.")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "hi"),
				"L4 reply u1 text", "L4 completed u1 text 0s", "L5 started u2", "L5 " + geminiPrompt("u2", "write"),
				"L7 pending write_file 2_0", "L7 result write_file 2_0 rejected", "L8 aborted u2 interrupted",
				"L16 started u3", "L16 " + geminiPrompt("u3", "write"), "L17 reply u3 text"}},
		{"after a rewind the history written again begins with the first message kept", append(head,
			`{"$rewindTo":"u0"}`, gList(gAgain("k1", "Hello"), "k2"),
			gUser("u1", "go"), gReply("r1", "", gCall("c_1_0", "run_shell_command", "cancelled", `{}`, gDenied)), gNote("i1", "info", "Request cancelled."),
			gAgain("y1", "Hello"), gUser("y2", "hi"), gList(gAgain("y1", "Hello"), "y2"), gUser("u2", "hi")),
			[]string{"L1 session s1", "L5 started u1", "L5 " + geminiPrompt("u1", "go"),
				"L6 pending run_shell_command 1_0", "L6 result run_shell_command 1_0 rejected", "L7 aborted u1 interrupted",
				"L11 started u2", "L11 " + geminiPrompt("u2", "hi")}},
		{"an error while the model is asked fails the turn; one after a text reply is not the turn's", append(head,
			gUser("u1", "go"), gList(gUser("env", gContext)), gNote("e1", "error", "[API Error: 400]"), gNote("n1", "info", "This request failed."),
			gUser("u2", "hi"), gReply("r2", "Hello"), gNote("e2", "error", "Unknown command"), gUser("u3", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L5 failed u1",
				"L7 started u2", "L7 " + geminiPrompt("u2", "hi"), "L8 reply u2 text", "L8 completed u2 text 0s", "L10 started u3", "L10 " + geminiPrompt("u3", "next")}},
		{"a reply cut short is no end with text", append(head,
			gUser("u1", "go"), gReply("r1", "Par"), gNote("n1", "info", "⚠️  Response truncated due to token limits."), gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L4 reply u1 text", "L5 reply u1 notext", "L4 completed u1 notext 0s",
				"L6 started u2", "L6 " + geminiPrompt("u2", "next")}},
		{"the CLI's own continuation is no prompt", append(head,
			gUser("u1", "go"), gReply("r1", "", gCall("c_1_0", "read_file", "error", `{}`, `{"error":"File not found"}`)), gResponse("f1", "c_1_0"),
			gAgain("r2"), gUser("n1", "[System: You successfully executed a tool but returned an empty response. Please analyze the tool output and explain your progress or final answer.]"),
			gReply("r3", "Final."), gUser("n2", "System: Potential loop detected. Details: x"), gReply("r4", "Again."), gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"),
				"L4 pending read_file 1_0", "L4 result read_file 1_0 error", "L6 reply u1 notext", "L8 reply u1 text", "L10 reply u1 text", "L10 completed u1 text 0s", "L11 started u2", "L11 " + geminiPrompt("u2", "next")}},
		{"the typed words of an @file prompt", append(head,
			`{"id":"u1",`+gTime+`,"type":"user","content":[{"text":"read @a.txt"},{"text":"\n--- Content from referenced files ---"},{"text":"x"}],"displayContent":[{"text":"read @a.txt"}]}`),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "read @a.txt")}},
		{"Esc while a call runs: the info, then the call in a new message", append(head,
			gUser("u1", "go"), gReply("r1", "Running it."), gNote("i1", "info", "Request cancelled."),
			`{"id":"g2",`+gTime+`,"type":"gemini","content":"","toolCalls":[`+gCall("c_1_0", "run_shell_command", "cancelled", `{}`, `{"error":"[Operation Cancelled] Reason: Operation cancelled by user"}`)+`],"thoughts":[],"model":"m"}`,
			gResponse("f1", "c_1_0"), gUser("u2", "next")),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L4 reply u1 text", "L5 aborted u1 interrupted",
				"L6 pending run_shell_command 1_0", "L6 result run_shell_command 1_0 error", "L8 started u2", "L8 " + geminiPrompt("u2", "next")}},
		{"a call written before it ended, then its result", append(head,
			gUser("u1", "go"), gReply("r1", "", gCall("c_1_0", "run_shell_command", "executing", `{}`, `{}`)),
			gReply("r1", "", gCall("c_1_0", "run_shell_command", "success", `{}`, gOK), gCall("c_1_1", "ask_user", "success",
				`{"questions":[{"question":"A?","header":"A","type":"text"},{"question":"B?","header":"B","type":"text"}]}`, `{"output":"{\"answers\":{\"0\":\"yes\",\"1\":\"\"}}"}`))),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "go"), "L4 pending run_shell_command 1_0",
				"L5 result run_shell_command 1_0 ok", "L5 pending ask_user 1_1", "L5 result ask_user 1_1 ok", "L5 answered 1_1 1/2"}},
		{"a subagent's file is not the user's conversation", []string{gHeader("sub1", "subagent"), gUser("u1", "do the task"), gReply("r1", "ok")},
			nil},
		{"read from past the header: no session, the context still no prompt", []string{
			gUser("x1", gContext, "hi"), gStamp, gAgain("x2", "Hello"), gList(gUser("x1", gContext, "hi"), "x2"), gUser("u1", "go")},
			[]string{"L5 started u1", "L5 " + geminiPrompt("u1", "go")}},
		{"a field of another type is read as empty", append(head,
			`{"id":"u1","timestamp":5,"type":"user","content":[{"text":"hi"},{"text":7}],"displayContent":5}`),
			[]string{"L1 session s1", "L3 started u1", "L3 " + geminiPrompt("u1", "hi")}},
		{"a resume names the session again", append(head,
			`{"$set":{"sessionId":"s1"}}`, gInit, gUser("u1", "go"), `{"$set":{"sessionId":"s2"}}`),
			[]string{"L1 session s1", "L5 started u1", "L5 " + geminiPrompt("u1", "go"), "L6 session s2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewParser()
			evidencetest.CheckBriefs(t, geminiBriefs(t, p, []byte(strings.Join(tc.lines, "\n")+"\n")), tc.want)
			if s := p.Stats(); s.Malformed != 0 || len(s.Unknown) != 0 {
				t.Fatalf("stats %+v", s)
			}
		})
	}
}

// Lines that are no record are Malformed, with the file and offset;
// records of kinds not known are counted and skipped; a torn last line is
// held back by the tail, and when it is given as a line it is Malformed.
func TestGeminiParserGarbage(t *testing.T) {
	lines := []string{
		gHeader("s1", "main"),
		"not json",
		`{"id":"u1",` + gTime + `,"type":"user","content":[{"te`,
		`[]`, `{}`, `null`, `"x"`, `{"$set":null}`, "  \t",
		`{"id":"h1",` + gTime + `,"type":"hologram","content":"?"}`,
		`{"id":"h2",` + gTime + `,"type":"user","content":5}`,
		`{"id":"h3",` + gTime + `,"type":"gemini","content":{"x":1},"toolCalls":"not a list"}`,
		`{"$set":{"lastUpdated":"t","brandNew":1}}`,
		gReply("r1", "", gCall("c_1_0", "t", "paused", `{}`, `{}`)),
		gUser("u2", "still read"),
	}
	p := NewParser()
	got := geminiBriefs(t, p, []byte(strings.Join(lines, "\n")+"\n"))
	want := []string{"L1 session s1", "L2 malformed", "L3 malformed", "L4 malformed", "L5 malformed", "L6 malformed", "L7 malformed", "L8 malformed",
		"L14 pending t 1_0", "L15 started u2", "L15 " + geminiPrompt("u2", "still read")}
	evidencetest.CheckBriefs(t, got, want)
	s := p.Stats()
	if s.Lines != 15 || s.Blank != 1 || s.Malformed != 7 || s.Events != 4 ||
		s.Unknown["message/hologram"] != 1 || s.Unknown["user/content"] != 1 || s.Unknown["$set/brandNew"] != 1 || s.Unknown["toolCall/paused"] != 1 || len(s.Unknown) != 4 {
		t.Fatalf("stats %+v", s)
	}
	evs := NewParser().Parse(evidence.Where{Path: "/x/chats/session.jsonl", Offset: 1234}, []byte("{nope"), nil)
	if m, ok := evs[0].(evidence.Malformed); !ok || !errors.Is(m.Err, evidence.ErrMalformed) || m.Offset != 1234 || !strings.Contains(m.Err.Error(), "/x/chats/session.jsonl:1234") {
		t.Fatalf("%+v", evs)
	}
	p.Reset()
	if got := geminiBriefs(t, p, []byte(gUser("u1", "again")+"\n")); len(got) != 2 {
		t.Fatalf("after Reset: %q", got)
	}
}

// geminiSeeds returns the files of testdata/gemini in runs of a few lines,
// as fuzz seeds.
func geminiSeeds(tb testing.TB) [][]byte {
	const run = 6
	files, err := filepath.Glob(filepath.Join("testdata", "chats", "*.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no gemini testdata: %v", err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 0; i < len(lines); i += run {
			if seed := bytes.Join(lines[i:min(i+run, len(lines))], nil); len(seed) > 0 {
				out = append(out, seed)
			}
		}
	}
	return out
}

// The events carry the records' times: a call's result the time it ended,
// a turn's completion its reply's, its duration from the prompt.
func TestGeminiParserTimes(t *testing.T) {
	at := func(ts string) string { return `"timestamp":"2026-12-06T10:00:0` + ts + `Z"` }
	lines := []string{
		`{"id":"u1",` + at("1.000") + `,"type":"user","content":[{"text":"go"}]}`,
		`{"id":"r1",` + at("2.000") + `,"type":"gemini","content":"","toolCalls":[` + gCall("c_1_0", "t", "success", `{}`, gOK) + `]}`,
		`{"id":"r2",` + at("6.500") + `,"type":"gemini","content":"Done."}`,
		`{"id":"u2",` + at("9.000") + `,"type":"user","content":[{"text":"next"}]}`,
	}
	p := NewParser()
	var got []string
	for i, l := range lines {
		for _, ev := range p.Parse(evidence.Where{Offset: int64(i)}, []byte(l), nil) {
			got = append(got, fmt.Sprintf("%T@%d %s", ev, ev.At().Offset, ev.At().Time.Format("05.000")))
			if c, ok := ev.(evidence.TurnCompleted); ok && c.Duration != 5500*time.Millisecond {
				t.Errorf("duration %v", c.Duration)
			}
		}
	}
	want := "evidence.TurnStarted@0 01.000|evidence.PromptAccepted@0 01.000|evidence.ToolPending@1 02.000|evidence.ToolResult@1 05.000|" +
		"evidence.ReplyEnded@2 06.500|evidence.TurnCompleted@2 06.500|evidence.TurnStarted@3 09.000|evidence.PromptAccepted@3 09.000"
	if strings.Join(got, "|") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}
