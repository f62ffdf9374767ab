package clauderig

import (
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The quoted-prompt scenario (rig.Quoted): the agent's own dialogs quoted
// as plain text above the idle composer.
const claudeQuote = "Here are the two dialogs you asked about, quoted verbatim.\n\n" +
	"The question:\n\n" +
	"☐ Color\n" +
	"Which color should the button be?\n" +
	"❯ 1. Red\n" +
	"     A warm, attention-grabbing color\n" +
	"  2. Green\n" +
	"     Calm and positive\n" +
	"  3. Blue\n" +
	"     Cool and trustworthy\n" +
	"  4. Type something.\n" +
	"  5. Chat about this\n" +
	"Enter to select · ↑/↓ to navigate · Esc to cancel\n\n" +
	"The permission prompt:\n\n" +
	"Bash command\n" +
	"  touch fake-created.txt\n" +
	"  Create an empty file\n" +
	"Do you want to proceed?\n" +
	"❯ 1. Yes\n" +
	"  2. Yes, and don't ask again for touch commands in ~/project\n" +
	"  3. No\n" +
	"Esc to cancel · Tab to amend"

func quotedScenarios() []*rig.Scenario {
	return []*rig.Scenario{rig.Quoted{Quote: claudeQuote, Answered: func(s *rig.Steps) {
		wrap(s).turnEnd(1)
		s.Screen("Esc to cancel · Tab to amend")
	}}.Scenario("claude", claudeScript, composer)}
}
