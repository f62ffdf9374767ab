package recognizers_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
)

// TestCompletionWithArgument: "/resume " and "/resume <id>" typed
// (thread-resume-id, markers 4 and 5) show no completion list on any
// version (Claude a grey argument hint after the space, which the draft
// leaves out: TestClaudeArgumentHint; Codex its status line again): no
// completion is read, and the list's absence is proven apart
// (Recognition.NoCompletion: TestClaudeNoCompletion, TestCodexNoCompletion).
func TestCompletionWithArgument(t *testing.T) {
	for _, v := range []struct{ agent, version string }{
		{"claude", "2.1.267"}, {"claude", "2.1.332"}, {"codex", "0.155.1"}, {"codex", "0.171.0"},
	} {
		for _, k := range []int{4, 5} {
			sh := screentest.Shot{Agent: v.agent, Version: v.version, Surface: "thread-resume-id", Marker: k}
			r := screentest.Recognize(sh.Screen(t), v.agent, v.version)
			if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || !strings.HasPrefix(r.Draft, "/resume") || r.Completion != "" {
				t.Errorf("%s: %s %s %q completion %q, want idle with a /resume draft and no completion", sh, r.ScreenState, r.Composer, r.Draft, r.Completion)
			}
		}
	}
}
