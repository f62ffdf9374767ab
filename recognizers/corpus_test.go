package recognizers_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// The corpus of real recordings (recordings/testdata) is the ground truth
// of every test here: screens are replayed from it, never typed by hand.
const corpusDir = "../recordings/testdata"

// castFile is one recorded surface.
type castFile struct {
	Agent, Version, Surface string
	Cast, Final             string
	Listed                  bool // in corpus.json (else still being recorded)
}

// corpusCasts lists the surfaces of corpus.json (a missing file fails)
// and then every other .cast on disk (recordings that are landing).
func corpusCasts(t testing.TB) []castFile {
	t.Helper()
	c, err := recordings.LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []castFile
	seen := map[string]bool{}
	for _, f := range c.Files(corpusDir) {
		if _, err := os.Stat(f.Cast); err != nil {
			t.Fatalf("corpus.json lists a missing recording: %v", err)
		}
		out = append(out, castFile{Agent: f.Agent, Version: f.Version, Surface: f.Surface, Cast: f.Cast, Final: f.Final, Listed: true})
		seen[filepath.Clean(f.Cast)] = true
	}
	all, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*", "*.cast"))
	for _, p := range all {
		if seen[filepath.Clean(p)] {
			continue
		}
		rel, _ := filepath.Rel(corpusDir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		base := strings.TrimSuffix(parts[2], ".cast")
		out = append(out, castFile{Agent: parts[0], Version: parts[1], Surface: base, Cast: p,
			Final: strings.TrimSuffix(p, ".cast") + ".final.txt"})
	}
	return out
}

func loadCast(t testing.TB, path string) *recordings.Recording {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recordings.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func castPath(agent, version, surface string) string {
	return filepath.Join(corpusDir, agent, version, surface+".cast")
}

var errStop = errors.New("stop")

// screenAt replays rec up to its marker k (0-based) and returns that
// screen and marker.
func screenAt(t testing.TB, rec *recordings.Recording, k int) (*vt.Screen, recordings.Marker) {
	t.Helper()
	n := 0
	var m recordings.Marker
	scr, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Marker == nil {
			return nil
		}
		if n == k {
			m = *s.Marker
			return errStop
		}
		n++
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("marker %d: %v (the recording has %d markers)", k, err, n)
	}
	return scr, m
}

// screenAtTime replays rec up to its last event at or before at (seconds
// into the recording) and returns that screen: the screens no marker
// names (a cursor moved, a draft typed while working).
func screenAtTime(t testing.TB, rec *recordings.Recording, at float64) *vt.Screen {
	t.Helper()
	scr, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Index+1 < len(rec.Events) && rec.Events[s.Index+1].Time > at {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		t.Fatalf("at %v: %v", at, err)
	}
	return scr
}

// markerScreen loads agent/version/surface and replays it to marker k.
func markerScreen(t testing.TB, agent, version, surface string, k int) *vt.Screen {
	t.Helper()
	scr, _ := screenAt(t, loadCast(t, castPath(agent, version, surface)), k)
	return scr
}

// copyScreen copies every cell of src into a new screen of size w x h
// (rows from src's row y0): the base of every mutation.
func copyScreen(src *vt.Screen, y0, w, h int) *vt.Screen {
	dst := vt.New(w, h, vt.Options{})
	sw, sh := src.Size()
	for y := 0; y < h && y0+y < sh; y++ {
		if y0+y < 0 {
			continue
		}
		for x := 0; x < min(w, sw); x++ {
			if c := src.Cell(x, y0+y); c.Width != 0 {
				dst.SetCell(x, y, c)
			}
		}
	}
	c := src.Cursor()
	dst.SetCursor(c.X, c.Y-y0)
	return dst
}

func recognize(scr *vt.Screen, agent, version string) recognizers.Recognition {
	return recognizers.Recognize(recognizers.Lookup(agent, version), scr, recognizers.TestKey)
}

func reasonCodes(r recognizers.Recognition) []string {
	var out []string
	for _, rs := range r.Reasons {
		out = append(out, rs.Code)
	}
	return out
}

func hasReason(r recognizers.Recognition, codes ...string) bool {
	for _, rs := range r.Reasons {
		if slices.Contains(codes, rs.Code) {
			return true
		}
	}
	return false
}
