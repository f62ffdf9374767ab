package recognizers

import "strings"

// What the agents' composers share: the bounds of the searches around
// them and what a slash command is.

// MaxComposerRows bounds the search for the composer's upper rule: a
// draft of more rows than this is not recognized (fail closed).
const MaxComposerRows = 24

// MaxCompletionRows bounds the search for the blank row over the list.
const MaxCompletionRows = 16

// SlashCommand reports a draft that is one slash command: "/" and a name
// without spaces.
func SlashCommand(s string) bool {
	return len(s) > 1 && s[0] == '/' && !strings.ContainsAny(s, " \t\n\u00a0")
}
