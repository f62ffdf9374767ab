package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The quoted-prompt scenario (rig.Quoted): the agent's own dialogs quoted
// as plain text above the idle composer.
const codexQuote = "Here are the two dialogs you asked about, quoted verbatim.\n\n" +
	"The question:\n\n" +
	"Question 1/1 (1 unanswered)\n" +
	"Which color should the widget use?\n" +
	"› 1. Red (Recommended)  Warm and loud.\n" +
	"  2. Green              Calm and natural.\n" +
	"  3. Blue               Cool and corporate.\n" +
	"  4. None of the above  Optionally, add details in notes (tab).\n" +
	"tab to add notes | enter to submit answer | esc to interrupt\n\n" +
	"The approval:\n\n" +
	"Would you like to run the following command?\n" +
	"Reason: Fake model wants to list the files in the workspace.\n" +
	"$ ls -la\n" +
	"› 1. Yes, proceed (y)\n" +
	"  2. Yes, and don't ask again for commands that start with `ls -la` (p)\n" +
	"  3. No, and tell Codex what to do differently (esc)\n" +
	"Press enter to confirm or esc to cancel"

func quotedScenarios() []*rig.Scenario {
	return []*rig.Scenario{rig.Quoted{Quote: codexQuote, Answered: func(s *rig.Steps) {
		// turnEnd's idle wait would never see "esc to interrupt" gone:
		// the quote shows it. The working row's hint is "(0s • esc to
		// interrupt)".
		s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
		s.Screen("› ", codexStatus, "Press enter to confirm or esc to cancel")
		s.Gone("• esc to interrupt")
		s.Quiet(codexQuiet)
	}}.Scenario("codex", codexScript, composer)}
}
