package watchers

import (
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The record formats whose parsers still live here; each moves into its
// agent's folder with its parser (issue 40), which registers it there.
func init() {
	jsonl := func(prefix string) func(string) bool {
		return func(n string) bool { return strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".jsonl") }
	}
	evidence.Register(evidence.Format{Agent: evidence.Codex, Depth: 3, Match: jsonl("rollout-"),
		NewParser: func() evidence.Parser { return NewCodexParser() }, Accept: evidence.AcceptStartedTurn})
	evidence.Register(evidence.Format{Agent: evidence.Claude, Depth: 1, Match: jsonl(""),
		NewParser: func() evidence.Parser { return NewClaudeParser() }, Accept: evidence.AcceptSession})
}
