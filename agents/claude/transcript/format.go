// Package transcript reads Claude Code's records: its transcripts under
// ~/.claude/projects/<slug>/<session>.jsonl, one conversation each, into
// evidence (its records chained by parentUuid, each event at its own
// line). It is pure (a parser of lines) and registers its format with the
// evidence table from its init, so the watchers' engine follows
// transcripts naming no agent.
package transcript

import (
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Agent is Claude Code's name in its evidence.
const Agent evidence.Agent = "claude"

// Format: *.jsonl one level below projects (a directory per project); a
// prompt is taken in the anchored session and cwd.
var Format = evidence.Format{
	Agent:     Agent,
	Depth:     1,
	Match:     IsRecord,
	NewParser: func() evidence.Parser { return NewParser() },
	Accept:    evidence.AcceptSession,
}

// IsRecord says whether a file name is a transcript's.
func IsRecord(name string) bool { return strings.HasSuffix(name, ".jsonl") }

func init() { evidence.Register(Format) }
