package screen

import (
	"strings"
	"testing"
	"unicode/utf8"

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

// TestStatusLayoutBounds: a layout lists at most MaxStatusFields rows
// (so no result holds more: each name is read once), each name once,
// within MaxStatusName runes and without a colon; no other version reads
// a status result.
func TestStatusLayoutBounds(t *testing.T) {
	for id, l := range map[string]*recognizers.StatusLayout{
		"codex@0.155.1": &codex0_155_1.status.layout,
		"codex@0.171.0": &codex0_171_0.status.layout,
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
	for _, g := range []*codex0x{&codex0_153_4, &codex0_154_0} {
		if g.status != nil {
			t.Error("a Codex version without recordings reads a status")
		}
	}
}
