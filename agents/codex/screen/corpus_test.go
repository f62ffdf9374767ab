package screen_test

import (
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"

	// The package under test registers Codex's profiles, which the tests
	// here read through recognizers.Lookup.
	_ "github.com/agent-knock-knock/akk/agents/codex/screen"
)

// The tests here replay the recorded corpus (recordings/testdata) and
// read it with Codex's profiles (screentest.Recognize).

// versions are Codex's registered versions, oldest first.
var versions = func() []string {
	var out []string
	for _, p := range recognizers.Profiles() {
		if p.Agent == "codex" {
			out = append(out, p.Version)
		}
	}
	return out
}()

// question is the request_user_input question every version records, as
// recognizers' adversarial tests take it for a source.
var question = screentest.Source{Name: "question", Surface: "question-digit", Marker: 0, Kind: contract.KindQuestionnaire,
	Expect: []string{"Red (Recommended)", "Green", "Blue", "None of the above", "None of the above, with notes"}, Versions: versions}
