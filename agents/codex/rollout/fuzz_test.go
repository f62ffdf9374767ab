package rollout

import (
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func FuzzCodexLine(f *testing.F) {
	f.Add([]byte(agenttest.RolloutMeta("s", "/src", "0.155.1") + agenttest.RolloutTurn("t1", "hello") + agenttest.RolloutTurnStarted("t2")))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"sandbox_permissions\":\"require_escalated\"}","call_id":"c1"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"content":"x"}}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted","turn_id":7}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"task_complete","duration_ms":1e400}}`))
	f.Add([]byte("{}\n[]\nnull\n\"x\"\n"))
	for _, s := range evidencetest.CorpusLines(f, "rollout") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewParser() }, data)
	})
}
