package evidence

import (
	"hash/fnv"
	"strings"
)

// RecordSep separates a store's path from a session id in a record's
// path: no file name of an agent's holds it.
const RecordSep = "#session="

// RecordPath is the record path of a session in the store db.
func RecordPath(db, session string) string { return db + RecordSep + session }

// SplitRecord is the store and session of a store record's path.
func SplitRecord(path string) (db, session string, ok bool) {
	db, session, ok = strings.Cut(path, RecordSep)
	return db, session, ok && db != "" && session != ""
}

// SessionFile is the identity of a session's log in the store whose
// identity is db.
func SessionFile(db FileID, session string) FileID {
	h := fnv.New64a()
	h.Write([]byte(session))
	return FileID{Dev: db.Dev, Ino: db.Ino ^ h.Sum64()}
}
