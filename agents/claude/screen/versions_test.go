package screen

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// claudeRegistered are the grammars Claude Code registers, a themed
// one's default (the error tables are the dark default's: other themes
// record no error screens).
func claudeRegistered() map[recognizers.Grammar]bool {
	known := map[recognizers.Grammar]bool{}
	for _, v := range claudeVersions {
		known[v.Grammar] = true
		if t, ok := v.Grammar.(*themed); ok {
			known[t.variants[0]] = true
		}
	}
	return known
}

// TestBlockedProfilesRegistered: the error tables name only registered
// grammars.
func TestBlockedProfilesRegistered(t *testing.T) {
	known := claudeRegistered()
	for c := range claudeErrorsOf {
		if !known[c] {
			t.Errorf("claudeErrorsOf names an unregistered grammar %p", c)
		}
	}
}

// TestStatusLayoutBounds: each layout within the bounds
// screentest.CheckStatusLayout holds it to; no other version reads a
// status result.
func TestStatusLayoutBounds(t *testing.T) {
	for id, l := range map[string]*recognizers.StatusLayout{
		"claude@2.1.267": &claude2_1_267.status.layout,
		"claude@2.1.332": &claude2_1_332.status.layout,
	} {
		screentest.CheckStatusLayout(t, id, l)
	}
	for _, g := range []recognizers.Grammar{&claude2_1_263, &claude2_1_266} {
		if g.(*claude21).status != nil {
			t.Errorf("%T reads a status", g)
		}
	}
}
