package recognizers

import "github.com/agent-knock-knock/akk/vt"

// The parts of a recognition the external benchmarks (bench_test.go)
// time apart: they run over every agent's profiles, which only an
// external test can link (each agent's screen package imports this one).

// LoadGrid reads the whole of scr into g.
func LoadGrid(g *Grid, scr *vt.Screen) { g.load(scr, true) }

// Parse is a recognition's parse on a loaded grid: p's grammar, then the
// projection and plan with ids from fp.
func Parse(p Profile, g *Grid, fp [32]byte) {
	out := Recognition{Agent: p.Agent, Version: p.Version}
	p.grammar.Recognize(g, &out)
	if out.Prompt != nil {
		out.project(ids{key: TestKey, profile: []byte(p.ID()), fp: fp[:]})
	}
}
