package qualify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/agent-knock-knock/akk/recognizers"
)

// Table is what each scenario's recording for a pinned version shows:
// agent -> version -> scenario -> the surface its pinned profile reads at
// each of its markers, in order ("" where a marker's screen has none, or
// where the pinned profile itself does not read it as marked: such a
// marker judges nothing).
// It is made from the corpus by TestReplaySurfaceTable -rewrite and
// embedded, because akk qualifies on a user's machine, where the corpus
// is not: it is how a qualification knows which surface a marker of a
// new binary's run should show, so that a surface the new binary draws
// differently fails as that surface and a scenario cut short leaves its
// later surfaces not reached. A surface no scenario's recording shows is
// never qualified.
type Table map[string]map[string]map[string][]recognizers.Surface

//go:embed surfaces.json
var tableJSON []byte

// table is the embedded Table.
var table = func() Table {
	var t Table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		panic(fmt.Sprintf("qualify: surfaces.json: %v", err)) // built in: a test reads it
	}
	return t
}()

// Expected is the surface at each marker of scenario's recording for
// agent@base; ok false when the corpus holds none.
func Expected(agent, base, scenario string) ([]recognizers.Surface, bool) {
	s, ok := table[agent][base][scenario]
	return s, ok
}

// Bases are agent's pinned versions that have recordings, oldest first.
func Bases(agent string) []string {
	var out []string
	for v := range table[agent] {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return recognizers.VersionLess(out[i], out[j]) })
	return out
}

// Scenarios are the scenarios recorded for agent@base, by name.
func Scenarios(agent, base string) []string {
	var out []string
	for s := range table[agent][base] {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Covered lists the surfaces some scenario for agent@base shows: the
// surfaces a qualification against base can pass.
func Covered(agent, base string) []recognizers.Surface {
	seen := map[recognizers.Surface]bool{}
	for _, ss := range table[agent][base] {
		for _, s := range ss {
			if s != recognizers.SurfaceNone {
				seen[s] = true
			}
		}
	}
	var out []recognizers.Surface
	for s := range seen {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
