package sessiondb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// Rows written by hand, for what the recordings do not show: each case is
// rows "type<TAB>data", one a line, seq from 0.

const (
	ocSes     = `{"sessionID":"ses_a","info":{"id":"ses_a","directory":"/w","version":"1.18.33","time":{"created":1000,"updated":1000}}}`
	ocUser    = `{"sessionID":"ses_a","info":{"id":"msg_u1","role":"user","time":{"created":2000}}}`
	ocPrompt1 = `{"sessionID":"ses_a","part":{"id":"prt_1","messageID":"msg_u1","type":"text","text":"do it"},"time":2001}`
	ocAsst    = `{"sessionID":"ses_a","info":{"id":"msg_a1","role":"assistant","parentID":"msg_u1","time":{"created":2002}}}`
)

// ocAsstEnd is the assistant message completed with finish and error
// (each omitted when "").
func ocAsstEnd(finish, errName string) string {
	s := `{"sessionID":"ses_a","info":{"id":"msg_a1","role":"assistant","parentID":"msg_u1","time":{"created":2002,"completed":5000}`
	if finish != "" {
		s += `,"finish":"` + finish + `"`
	}
	if errName != "" {
		s += `,"error":{"name":"` + errName + `","data":{"message":"x"}}`
	}
	return s + "}}"
}

func ocTool(id, tool, status, extra string) string {
	return `{"sessionID":"ses_a","part":{"id":"` + id + `","messageID":"msg_a1","type":"tool","callID":"call_` + id + `","tool":"` + tool +
		`","state":{"status":"` + status + `"` + extra + `}},"time":3000}`
}

func ocText(msg, text string) string {
	return `{"sessionID":"ses_a","part":{"id":"prt_t` + msg + `","messageID":"` + msg + `","type":"text","text":"` + text + `"},"time":2500}`
}

const (
	ocMU = "message.updated.1"
	ocPU = "message.part.updated.1"
	ocSC = "session.created.1"
)

func ocRows(rows ...string) string { return strings.Join(rows, "\n") }

func ocRow(typ, data string) string { return typ + "\t" + data }

// ocParse runs the rows through one parser.
func ocParse(rows string) []string {
	p := NewParser()
	var out []string
	for i, line := range strings.Split(rows, "\n") {
		typ, data, _ := strings.Cut(line, "\t")
		for _, ev := range p.Parse(evidence.Where{Agent: Agent, Offset: int64(i), End: int64(i) + 1}, typ, []byte(data), nil) {
			out = append(out, ocBrief(ev))
		}
	}
	return out
}

func TestOpenCodeParser(t *testing.T) {
	head := []string{ocRow(ocSC, ocSes), ocRow(ocMU, ocUser), ocRow(ocPU, ocPrompt1), ocRow(ocMU, ocAsst)}
	start := []string{"0 session ses_a /w 1.18.33", "2 started msg_u1", ocPrompt(2, "msg_u1", "do it")}
	for _, tc := range []struct {
		name string
		rows []string
		want []string
	}{
		{"cut short: length", []string{ocRow(ocPU, ocText("msg_a1", "partial")), ocRow(ocMU, ocAsstEnd("length", ""))},
			[]string{"5 completed msg_u1 length notext 3s"}},
		{"stop with no text", []string{ocRow(ocMU, ocAsstEnd("stop", ""))},
			[]string{"4 completed msg_u1 stop notext 3s"}},
		{"stop, then the same completion written again", []string{ocRow(ocMU, ocAsstEnd("stop", "")), ocRow(ocMU, ocAsstEnd("stop", ""))},
			[]string{"4 completed msg_u1 stop notext 3s"}},
		{"an auth error", []string{ocRow(ocMU, ocAsstEnd("", "ProviderAuthError"))},
			[]string{"4 failed msg_u1 ProviderAuthError"}},
		{"tool-calls goes on", []string{ocRow(ocPU, ocTool("p1", "bash", "running", `,"input":{"command":"ls"}`)),
			ocRow(ocPU, ocTool("p1", "bash", "completed", `,"input":{"command":"ls"},"output":"x"`)), ocRow(ocMU, ocAsstEnd("tool-calls", ""))},
			[]string{"4 pending msg_u1 bash call_p1", "5 result msg_u1 bash call_p1 ok"}},
		{"first seen ended; pending ignored", []string{ocRow(ocPU, ocTool("p1", "bash", "pending", `,"input":{}`)),
			ocRow(ocPU, ocTool("p1", "bash", "error", `,"input":{},"error":"The user rejected permission to use this specific tool call with the following feedback: no"`)),
			ocRow(ocPU, ocTool("p1", "bash", "error", `,"input":{},"error":"again"`)), ocRow(ocMU, ocAsstEnd("tool-calls", ""))},
			[]string{"5 pending msg_u1 bash call_p1", "5 result msg_u1 bash call_p1 rejected", "7 aborted msg_u1 rejected"}},
		{"a question answered", []string{ocRow(ocPU, ocTool("q1", "question", "completed",
			`,"input":{"questions":[{"question":"a"},{"question":"b"}]},"metadata":{"answers":[["Green"],[]]}`))},
			[]string{"4 pending msg_u1 question call_q1", "4 result msg_u1 question call_q1 ok", "4 answered call_q1 1/2"}},
		{"a question dismissed", []string{ocRow(ocPU, ocTool("q1", "question", "error", `,"input":{},"error":"Error: The user dismissed this question"`))},
			[]string{"4 pending msg_u1 question call_q1", "4 result msg_u1 question call_q1 rejected"}},
		{"an unknown status", []string{ocRow(ocPU, ocTool("p1", "bash", "paused", ""))}, nil},
		{"removed rows, unknown rows, blank data", []string{ocRow("message.removed.1", `{"sessionID":"ses_a","messageID":"msg_a1"}`),
			ocRow("session.compacted.9", `{}`), ocRow(ocPU, "")}, nil},
		{"malformed", []string{ocRow(ocPU, "{"), ocRow(ocMU, `{"info":7}`), ocRow(ocPU, `{"part":{}}`)},
			[]string{"4 malformed", "5 malformed", "6 malformed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := append(slices.Clone(start), tc.want...)
			if got := ocParse(ocRows(append(slices.Clone(head), tc.rows...)...)); !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestOpenCodeParserPrompts(t *testing.T) {
	synthetic := `{"sessionID":"ses_a","part":{"id":"prt_0","messageID":"msg_u1","type":"text","text":"Called the Read tool","synthetic":true},"time":2001}`
	for _, tc := range []struct {
		name string
		rows []string
		want []string
	}{
		{"a synthetic part first: the typed one is the prompt", []string{ocRow(ocMU, ocUser), ocRow(ocPU, synthetic), ocRow(ocPU, ocPrompt1)},
			[]string{"2 started msg_u1", ocPrompt(2, "msg_u1", "do it")}},
		{"a second text part of the prompt", []string{ocRow(ocMU, ocUser), ocRow(ocPU, ocPrompt1), ocRow(ocPU, ocText("msg_u1", "more"))},
			[]string{"1 started msg_u1", ocPrompt(1, "msg_u1", "do it")}},
		{"a part of a message never written", []string{ocRow(ocPU, ocPrompt1)}, nil},
		{"a request of no prompt (compaction) ends nothing", []string{ocRow(ocMU, ocUser), ocRow(ocMU, ocAsst), ocRow(ocMU, ocAsstEnd("stop", ""))}, nil},
		{"a subagent's session", []string{ocRow(ocSC, strings.Replace(ocSes, `"directory"`, `"parentID":"ses_p","directory"`, 1)),
			ocRow(ocMU, ocUser), ocRow(ocPU, ocPrompt1), ocRow(ocMU, ocAsst), ocRow(ocMU, ocAsstEnd("stop", ""))}, nil},
		{"the session written again, then moved", []string{ocRow(ocSC, ocSes), ocRow("session.updated.1", ocSes),
			ocRow("session.updated.1", strings.Replace(ocSes, `"/w"`, `"/x"`, 1))},
			[]string{"0 session ses_a /w 1.18.33", "2 session ses_a /x 1.18.33"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ocParse(ocRows(tc.rows...)); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// ocSeeds are a recorded session's rows, "type<TAB>data" a line, cut
// into one seed per prompt (each after the session's first row), each row
// cut to the fields the parser reads: the fuzzer minimises an input it
// finds interesting, which takes minutes over a whole session's 100 KB.
func ocSeeds(t testing.TB, path, session string) [][]byte {
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	page, err := db.eventPage(context.Background(), session, -1)
	if err != nil || len(page) == 0 {
		t.Fatal(err, len(page))
	}
	row := func(r ocEventRow) string { return fmt.Sprintf("%s\t%s\n", r.typ, ocShrink(r.data)) }
	var seeds [][]byte
	var b strings.Builder
	for _, r := range page[1:] {
		if r.typ == ocMU && bytes.Contains(r.data, []byte(`"role":"user"`)) && !bytes.Contains(r.data, []byte(`"summary"`)) && b.Len() > 0 {
			seeds = append(seeds, []byte(row(page[0])+b.String()))
			b.Reset()
		}
		b.WriteString(row(r))
	}
	return append(seeds, []byte(row(page[0])+b.String()))
}

// ocShrink keeps the fields of a row's data the parser reads.
func ocShrink(data []byte) []byte {
	var row struct {
		SessionID string        `json:"sessionID"`
		Info      *openCodeInfo `json:"info,omitempty"`
		Part      *struct {
			ID        string `json:"id"`
			MessageID string `json:"messageID"`
			Type      string `json:"type"`
			Text      string `json:"text,omitempty"`
			Synthetic bool   `json:"synthetic,omitempty"`
			CallID    string `json:"callID,omitempty"`
			Tool      string `json:"tool,omitempty"`
			State     *struct {
				Status string          `json:"status"`
				Input  json.RawMessage `json:"input,omitempty"`
				Error  string          `json:"error,omitempty"`
			} `json:"state,omitempty"`
		} `json:"part,omitempty"`
		Time int64 `json:"time,omitempty"`
	}
	if json.Unmarshal(data, &row) != nil {
		return data
	}
	out, _ := json.Marshal(row)
	return out
}

// FuzzOpenCodeRow runs rows ("type<TAB>data" a line) through one parser
// and checks what any row may produce.
func FuzzOpenCodeRow(f *testing.F) {
	for _, tc := range ocRecorded {
		for _, seed := range ocSeeds(f, tc.path, tc.session) {
			f.Add(seed)
		}
	}
	f.Add([]byte(ocRows(ocRow(ocSC, ocSes), ocRow(ocMU, ocUser), ocRow(ocPU, ocPrompt1), ocRow(ocMU, ocAsst),
		ocRow(ocPU, ocTool("q1", "question", "completed", `,"input":{"questions":[{}]},"metadata":{"answers":[["a"]]}`)),
		ocRow(ocMU, ocAsstEnd("tool-calls", "")), ocRow(ocMU, ocAsstEnd("", "APIError")))))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		p := NewParser()
		for i, line := range lines {
			typ, row, _ := bytes.Cut(line, []byte("\t"))
			where := evidence.Where{Agent: Agent, Path: "/o.db", File: evidence.FileID{Dev: 1, Ino: 2}, Offset: int64(i), End: int64(i) + 1}
			before := *p.Stats()
			evs := p.Parse(where, string(typ), row, nil)
			for _, ev := range evs {
				at := ev.At()
				at.Time = time.Time{}
				if at != where {
					t.Fatalf("%T at %+v, not the row's %+v", ev, at, where)
				}
				switch e := ev.(type) {
				case evidence.PromptAccepted:
					if e.TurnID == "" {
						t.Fatal("prompt without turn")
					}
				case evidence.TurnCompleted:
					if e.Duration < 0 {
						t.Fatal("negative duration")
					}
				}
			}
			evidencetest.CheckLine(t, before, *p.Stats(), evs)
		}
		// A fresh parser says the same.
		a, b := NewParser(), NewParser()
		for i, line := range lines {
			typ, row, _ := bytes.Cut(line, []byte("\t"))
			w := evidence.Where{Offset: int64(i)}
			if x, y := a.Parse(w, string(typ), row, nil), b.Parse(w, string(typ), row, nil); fmt.Sprint(x) != fmt.Sprint(y) {
				t.Fatalf("not deterministic: %v vs %v", x, y)
			}
		}
	})
}
