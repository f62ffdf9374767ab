package mcpserver

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

func TestCheckText(t *testing.T) {
	tests := []struct {
		name, text string
		max        int
		want       string
	}{
		{"plain", "fix the failing test", 100, ""},
		{"newlines and tabs", "step one\n\tstep two\n", 100, ""},
		{"unicode", "grün → ok ✓", 100, ""},
		{"slash later is text", "see\n/etc/hosts", 100, ""},
		{"slash command", "/clear", 100, api.ReasonSlashCommand},
		{"indented slash command", "  /model opus", 100, api.ReasonSlashCommand},
		{"escape", "a\x1b[A", 100, api.ReasonBadText},
		{"carriage return", "yes\r", 100, api.ReasonBadText},
		{"ctrl-c", "\x03", 100, api.ReasonBadText},
		{"nul", "a\x00b", 100, api.ReasonBadText},
		{"del", "a\x7f", 100, api.ReasonBadText},
		{"C1 CSI", "a\u009b2J", 100, api.ReasonBadText},
		{"bad utf-8", "a\xffb", 100, api.ReasonBadText},
		{"bytes over the cap", strings.Repeat("é", 51), 100, api.ReasonTextTooLong},
		{"at the cap", strings.Repeat("a", 100), 100, ""},
	}
	for _, tc := range tests {
		if got := checkText(tc.text, tc.max); got != tc.want {
			t.Errorf("%s: checkText(%q) = %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
