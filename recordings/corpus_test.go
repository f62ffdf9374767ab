package recordings

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

const corpusDir = "testdata"

func loadCorpus(t *testing.T) *Corpus {
	t.Helper()
	c, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReplayCorpusComplete fails on any version x surface of corpus.json
// without its files, and on recorded files that corpus.json does not list.
func TestReplayCorpusComplete(t *testing.T) {
	c := loadCorpus(t)
	listed := map[string]bool{}
	for _, f := range c.Files(corpusDir) {
		for _, p := range []string{f.Cast, f.Final, f.Journal} {
			listed[p] = true
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s %s %s: %v", f.Agent, f.Version, f.Surface, err)
			}
		}
	}
	casts, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*", "*.cast"))
	for _, p := range casts {
		if !listed[p] {
			t.Errorf("%s is not listed in corpus.json", p)
		}
	}
}

// TestReplayCorpus replays every recording: the vt model's final screen
// equals the screen tmux had at the end (NAME.final.txt, cell by cell),
// every marker's text is on its screen, and the header names the version.
func TestReplayCorpus(t *testing.T) {
	for _, f := range loadCorpus(t).Files(corpusDir) {
		t.Run(f.Agent+"/"+f.Version+"/"+f.Surface, func(t *testing.T) {
			rec, final, err := f.Load()
			if err != nil {
				t.Fatal(err)
			}
			if a := rec.Header.Akk; a == nil || a.Agent != f.Agent || a.Version != f.Version || a.Scenario != f.Surface {
				t.Errorf("header %+v does not name %s %s %s", a, f.Agent, f.Version, f.Surface)
			}
			ms, _, err := Markers(rec)
			if err != nil || len(ms) == 0 {
				t.Errorf("markers: %d, %v", len(ms), err)
			}
			problems, err := Verify(rec, final)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			// The codec round-trips the file byte for byte.
			data, _ := os.ReadFile(f.Cast)
			if enc, err := Encode(rec); err != nil || !bytes.Equal(enc, data) {
				t.Errorf("re-encoding differs from the file (%v)", err)
			}
		})
	}
}
