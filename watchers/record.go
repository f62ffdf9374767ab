package watchers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// A record is what an agent durably writes of one conversation: a JSONL
// file for Claude Code, Codex and Gemini CLI; for OpenCode, one session's
// event log in its SQLite store. Everything above the watchers (binding,
// acceptance, the monitors) names a record by a path and tells its
// versions apart by a FileID. An OpenCode record's path is the store's
// with the session after a separator no file name of ours holds
// (RecordPath), and its FileID is the store's tagged with the session:
// two sessions of one store are two records, and a store replaced is a
// new identity for all of them. Its offsets are the log's seq (an entry
// is [seq, seq+1)), which only grow as lines' byte offsets do.

// RecordID is the identity of the record at path now; a record that does
// not exist is an error wrapping fs.ErrNotExist.
func RecordID(agent evidence.Agent, path string) (evidence.FileID, error) {
	if !inStore(agent) {
		fi, err := os.Stat(path)
		if err != nil {
			return evidence.FileID{}, err
		}
		return statOf(fi).ID, nil
	}
	db, session, ok := evidence.SplitRecord(path)
	if !ok {
		return evidence.FileID{}, fmt.Errorf("watchers: %q names no session of a store: %w", path, fs.ErrNotExist)
	}
	fi, err := os.Stat(db)
	if err != nil {
		return evidence.FileID{}, err
	}
	return evidence.SessionFile(statOf(fi).ID, session), nil
}

// ReadRecord parses a record's complete entries from its start and hands
// each event to fn; it returns the record's identity and the end of the
// last complete entry. The identity is taken from what was read.
func ReadRecord(ctx context.Context, agent evidence.Agent, path string, fn func(evidence.Where, evidence.Event)) (evidence.FileID, int64, error) {
	f, ok := evidence.FormatOf(agent)
	if !ok {
		return evidence.FileID{}, 0, fmt.Errorf("%w: unknown agent %q", ErrOptions, agent)
	}
	if f.OpenStore == nil {
		return readLines(f, path, fn)
	}
	dbPath, session, ok := evidence.SplitRecord(path)
	if !ok {
		return evidence.FileID{}, 0, fmt.Errorf("watchers: %q names no session of a store: %w", path, fs.ErrNotExist)
	}
	db, err := f.OpenStore(dbPath)
	if err != nil {
		return evidence.FileID{}, 0, err
	}
	defer db.Close()
	// The store's events name their session's record (Store.Events).
	last, err := db.Events(ctx, session, -1, func(ev evidence.Event) { fn(ev.At(), ev) })
	file := evidence.SessionFile(db.File(), session)
	if err != nil {
		return file, 0, err
	}
	return file, last + 1, nil
}

// readLines parses a line file's complete lines from its start.
func readLines(format evidence.Format, path string, fn func(evidence.Where, evidence.Event)) (evidence.FileID, int64, error) {
	f, st, err := OpenStat(path)
	if err != nil {
		return evidence.FileID{}, 0, err
	}
	if f == nil {
		return evidence.FileID{}, 0, fmt.Errorf("watchers: read %s: %w", path, fs.ErrNotExist)
	}
	defer f.Close()
	data := make([]byte, st.Size)
	n, err := f.ReadAt(data, 0)
	if err != nil && n < len(data) {
		return st.ID, 0, fmt.Errorf("watchers: read %s: %w", path, err)
	}
	p := format.NewParser()
	var evs []evidence.Event
	end := int64(0)
	for off := int64(0); off < int64(n); {
		i := bytes.IndexByte(data[off:n], '\n')
		if i < 0 {
			break
		}
		w := evidence.Where{Agent: format.Agent, Path: path, File: st.ID, Offset: off, End: off + int64(i) + 1}
		evs = p.Parse(w, data[off:off+int64(i)], evs[:0])
		for _, ev := range evs {
			fn(w, ev)
		}
		off += int64(i) + 1
		end = off
	}
	return st.ID, end, nil
}

// inStore says whether an agent's records are sessions of a store.
func inStore(agent evidence.Agent) bool {
	f, _ := evidence.FormatOf(agent)
	return f.OpenStore != nil
}

// takeRecordAnchor anchors a store's record after its last entry (the
// next seq). A session not in the store yet is Absent: read from its
// start once it appears.
func takeRecordAnchor(ctx context.Context, a Anchor) (Anchor, error) {
	file, end, err := ReadRecord(ctx, a.Agent, a.Path, func(evidence.Where, evidence.Event) {})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.Absent = true
		return a, nil
	case err != nil:
		return a, fmt.Errorf("watchers: anchor %s: %w", a.Path, err)
	}
	if end == 0 {
		a.Absent = true // the session has no entry yet
		return a, nil
	}
	a.File, a.Offset = file, end
	return a, nil
}

// scanRecordAnchor feeds the acceptor a store record's entries after
// the anchor (the whole log is read: its parser needs every entry).
func scanRecordAnchor(acc *Acceptor, an Anchor) (string, error) {
	file, end, err := ReadRecord(context.Background(), an.Agent, an.Path, func(_ evidence.Where, ev evidence.Event) { acc.Observe(ev) })
	switch {
	case errors.Is(err, fs.ErrNotExist) && an.Absent:
		return "", nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("anchored session %s deleted", an.Path), nil
	case err != nil:
		return "", fmt.Errorf("watchers: accept: %w", err)
	case !an.Absent && file != an.File:
		return fmt.Sprintf("anchored session %s replaced", an.Path), nil
	case !an.Absent && end < an.Offset:
		return fmt.Sprintf("anchored session %s truncated", an.Path), nil
	}
	return "", nil
}
