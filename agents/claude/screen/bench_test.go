package screen

import (
	"os"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// BenchmarkStatusParse: the status parse alone (statusPanel from the
// screen's last row) on the loaded grid of each version's recorded Status
// tab (status marker 2).
func BenchmarkStatusParse(b *testing.B) {
	for _, v := range claudeVersions {
		scr := claudeBenchScreen(b, v.Version, "status", 2)
		if scr == nil {
			continue
		}
		r := recognizers.Recognize(recognizers.Lookup("claude", v.Version), scr, recognizers.TestKey)
		if r.Status == nil {
			b.Fatalf("claude@%s: no status", v.Version)
		}
		t, ok := v.Grammar.(*themed)
		if !ok {
			continue
		}
		g, c := recognizers.ReadGrid(scr), t.variants[0].(*claude21)
		b.Run("claude@"+v.Version, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out recognizers.Recognition
				if !c.statusPanel(g, g.LastRow(), &out) || out.Status == nil {
					b.Fatal("no status")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/screen")
		})
	}
}

// claudeBenchScreen replays version/surface to marker k, or returns nil
// when the recording is not there.
func claudeBenchScreen(tb testing.TB, version, surface string, k int) *vt.Screen {
	if _, err := os.Stat(screentest.CastPath("claude", version, surface)); err != nil {
		return nil
	}
	return screentest.MarkerScreen(tb, "claude", version, surface, k)
}
