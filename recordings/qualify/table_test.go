package qualify

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	_ "github.com/agent-knock-knock/akk/agents/registry" // every agent's grammars
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
)

var rewrite = flag.Bool("rewrite", false, "rewrite surfaces.json from the corpus")

// TestReplaySurfaceTable: the embedded table is what the corpus shows,
// every recording of a pinned version read with its profile (-rewrite
// makes it so).
func TestReplaySurfaceTable(t *testing.T) {
	want := Table{}
	for _, f := range screentest.CorpusCasts(t) {
		p := recognizers.Lookup(f.Agent, f.Version)
		if !p.Exact {
			continue
		}
		marks, err := replaycheck.Read(screentest.LoadCast(t, f.Cast), p)
		if err != nil {
			t.Fatal(err)
		}
		ss := []recognizers.Surface{}
		for _, m := range marks {
			// A marker the pinned profile itself does not read as the
			// rig marked it (what no screen can tell, listed in the
			// corpus test) judges nothing: no surface.
			s := m.Surface
			if len(m.Problems) > 0 {
				s = recognizers.SurfaceNone
			}
			ss = append(ss, s)
		}
		if want[f.Agent] == nil {
			want[f.Agent] = map[string]map[string][]recognizers.Surface{}
		}
		if want[f.Agent][f.Version] == nil {
			want[f.Agent][f.Version] = map[string][]recognizers.Surface{}
		}
		want[f.Agent][f.Version][f.Surface] = ss
	}
	if *rewrite {
		b, err := json.MarshalIndent(want, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("surfaces.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !reflect.DeepEqual(table, want) {
		b, _ := json.Marshal(want)
		t.Errorf("surfaces.json is not what the corpus shows (go test -run TestReplaySurfaceTable -rewrite ./recordings/qualify/); %d bytes, the corpus's %d",
			len(bytes.TrimSpace(tableJSON)), len(b))
	}
}
