// Package sessions reads the records of akk's test agent, Parrot: one
// file per session, <HOME>/.parrot/sessions/<session>.jsonl, its header
// line naming the session, its cwd and its version, then one line per
// prompt, reply, tool call, tool result and turn end (the program's
// journal.go documents them). It is pure (a parser of lines) and
// registers its format with the evidence table, so the watchers' engine
// follows these files naming no agent.
package sessions

import (
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Agent is Parrot's name in its evidence.
const Agent evidence.Agent = "parrot"

// Format: <session>.jsonl in the root itself; a file's records carry no
// session, its header does.
var Format = evidence.Format{
	Agent:     Agent,
	Depth:     0,
	Match:     IsRecord,
	NewParser: func() evidence.Parser { return NewParser() },
	Accept:    evidence.AcceptFileSession,
}

// IsRecord says whether a file name is a session's record.
func IsRecord(name string) bool {
	return strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(name, ".")
}

func init() { evidence.Register(Format) }
