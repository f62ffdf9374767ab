package watchers

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TestOpenCodeRecord: an OpenCode session is a record of its own — its
// path names the store and the session, its identity is the store's
// tagged with the session (two sessions of one store never share one),
// its entries are the log's seq — and acceptance reads it as it reads a
// line file: a prompt after the anchor is accepted once, one before it or
// in another session is not.
func TestOpenCodeRecord(t *testing.T) {
	const ocTUI = "../agents/opencode/sessiondb/testdata/tui.db"
	ctx := context.Background()
	const session, other = "ses_db66857f4ffe9PumYZ1qM1zewH", "ses_db668948dffeJ2hRVkpYw77me4"
	rec := evidence.RecordPath(ocTUI, session)
	if db, s, ok := evidence.SplitRecord(rec); !ok || db != ocTUI || s != session {
		t.Fatalf("evidence.SplitRecord(%q) = %q %q %v", rec, db, s, ok)
	}
	if _, _, ok := evidence.SplitRecord(ocTUI); ok {
		t.Fatal("a plain path split as a record")
	}
	id, err := RecordID(sessiondb.Agent, rec)
	if err != nil {
		t.Fatal(err)
	}
	if oid, _ := RecordID(sessiondb.Agent, evidence.RecordPath(ocTUI, other)); oid == id {
		t.Fatal("two sessions of one store share an identity")
	}
	if _, err := RecordID(sessiondb.Agent, evidence.RecordPath("../agents/opencode/sessiondb/testdata/none.db", session)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing store: %v", err)
	}

	var n int
	file, end, err := ReadRecord(ctx, sessiondb.Agent, rec, func(w evidence.Where, ev evidence.Event) {
		n++
		if w.Path != rec || w.File != id || ev.At() != w {
			t.Fatalf("where %+v, want the record %s %v", w, rec, id)
		}
	})
	if err != nil || file != id || n == 0 {
		t.Fatalf("ReadRecord: file %v end %d events %d err %v", file, end, n, err)
	}

	// The anchor after the last entry; acceptance of the second prompt
	// (seq 31) from an anchor before it, and not from one after it.
	a, err := TakeAnchor(ctx, sessiondb.Agent, rec)
	if err != nil || a.Absent || a.File != id || a.Offset != end {
		t.Fatalf("TakeAnchor: %+v %v, want offset %d", a, err, end)
	}
	for _, tc := range []struct {
		name   string
		offset int64
		path   string
		want   Verdict
	}{
		{"anchored before the prompt", 30, rec, Accepted},
		{"anchored after it", 32, rec, Pending},
		{"another session of the store", 0, evidence.RecordPath(ocTUI, other), Pending},
	} {
		an := Anchor{Agent: sessiondb.Agent, Path: tc.path, File: id, Offset: tc.offset, SessionID: session}
		if tc.path != rec {
			an.File, _ = RecordID(sessiondb.Agent, tc.path)
		}
		acc, err := Accept(ctx, "please run-other", 0, an)
		if err != nil || acc.Verdict != tc.want {
			t.Errorf("%s: %s (%s) %v, want %s", tc.name, acc.Verdict, acc.Reason, err, tc.want)
		}
	}
	// A store replaced under the record: another identity, uncertain.
	an := Anchor{Agent: sessiondb.Agent, Path: rec, File: evidence.FileID{Dev: 1, Ino: 2}, Offset: 30}
	if acc, _ := Accept(ctx, "please run-other", 0, an); acc.Verdict != Uncertain {
		t.Errorf("a replaced store: %s (%s), want uncertain", acc.Verdict, acc.Reason)
	}
	// A session not in the store: an Absent anchor, read from its start.
	if a, err := TakeAnchor(ctx, sessiondb.Agent, evidence.RecordPath(ocTUI, "ses_none")); err != nil || !a.Absent {
		t.Errorf("a session not written yet: %+v %v, want absent", a, err)
	}
}
