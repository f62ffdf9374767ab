package screen

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestBlockedProfilesRegistered: the error tables name only registered
// grammars.
func TestBlockedProfilesRegistered(t *testing.T) {
	known := map[recognizers.Grammar]bool{}
	for _, v := range codexVersions {
		known[v.Grammar] = true
	}
	for c := range codexErrorsOf {
		if !known[c] {
			t.Errorf("codexErrorsOf names an unregistered grammar %p", c)
		}
	}
}

// TestStatusLayoutBounds: each layout within the bounds
// screentest.CheckStatusLayout holds it to; no other version reads a
// status result.
func TestStatusLayoutBounds(t *testing.T) {
	for id, l := range map[string]*recognizers.StatusLayout{
		"codex@0.155.1": &codex0_155_1.status.layout,
		"codex@0.171.0": &codex0_171_0.status.layout,
	} {
		screentest.CheckStatusLayout(t, id, l)
	}
	for _, g := range []*codex0x{&codex0_153_4, &codex0_154_0} {
		if g.status != nil {
			t.Error("a Codex version without recordings reads a status")
		}
	}
}
