// Package rollout reads Codex's records: its rollouts under
// $CODEX_HOME/sessions/YYYY/MM/DD (rollout-*.jsonl), one thread each,
// into evidence. It is pure (a parser of lines) and registers its format
// with the evidence table from its init, so the watchers' engine follows
// rollouts naming no agent.
package rollout

import (
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Agent is Codex's name in its evidence.
const Agent evidence.Agent = "codex"

// Format: rollout-*.jsonl three levels below sessions (YYYY/MM/DD, day
// directories that appear over time); a prompt is taken in a turn whose
// task_started lies after the anchor (or, steered, in the running turn).
var Format = evidence.Format{
	Agent:     Agent,
	Depth:     3,
	Match:     IsRecord,
	NewParser: func() evidence.Parser { return NewParser() },
	Accept:    evidence.AcceptStartedTurn,
}

// IsRecord says whether a file name is a rollout's.
func IsRecord(name string) bool {
	return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
}

func init() { evidence.Register(Format) }
