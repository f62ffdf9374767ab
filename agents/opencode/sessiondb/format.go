// Package sessiondb reads OpenCode's sessions from its SQLite store
// (~/.local/share/opencode/opencode.db), read-only: each session's event
// log is one record (evidence.RecordPath), parsed into evidence by Parser.
// It is the one package of akk that links SQLite, and registers its format
// with the evidence table from its init, so the watchers' engine follows
// the store naming no agent.
package sessiondb

import "github.com/agent-knock-knock/akk/watchers/evidence"

// Agent is OpenCode's name in its evidence.
const Agent evidence.Agent = "opencode"

// Format: one store holding every session; a prompt is taken in the
// session and cwd the anchor names.
var Format = evidence.Format{
	Agent:     Agent,
	Match:     func(string) bool { return false }, // no record is a file of its own
	OpenStore: openStore,
	Accept:    evidence.AcceptSession,
}

func openStore(path string) (evidence.Store, error) {
	db, err := Open(path)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return db, nil
}

func init() { evidence.Register(Format) }
