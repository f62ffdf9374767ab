package mcpserver

import (
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/api"
)

// checkText is the first check of typed text a model sends (DESIGN
// invariant 1): it returns the refusal reason, or "" when the text may go
// to the daemon. The daemon checks again with the profile's own caps; this
// check exists so that a raw key (ESC, C-c, CR) or a native slash command
// never leaves this process, whatever the daemon's version.
func checkText(s string, maxBytes int) string {
	switch {
	case len(s) > maxBytes:
		return api.ReasonTextTooLong
	case !utf8.ValidString(s):
		return api.ReasonBadText
	case strings.HasPrefix(strings.TrimLeft(firstLine(s), " \t"), "/"):
		return api.ReasonSlashCommand
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		// C0, DEL and C1: every one of them is a key or a terminal
		// control, never text.
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return api.ReasonBadText
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
