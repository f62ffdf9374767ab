package screen

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
)

// BenchmarkStatusParse: the status parse alone (statusCard over the
// composer the recognition found) on the loaded grid of each version's
// recorded /status card (status marker 1).
func BenchmarkStatusParse(b *testing.B) {
	for _, v := range codexVersions {
		g, r := screentest.StatusGrid(b, "codex", v.Version, 1)
		if g == nil {
			continue
		}
		c := v.Grammar.(*codex0x)
		screentest.BenchParse(b, "codex@"+v.Version, func() bool { return c.statusCard(g, r.Region.Top) != nil })
	}
}
