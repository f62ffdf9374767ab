package replaycheck

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
)

// TestCompareOptions: a marker's options must be every native row or
// exactly the model's answers; anything else is a problem.
func TestCompareOptions(t *testing.T) {
	rows := []recognizers.Option{
		{Number: 1, Label: "Go"}, {Number: 2, Label: "Rust"},
		{Number: 3, Label: "Type something.", Role: recognizers.RoleFreeText},
		{Number: 4, Label: "Chat about this", Role: recognizers.RoleChat},
	}
	rec := &recognizers.Recognition{ScreenState: contract.ScreenQuestionnaire, Composer: contract.ComposerAbsent,
		Prompt: &recognizers.Prompt{Kind: contract.KindQuestionnaire, Highlighted: 0,
			Questions: []recognizers.Question{{Header: "Language", Prompt: "Which?", Options: rows}}}}
	for _, tc := range []struct {
		options []string
		ok      bool
	}{
		{[]string{"Go", "Rust", "Type something.", "Chat about this"}, true},
		{[]string{"Go", "Rust"}, true},
		{[]string{"Go", "Rust", "Type something."}, false},
		{[]string{"Rust", "Go"}, false},
		{nil, false},
	} {
		m := recordings.Marker{State: "questionnaire", Expect: recordings.MarkerState{Composer: "absent",
			Questions: []recordings.Question{{Header: "Language", Prompt: "Which?", Options: tc.options}}, Highlighted: recordings.Index(0)}}
		var problems []string
		for _, p := range Compare(m, rec) {
			if strings.Contains(p, "options") {
				problems = append(problems, p)
			}
		}
		if (len(problems) == 0) != tc.ok {
			t.Errorf("options %q: problems %q, want ok=%v", tc.options, problems, tc.ok)
		}
	}
}
