package screen

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// BenchmarkStatusParse: the status parse alone (statusPanel from the
// screen's last row) on the loaded grid of each version's recorded Status
// tab (status marker 2).
func BenchmarkStatusParse(b *testing.B) {
	for _, v := range claudeVersions {
		g, _ := screentest.StatusGrid(b, "claude", v.Version, 2)
		t, ok := v.Grammar.(*themed)
		if g == nil || !ok {
			continue
		}
		c := t.variants[0].(*claude21)
		screentest.BenchParse(b, "claude@"+v.Version, func() bool {
			var out recognizers.Recognition
			return c.statusPanel(g, g.LastRow(), &out) && out.Status != nil
		})
	}
}
