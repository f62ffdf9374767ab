// Package evidencetest checks a record parser's invariants, for the fuzz
// targets of every agent's format: each agent's folder fuzzes its own
// parser with the same checks.
package evidencetest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Lines runs every line of data through one parser from newParser (so
// state built by earlier lines is exercised) and checks what any line may
// produce: each line counted, every event at a line read so far, a
// malformed line one Malformed event with its error, a prompt with its
// hash, the events counted; then that two fresh parsers say the same.
func Lines(t *testing.T, newParser func() evidence.Parser, data []byte) {
	t.Helper()
	p := newParser()
	lines := bytes.Split(data, []byte("\n"))
	off := int64(0)
	seen := map[int64]evidence.Where{} // lines so far: a held record's events come later
	for _, line := range lines {
		where := evidence.Where{Path: "/f.jsonl", File: evidence.FileID{Dev: 1, Ino: 2}, Gen: 3, Offset: off, End: off + int64(len(line)) + 1}
		seen[off] = where
		before := *p.Stats()
		evs := p.Parse(where, line, nil)
		after := p.Stats()
		if after.Lines != before.Lines+1 {
			t.Fatalf("line not counted: %+v -> %+v", before, after)
		}
		malformed := 0
		for _, ev := range evs {
			at := ev.At()
			at.Time = time.Time{}
			if at != seen[at.Offset] {
				t.Fatalf("%T at %+v: not a line read so far (now at %+v)", ev, at, where)
			}
			switch e := ev.(type) {
			case evidence.Malformed:
				malformed++
				if e.Err == nil {
					t.Fatal("malformed without error")
				}
			case evidence.PromptAccepted:
				if e.SHA256 == ([32]byte{}) {
					t.Fatal("prompt without hash")
				}
			}
		}
		if malformed > 1 || (malformed == 1 && len(evs) != 1) {
			t.Fatalf("malformed line produced %d events", len(evs))
		}
		if int64(len(evs)-malformed) != after.Events-before.Events {
			t.Fatalf("%d events, counted %d", len(evs), after.Events-before.Events)
		}
		off += int64(len(line)) + 1
	}
	a, b := newParser(), newParser()
	for _, line := range lines {
		x, y := a.Parse(evidence.Where{}, line, nil), b.Parse(evidence.Where{}, line, nil)
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("not deterministic: %v vs %v", x, y)
		}
	}
}

// CorpusDir is the recorded corpus (recordings/testdata), found from this
// file: tests of any folder read it in place.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "recordings", "testdata")
}

// Journals lists every surface's journal of the corpus.
func Journals(tb testing.TB) []recordings.CorpusFile {
	tb.Helper()
	dir := CorpusDir()
	c, err := recordings.LoadCorpus(dir)
	if err != nil {
		tb.Fatalf("the recorded corpus is missing: %v", err)
	}
	files := c.Files(dir)
	if len(files) == 0 {
		tb.Fatal("the corpus lists no surface")
	}
	return files
}

// CorpusLines returns the recorded journals of one kind ("rollout",
// "transcript", "chats") in runs of a few lines, as fuzz seeds (whole
// files make each execution and each minimisation slow).
func CorpusLines(tb testing.TB, kind string) [][]byte {
	const run = 4
	var out [][]byte
	for _, f := range Journals(tb) {
		if !strings.HasSuffix(f.Journal, "."+kind+".jsonl") {
			continue
		}
		b, err := os.ReadFile(f.Journal)
		if err != nil {
			continue
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 0; i < len(lines); i += run {
			if seed := bytes.Join(lines[i:min(i+run, len(lines))], nil); len(seed) > 0 {
				out = append(out, seed)
			}
		}
	}
	return out
}
