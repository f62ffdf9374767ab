package sessiondb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	_ "modernc.org/sqlite" // database/sql driver "sqlite": pure Go, no cgo
)

// DB reads OpenCode's store read-only: the connection is opened
// with mode=ro and query_only, so it never writes, and SQLite's WAL lets
// it read while OpenCode writes without blocking it (a reader only holds
// back a checkpoint past its snapshot; each query here is one short
// snapshot). It creates no file when the store's -wal and -shm exist
// (they do whenever OpenCode has run: it leaves them behind on exit).
//
// When to read again is not its business: the -wal file changes on every
// write OpenCode commits, so a watch on it (fsnotify, in the follower)
// says when, and Events says what.
//
// It keeps one parser per session it was asked about (the goroutine that
// calls Events owns them; calls are serialised by a mutex).
type DB struct {
	path string
	file evidence.FileID
	db   *sql.DB

	mu      sync.Mutex
	follows map[string]*ocFollow
}

// ocFollow is a session's parser and the last seq it read.
type ocFollow struct {
	parser *Parser
	seq    int64
}

// Session is one row of the session table (the title, the
// prompt's first words, is not read).
type Session struct {
	ID        string
	ParentID  string // set for a subagent's session (the task tool's)
	Directory string // the cwd OpenCode ran in
	Version   string
	Created   time.Time
	Updated   time.Time
}

// ocPage bounds the rows one query reads (each query is a snapshot of
// its own; the log is append-only, so pages by seq are consistent).
const ocPage = 500

// Open opens the store at path read-only. A missing file is an
// error wrapping fs.ErrNotExist (the driver would otherwise report it
// only at the first query).
func Open(path string) (*DB, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("watchers: opencode db: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q["_pragma"] = []string{"query_only(1)", "busy_timeout(2000)"}
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("watchers: opencode db %s: %w", path, err)
	}
	// One connection: queries are short and serial; a second connection
	// would only hold a second -shm mapping.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(time.Minute)
	return &DB{path: path, file: evidence.FileIDOf(fi), db: db, follows: map[string]*ocFollow{}}, nil
}

// Path is the store's path.
func (db *DB) Path() string { return db.path }

// File is the store's identity when it was opened.
func (db *DB) File() evidence.FileID { return db.file }

// Close closes the connection.
func (db *DB) Close() error { return db.db.Close() }

// Sessions lists every session, oldest first.
func (db *DB) Sessions(ctx context.Context) ([]Session, error) {
	return query(ctx, db.db, "sessions", func(rows *sql.Rows) (s Session, err error) {
		var created, updated int64
		err = rows.Scan(&s.ID, &s.ParentID, &s.Directory, &s.Version, &created, &updated)
		s.Created, s.Updated = msTime(created), msTime(updated)
		return s, err
	}, `SELECT id, coalesce(parent_id, ''), directory, version, time_created, time_updated
		FROM session ORDER BY time_created, id`)
}

// query runs q and reads every row of its result with scan, what naming
// the rows in its errors.
func query[T any](ctx context.Context, db *sql.DB, what string, scan func(*sql.Rows) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("watchers: opencode %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("watchers: opencode %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("watchers: opencode %s: %w", what, err)
	}
	return out, nil
}

// Records are the ids of its sessions, oldest first (evidence.Store).
func (db *DB) Records(ctx context.Context) ([]string, error) {
	sessions, err := db.Sessions(ctx)
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		ids[i] = s.ID
	}
	return ids, err
}

// ocEventRow is one row of the event table.
type ocEventRow struct {
	seq  int64
	typ  string
	data []byte
}

// Events emits the evidence of the session's event rows after afterSeq
// (-1: from the start), in seq order, and returns the last seq read
// (afterSeq when there was none). Each event's Where is the session's
// record (RecordPath, and the store's identity tagged with the session)
// and the row: Offset its seq, End seq+1. Asked to go on from where
// the previous call stopped, it reads only the new rows; asked anything
// else, it reads the log again from its start to rebuild the parser's
// state and emits only what lies after afterSeq. emit runs with no query
// open.
func (db *DB) Events(ctx context.Context, sessionID string, afterSeq int64, emit func(evidence.Event)) (int64, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	f := db.follows[sessionID]
	if f == nil || f.seq != afterSeq {
		f = &ocFollow{parser: NewParser(), seq: -1}
		db.follows[sessionID] = f
	}
	last := afterSeq
	// Each session is a record of its own (record.go).
	rec, file := evidence.RecordPath(db.path, sessionID), evidence.SessionFile(db.file, sessionID)
	var out []evidence.Event
	for {
		page, err := db.eventPage(ctx, sessionID, f.seq)
		if err != nil {
			return last, err
		}
		for _, r := range page {
			where := evidence.Where{Agent: Agent, Path: rec, File: file, Offset: r.seq, End: r.seq + 1}
			out = f.parser.Parse(where, r.typ, r.data, out[:0])
			f.seq = r.seq
			if r.seq <= afterSeq {
				continue
			}
			last = r.seq
			for _, ev := range out {
				emit(ev)
			}
		}
		if len(page) < ocPage {
			return last, nil
		}
	}
}

// eventPage reads up to ocPage rows after seq.
func (db *DB) eventPage(ctx context.Context, sessionID string, after int64) ([]ocEventRow, error) {
	return query(ctx, db.db, "events", func(rows *sql.Rows) (r ocEventRow, err error) {
		err = rows.Scan(&r.seq, &r.typ, &r.data)
		return r, err
	}, `SELECT seq, type, data FROM event
		WHERE aggregate_id = ? AND seq > ? ORDER BY seq LIMIT ?`, sessionID, after, ocPage)
}
