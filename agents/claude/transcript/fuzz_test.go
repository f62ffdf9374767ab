package transcript

import (
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func FuzzClaudeLine(f *testing.F) {
	f.Add([]byte(agenttest.TranscriptPrompt("s", "/w", "u1", "hi") +
		`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{}}]}}` + "\n" +
		`{"type":"user","sessionId":"s","message":{"content":[{"type":"tool_result","tool_use_id":"t"}]},"toolUseResult":{"answers":{"a":"b"}}}`))
	f.Add([]byte(`{"type":"system","subtype":"turn_duration","durationMs":"12"}`))
	f.Add([]byte(`{"type":"user","message":"not an object"}` + "\n" + `{"type":"user","message":{"content":[{"type":"text","text":1}]}}`))
	f.Add([]byte(`{"type":"assistant","isApiErrorMessage":true,"error":{"type":"overloaded"}}`))
	for _, s := range evidencetest.CorpusLines(f, "transcript") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewParser() }, data)
	})
}
