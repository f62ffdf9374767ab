package screentest

import (
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
)

// StatusGrid is the loaded grid of agent@version's recorded status screen
// (surface "status", marker k), once its whole recognition has read the
// status; nil when the version records no status: what a grammar's status
// benchmark parses.
func StatusGrid(b *testing.B, agent, version string, k int) (*recognizers.Grid, recognizers.Recognition) {
	b.Helper()
	scr := RecordedScreen(b, agent, version, "status", k)
	if scr == nil {
		return nil, recognizers.Recognition{}
	}
	r := recognizers.Recognize(recognizers.Lookup(agent, version), scr, recognizers.TestKey)
	if r.Status == nil {
		b.Fatalf("%s@%s: no status", agent, version)
	}
	return recognizers.ReadGrid(scr), r
}

// BenchParse times parse, one screen's parse that must succeed, as the
// sub-benchmark name, in microseconds a screen.
func BenchParse(b *testing.B, name string, parse func() bool) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !parse() {
				b.Fatal("no status")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/screen")
	})
}
