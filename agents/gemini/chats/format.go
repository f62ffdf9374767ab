// Package chats reads Gemini CLI's conversation records: the chats files
// under ~/.gemini/tmp/<project>/chats (session-*.jsonl), one session each,
// named in its header line. It is pure (a parser of lines) and registers
// its format with the evidence table, so the watchers' engine follows
// these files naming no agent.
package chats

import (
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Agent is Gemini CLI's name in its evidence.
const Agent evidence.Agent = "gemini"

// Format: session-*.jsonl two levels below ~/.gemini/tmp (<project>/chats);
// a file's prompts carry no session, its header does.
var Format = evidence.Format{
	Agent:     Agent,
	Depth:     2,
	Match:     IsRecord,
	NewParser: func() evidence.Parser { return NewParser() },
	Accept:    evidence.AcceptFileSession,
}

// IsRecord says whether a file name is a chats file.
func IsRecord(name string) bool {
	return strings.HasPrefix(name, "session-") && strings.HasSuffix(name, ".jsonl")
}

func init() { evidence.Register(Format) }
