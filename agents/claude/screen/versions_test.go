package screen

import (
	"strings"
	"testing"
	"unicode/utf8"

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

// TestStatusLayoutBounds: a layout lists at most MaxStatusFields rows
// (so no result holds more: each name is read once), each name once,
// within MaxStatusName runes and without a colon; no other version reads
// a status result.
func TestStatusLayoutBounds(t *testing.T) {
	for id, l := range map[string]*recognizers.StatusLayout{
		"claude@2.1.267": &claude2_1_267.status.layout,
		"claude@2.1.332": &claude2_1_332.status.layout,
	} {
		if len(l.Rows) > recognizers.MaxStatusFields {
			t.Errorf("%s: %d rows", id, len(l.Rows))
		}
		seen := map[string]bool{}
		for _, r := range l.Rows {
			if utf8.RuneCountInString(r.Name) > recognizers.MaxStatusName || strings.Contains(r.Name, ":") || seen[r.Name] || r.Group < 0 || r.Group > 1 {
				t.Errorf("%s: row %q", id, r.Name)
			}
			seen[r.Name] = true
		}
	}
	for _, g := range []recognizers.Grammar{&claude2_1_263, &claude2_1_266} {
		if g.(*claude21).status != nil {
			t.Errorf("%T reads a status", g)
		}
	}
}
