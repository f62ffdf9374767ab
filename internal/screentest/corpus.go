package screentest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// BlockedScreen is one corpus screen marked blocked: its recording, the
// marker's index, the screen and the marker.
type BlockedScreen struct {
	File   CastFile
	Marker int
	Screen *vt.Screen
	Mark   recordings.Marker
}

// MarkedBlocked are the screens marked blocked in the surfaces keep takes.
func MarkedBlocked(t *testing.T, keep func(surface string) bool) (out []BlockedScreen) {
	t.Helper()
	for _, f := range CorpusCasts(t) {
		if !keep(f.Surface) {
			continue
		}
		rec := LoadCast(t, f.Cast)
		for k := 0; ; k++ {
			scr, m, ok := ScreenAtOK(t, rec, k)
			if !ok {
				break
			}
			if m.State == contract.ScreenBlocked {
				out = append(out, BlockedScreen{f, k, scr, m})
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no blocked screen in the corpus")
	}
	return out
}

// ScreenAtOK is screenAt without failing past the last marker.
func ScreenAtOK(t *testing.T, rec *recordings.Recording, k int) (*vt.Screen, recordings.Marker, bool) {
	t.Helper()
	ms, _, err := recordings.Markers(rec)
	if err != nil {
		t.Fatal(err)
	}
	if k >= len(ms) {
		return nil, recordings.Marker{}, false
	}
	scr, m := ScreenAt(t, rec, k)
	return scr, m, true
}

// Shot names one screen of a recording: its marker k, or with at > 0 the
// screen after its last event at or before at seconds.
type Shot struct {
	Agent, Version, Surface string
	Marker                  int
	At                      float64
}

// String names the shot: agent/version/surface, then its marker or time.
func (s Shot) String() string {
	name := s.Agent + "/" + s.Version + "/" + s.Surface
	if s.At > 0 {
		return fmt.Sprintf("%s at %g", name, s.At)
	}
	return fmt.Sprintf("%s marker %d", name, s.Marker)
}

// Screen replays the shot's recording to its marker, or to its time.
func (s Shot) Screen(t testing.TB) *vt.Screen {
	t.Helper()
	rec := LoadCast(t, CastPath(s.Agent, s.Version, s.Surface))
	if s.At > 0 {
		return ScreenAtTime(t, rec, s.At)
	}
	scr, _ := ScreenAt(t, rec, s.Marker)
	return scr
}

// corpusDir is the recorded corpus (recordings/testdata) from the test's
// working directory, its package's: the module's root is the first
// directory up that holds go.mod ("../recordings/testdata" from
// recognizers).
var corpusDir = func() string {
	dir := "."
	for range 8 {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "recordings", "testdata")
		}
		dir = filepath.Join(dir, "..")
	}
	return filepath.Join("recordings", "testdata")
}()

// CastFile is one recorded surface.
type CastFile struct {
	Agent, Version, Surface string
	Cast, Final             string
	Listed                  bool // in corpus.json (else still being recorded)
}

// CorpusCasts lists the surfaces of corpus.json (a missing file fails)
// and then every other .cast on disk (recordings that are landing).
func CorpusCasts(t testing.TB) []CastFile {
	t.Helper()
	c, err := recordings.LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []CastFile
	seen := map[string]bool{}
	for _, f := range c.Files(corpusDir) {
		if _, err := os.Stat(f.Cast); err != nil {
			t.Fatalf("corpus.json lists a missing recording: %v", err)
		}
		out = append(out, CastFile{Agent: f.Agent, Version: f.Version, Surface: f.Surface, Cast: f.Cast, Final: f.Final, Listed: true})
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
		out = append(out, CastFile{Agent: parts[0], Version: parts[1], Surface: base, Cast: p,
			Final: strings.TrimSuffix(p, ".cast") + ".final.txt"})
	}
	return out
}

// LoadCast reads and decodes the recording at path.
func LoadCast(t testing.TB, path string) *recordings.Recording {
	t.Helper()
	rec, err := recordings.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// CastPath is the recording of agent/version/surface in the corpus.
func CastPath(agent, version, surface string) string {
	return filepath.Join(corpusDir, agent, version, surface+".cast")
}

var errStop = errors.New("stop")

// ScreenAt replays rec up to its marker k (0-based) and returns that
// screen and marker.
func ScreenAt(t testing.TB, rec *recordings.Recording, k int) (*vt.Screen, recordings.Marker) {
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

// ScreenAtTime replays rec up to its last event at or before at (seconds
// into the recording) and returns that screen: the screens no marker
// names (a cursor moved, a draft typed while working).
func ScreenAtTime(t testing.TB, rec *recordings.Recording, at float64) *vt.Screen {
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

// MarkerScreen loads agent/version/surface and replays it to marker k.
func MarkerScreen(t testing.TB, agent, version, surface string, k int) *vt.Screen {
	t.Helper()
	scr, _ := ScreenAt(t, LoadCast(t, CastPath(agent, version, surface)), k)
	return scr
}

// RecordedScreen is MarkerScreen, or nil when the corpus has no recording
// of agent/version/surface (not every version records every surface).
func RecordedScreen(t testing.TB, agent, version, surface string, k int) *vt.Screen {
	t.Helper()
	if _, err := os.Stat(CastPath(agent, version, surface)); err != nil {
		return nil
	}
	return MarkerScreen(t, agent, version, surface, k)
}

// CopyScreen copies every cell of src into a new screen of size w x h
// (rows from src's row y0): the base of every mutation.
func CopyScreen(src *vt.Screen, y0, w, h int) *vt.Screen {
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
