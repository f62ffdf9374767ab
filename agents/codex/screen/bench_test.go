package screen

import (
	"os"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// BenchmarkStatusParse: the status parse alone (statusCard over the
// composer the recognition found) on the loaded grid of each version's
// recorded /status card (status marker 1).
func BenchmarkStatusParse(b *testing.B) {
	for _, v := range codexVersions {
		scr := codexBenchScreen(b, v.Version, "status", 1)
		if scr == nil {
			continue
		}
		r := recognizers.Recognize(recognizers.Lookup("codex", v.Version), scr, recognizers.TestKey)
		if r.Status == nil {
			b.Fatalf("codex@%s: no status", v.Version)
		}
		g, c := recognizers.ReadGrid(scr), v.Grammar.(*codex0x)
		b.Run("codex@"+v.Version, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c.statusCard(g, r.Region.Top) == nil {
					b.Fatal("no status")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/screen")
		})
	}
}

// codexBenchScreen replays version/surface to marker k, or returns nil
// when the recording is not there.
func codexBenchScreen(tb testing.TB, version, surface string, k int) *vt.Screen {
	if _, err := os.Stat(screentest.CastPath("codex", version, surface)); err != nil {
		return nil
	}
	return screentest.MarkerScreen(tb, "codex", version, surface, k)
}
