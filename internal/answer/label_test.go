package answer

import (
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// TestAgentLabel: a pinned version by its version alone; a qualified
// binary with its base and surfaces; an unpinned one none covers as
// watched only, with the command.
func TestAgentLabel(t *testing.T) {
	for _, tc := range []struct {
		row  api.Terminal
		want string
	}{
		{api.Terminal{Agent: "claude", Version: "2.1.332", Profile: "exact"}, "claude 2.1.332"},
		{api.Terminal{Agent: "claude", Version: "2.1.337", Profile: "exact", Qualification: &api.Qualification{Base: "2.1.332", Passed: 3, Judged: 7}},
			"claude 2.1.337 (as 2.1.332, 3/7)"},
		{api.Terminal{Agent: "claude", Version: "2.1.337", Profile: "generic", Qualification: &api.Qualification{Base: "2.1.332", Passed: 3, Judged: 7}},
			"claude 2.1.337 (as 2.1.332, 3/7)"},
		{api.Terminal{Agent: "codex", Version: "0.172.0", Profile: "generic"}, "codex 0.172.0 (watch only: akk qualify)"},
		{api.Terminal{Agent: "codex", Version: "9.9.9", Profile: "generic", Replica: true}, "codex 9.9.9"},
	} {
		if got := AgentLabel(tc.row); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.row, got, tc.want)
		}
	}
}
