package evidence

import (
	"context"
	"fmt"
	"sync"
)

// Format is how one agent keeps its native records: all the watchers'
// engine needs to follow them, read them whole and prove a prompt taken
// in them. An agent's folder defines its Format beside its parser and
// registers it (Register); the engine names no agent.
type Format struct {
	// Agent names the agent in its evidence (Where.Agent).
	Agent Agent
	// Depth is how far below the agent's records root a record file
	// lies (0: in the root itself).
	Depth int
	// Match says whether a file's name is one of its records.
	Match func(name string) bool
	// NewParser reads its record lines, one Parser per file generation
	// (nil when OpenStore is set).
	NewParser func() Parser
	// OpenStore opens, read-only, the database holding its records when
	// each record is a session of one store rather than a file (nil: line
	// files). The store is its root; a record is RecordPath(root, id).
	OpenStore func(path string) (Store, error)
	// Accept is how its records show that a prompt was taken.
	Accept Acceptance
}

// Acceptance names how an agent's records tie a recorded prompt to the
// send that an anchor was taken for.
type Acceptance int

const (
	// AcceptSession: a prompt recorded after the anchor under the
	// anchored session and cwd (when the anchor names them).
	AcceptSession Acceptance = iota
	// AcceptStartedTurn: a prompt recorded in a turn whose start also
	// lies after the anchor, once (or, sent into a working agent, in the
	// turn running when the anchor was taken: a steered prompt); a new
	// record's session is the one its header names.
	AcceptStartedTurn
	// AcceptFileSession: a record file holds one session, named in its
	// header alone (its prompts carry none): the anchored file is the
	// session.
	AcceptFileSession
)

// Store is an agent's database of records, open read-only.
type Store interface {
	// File is the store's identity when it was opened.
	File() FileID
	// Records are the ids of the sessions it holds, oldest first.
	Records(ctx context.Context) ([]string, error)
	// Events hands emit the evidence of a session's entries after the
	// entry afterSeq (-1: from its start), in order, and returns the last
	// entry read (afterSeq when none). Each event's Where names the
	// session's record (RecordPath) with the entry's [seq, seq+1).
	Events(ctx context.Context, session string, afterSeq int64, emit func(Event)) (int64, error)
	Close() error
}

// The formats known, by agent: each agent's format package registers its
// own from its init (as database/sql drivers do), so the watchers' engine
// follows, reads and accepts a record naming no agent.
var formats struct {
	sync.RWMutex
	by map[Agent]Format
}

// Register makes an agent's record format known. It panics on a format
// without a name or a reader, or a second format of one agent: both are
// programming errors in an agent's folder, found at start.
func Register(f Format) {
	if f.Agent == "" || (f.NewParser == nil) == (f.OpenStore == nil) {
		panic(fmt.Sprintf("evidence: format %q needs a name and exactly one of NewParser, OpenStore", f.Agent))
	}
	formats.Lock()
	defer formats.Unlock()
	if _, dup := formats.by[f.Agent]; dup {
		panic(fmt.Sprintf("evidence: format %q registered twice", f.Agent))
	}
	if formats.by == nil {
		formats.by = map[Agent]Format{}
	}
	formats.by[f.Agent] = f
}

// FormatOf is the registered format of an agent's records.
func FormatOf(a Agent) (Format, bool) {
	formats.RLock()
	defer formats.RUnlock()
	f, ok := formats.by[a]
	return f, ok
}
