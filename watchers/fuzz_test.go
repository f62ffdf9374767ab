package watchers

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func FuzzCodexLine(f *testing.F) {
	f.Add([]byte(metaLine("s", "/src", "0.155.1") + codexTurn("t1", "hello") + codexTurnStarted("t2")))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"sandbox_permissions\":\"require_escalated\"}","call_id":"c1"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"content":"x"}}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted","turn_id":7}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"task_complete","duration_ms":1e400}}`))
	f.Add([]byte("{}\n[]\nnull\n\"x\"\n"))
	for _, s := range evidencetest.CorpusLines(f, "rollout") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewCodexParser() }, data)
	})
}

func FuzzClaudeLine(f *testing.F) {
	f.Add([]byte(claudePrompt("s", "/w", "u1", "hi") +
		`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{}}]}}` + "\n" +
		`{"type":"user","sessionId":"s","message":{"content":[{"type":"tool_result","tool_use_id":"t"}]},"toolUseResult":{"answers":{"a":"b"}}}`))
	f.Add([]byte(`{"type":"system","subtype":"turn_duration","durationMs":"12"}`))
	f.Add([]byte(`{"type":"user","message":"not an object"}` + "\n" + `{"type":"user","message":{"content":[{"type":"text","text":1}]}}`))
	f.Add([]byte(`{"type":"assistant","isApiErrorMessage":true,"error":{"type":"overloaded"}}`))
	for _, s := range evidencetest.CorpusLines(f, "transcript") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewClaudeParser() }, data)
	})
}

// FuzzTail cuts a byte stream into reads of fuzzed sizes and checks the
// tail returns exactly the stream's lines at their offsets.
func FuzzTail(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), []byte{1, 2, 3}, uint8(4))
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ny\n"), []byte{40, 1}, uint8(8))
	f.Fuzz(func(t *testing.T, data, cuts []byte, maxLine uint8) {
		ml := int(maxLine) + 1
		tl := NewTail(ml, 0)
		f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}}
		var got []string
		emit := func(l Line) {
			if l.TooLong {
				got = append(got, fmt.Sprintf("%d:LONG%d", l.Offset, l.Len))
			} else {
				got = append(got, fmt.Sprintf("%d:%s", l.Offset, l.Data))
			}
		}
		for i := 0; len(f.data) < len(data); i++ {
			n := len(data) - len(f.data)
			if i < len(cuts) {
				n = min(n, int(cuts[i])+1)
			}
			f.data = data[:len(f.data)+n]
			for {
				s := tl.Next(f.stat())
				if s.Change != nil && s.Change.Change != evidence.FileAppeared {
					t.Fatalf("change %v on an append-only file", s.Change.Change)
				}
				if s.ReadLen == 0 {
					break
				}
				if ch := tl.Feed(f.data[s.ReadAt:s.ReadAt+int64(s.ReadLen)], emit); ch != nil {
					t.Fatalf("change %v on an append-only file", ch.Change)
				}
			}
		}
		var want []string
		off := 0
		for {
			i := bytes.IndexByte(data[off:], '\n')
			if i < 0 {
				break
			}
			if i > ml {
				want = append(want, fmt.Sprintf("%d:LONG%d", off, i))
			} else {
				want = append(want, fmt.Sprintf("%d:%s", off, data[off:off+i]))
			}
			off += i + 1
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}
