package recognizers_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// Benchmarks per exact profile on its own recorded 120x40 screens: a
// permission prompt (the longest parse: frame, menu, styles, projection,
// plan) and an idle composer. Figures: µs per screen, allocations, and
// the parts (reading the screen through vt, parsing, vt.Fingerprint).

var benchSurfaces = []struct {
	surface string
	marker  int
}{{"permission-approve", 0}, {"permission-approve", 1}}

var errBenchStop = errors.New("stop")

// benchScreen replays agent/version/surface to marker k, or returns nil
// when the recording is not there.
func benchScreen(tb testing.TB, agent, version, surface string, k int) *vt.Screen {
	data, err := os.ReadFile(filepath.Join("..", "recordings", "testdata", agent, version, surface+".cast"))
	if err != nil {
		return nil
	}
	rec, err := recordings.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	scr, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Marker == nil {
			return nil
		}
		if n == k {
			return errBenchStop
		}
		n++
		return nil
	})
	if !errors.Is(err, errBenchStop) {
		tb.Fatalf("%s marker %d: %v", surface, k, err)
	}
	return scr
}

func eachBenchScreen(b *testing.B, f func(b *testing.B, p recognizers.Profile, scr *vt.Screen)) {
	for _, p := range recognizers.Profiles() {
		for _, s := range benchSurfaces {
			scr := benchScreen(b, p.Agent, p.Version, s.surface, s.marker)
			if scr == nil {
				continue
			}
			r := recognizers.Recognize(p, scr, recognizers.TestKey)
			b.Run(p.ID()+"/"+string(r.ScreenState), func(b *testing.B) { f(b, p, scr) })
		}
	}
}

func reportMicros(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/screen")
}

// BenchmarkRecognize: a cold recognition of a whole 120x40 screen.
func BenchmarkRecognize(b *testing.B) {
	eachBenchScreen(b, func(b *testing.B, p recognizers.Profile, scr *vt.Screen) {
		b.ReportAllocs()
		for b.Loop() {
			recognizers.Recognize(p, scr, recognizers.TestKey)
		}
		reportMicros(b)
	})
}

// BenchmarkRecognizeParts splits a cold recognition: reading the screen
// through vt.Screen.Cell, parsing the grid (projection and plan
// included), and vt.Fingerprint of the prompt region.
func BenchmarkRecognizeParts(b *testing.B) {
	eachBenchScreen(b, func(b *testing.B, p recognizers.Profile, scr *vt.Screen) {
		var g recognizers.Grid
		recognizers.LoadGrid(&g, scr)
		r := recognizers.Recognize(p, scr, recognizers.TestKey)
		w, _ := scr.Size()
		b.Run("read", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				recognizers.LoadGrid(&g, scr)
			}
			reportMicros(b)
		})
		b.Run("parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				recognizers.Parse(p, &g, r.Fingerprint)
			}
			reportMicros(b)
		})
		b.Run("fingerprint", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				scr.Fingerprint(vt.Rect{X: 0, Y: r.Region.Top, W: w, H: r.Region.Rows})
			}
			reportMicros(b)
		})
	})
}

// BenchmarkRecognizerUnchanged: nothing changed since the last
// recognition (target: no allocation).
func BenchmarkRecognizerUnchanged(b *testing.B) {
	eachBenchScreen(b, func(b *testing.B, p recognizers.Profile, scr *vt.Screen) {
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		r.Recognize(scr)
		b.ReportAllocs()
		for b.Loop() {
			r.Recognize(scr)
		}
		reportMicros(b)
	})
}

// BenchmarkRecognizerOneRow: one row changed (a spinner or timer tick):
// only that row is read again.
func BenchmarkRecognizerOneRow(b *testing.B) {
	eachBenchScreen(b, func(b *testing.B, p recognizers.Profile, scr *vt.Screen) {
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		r.Recognize(scr)
		c := scr.Cell(0, 0)
		b.ReportAllocs()
		for b.Loop() {
			scr.SetCell(0, 0, c) // rewrites row 0 as it is: dirty, same content
			r.Recognize(scr)
		}
		reportMicros(b)
	})
}

// TestRecognizerUnchangedAllocatesNothing pins the zero-allocation path.
func TestRecognizerUnchangedAllocatesNothing(t *testing.T) {
	for _, p := range recognizers.Profiles() {
		scr := benchScreen(t, p.Agent, p.Version, "permission-approve", 0)
		if scr == nil {
			continue
		}
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		first := r.Recognize(scr)
		if !first.Actionable() {
			t.Fatalf("%s: %s not actionable", p.ID(), first.ScreenState)
		}
		if n := testing.AllocsPerRun(100, func() { r.Recognize(scr) }); n != 0 {
			t.Errorf("%s: %.0f allocations per unchanged recognition", p.ID(), n)
		}
		if again := r.Recognize(scr); again.Interaction.InteractionID != first.Interaction.InteractionID {
			t.Errorf("%s: cached recognition differs", p.ID())
		}
	}
}

// BenchmarkRecognizeDialogs: a cold recognition of each tool dialog the
// profiles read besides Bash and exec (edits, writes, plan mode, patches,
// grants, wrapped commands), per profile that has it recorded.
func BenchmarkRecognizeDialogs(b *testing.B) {
	surfaces := []string{"edit-approve", "write-overwrite-approve", "notebook-edit-approve", "webfetch-approve", "plan-approve",
		"bash-long", "exec-long", "apply-patch-approve", "network-approve", "mcp-tool-approve"}
	for _, p := range recognizers.Profiles() {
		for _, s := range surfaces {
			scr := benchScreen(b, p.Agent, p.Version, s, 0)
			if scr == nil {
				continue
			}
			b.Run(p.ID()+"/"+s, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					recognizers.Recognize(p, scr, recognizers.TestKey)
				}
				reportMicros(b)
			})
		}
	}
}

// BenchmarkRecognizeThreads: a cold recognition of issue 21's thread
// screens per profile that has them recorded: the slash command typed
// over its completion list (Recognition.Completion) and the resume
// picker (Recognition.Picker).
func BenchmarkRecognizeThreads(b *testing.B) {
	screens := []struct {
		name, surface string
		marker        int
	}{{"completion", "thread-resume", 4}, {"picker", "thread-resume", 5}}
	for _, p := range recognizers.Profiles() {
		for _, s := range screens {
			scr := benchScreen(b, p.Agent, p.Version, s.surface, s.marker)
			if scr == nil {
				continue
			}
			b.Run(p.ID()+"/"+s.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					recognizers.Recognize(p, scr, recognizers.TestKey)
				}
				reportMicros(b)
			})
		}
	}
}

// statusScreens are issue 22's status screens: Claude Code's Status tab
// (status marker 2) and Codex's /status card over the composer (status
// marker 1).
var statusScreens = map[string]int{"claude": 2, "codex": 1}

// BenchmarkRecognizeStatus: a cold recognition of each status screen
// (Recognition.Status set). The status parse alone on the loaded grid is
// each agent's own benchmark (its screen package's BenchmarkStatusParse).
func BenchmarkRecognizeStatus(b *testing.B) {
	for _, p := range recognizers.Profiles() {
		scr := benchScreen(b, p.Agent, p.Version, "status", statusScreens[p.Agent])
		if scr == nil {
			continue
		}
		b.Run(p.ID()+"/recognize", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				recognizers.Recognize(p, scr, recognizers.TestKey)
			}
			reportMicros(b)
		})
		if r := recognizers.Recognize(p, scr, recognizers.TestKey); r.Status == nil {
			b.Fatalf("%s: no status", p.ID())
		}
	}
}

// BenchmarkRecognizeWide: the same on every recorded screen wider than
// 200 columns (the environment matrix's -w200 and -w250 recordings), at
// its first marker: the cost grows with the row length.
func BenchmarkRecognizeWide(b *testing.B) {
	n := 0
	for _, p := range recognizers.Profiles() {
		casts, _ := filepath.Glob(filepath.Join("..", "recordings", "testdata", p.Agent, p.Version, "*-w2[05]0.cast"))
		for _, c := range casts {
			s := strings.TrimSuffix(filepath.Base(c), ".cast")
			scr := benchScreen(b, p.Agent, p.Version, s, 0)
			w, h := scr.Size()
			n++
			b.Run(fmt.Sprintf("%s/%s/%dx%d", p.ID(), s, w, h), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					recognizers.Recognize(p, scr, recognizers.TestKey)
				}
				reportMicros(b)
			})
		}
	}
	if n == 0 {
		b.Skip("no recording wider than 200 columns yet")
	}
}
