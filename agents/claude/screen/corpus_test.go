package screen_test

import (
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"

	// The package under test registers Claude Code's profiles, which the
	// tests here read through recognizers.Lookup.
	_ "github.com/agent-knock-knock/akk/agents/claude/screen"
)

// The tests here replay the recorded corpus (recordings/testdata) and
// read it with Claude Code's profiles (screentest.Recognize).

// versions are Claude Code's registered versions, oldest first.
var versions = func() []string {
	var out []string
	for _, p := range recognizers.Profiles() {
		if p.Agent == "claude" {
			out = append(out, p.Version)
		}
	}
	return out
}()

// permission is the Bash permission dialog every version records, as
// recognizers' adversarial tests take it for a source.
var permission = screentest.Source{Name: "permission", Surface: "permission-approve", Marker: 0, Kind: contract.KindPermission,
	Expect: []string{"approve_once", "reject"}, Versions: versions}
