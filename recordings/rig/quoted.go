package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// The quoted-prompt scenario: the fake model answers a prompt with plain
// assistant text that quotes, verbatim, a questionnaire and then a
// permission prompt of the same agent (menu rows, highlight glyph, footer
// hint), so that the quote ends right above the idle composer. Nothing
// asks anything: the screen is idle, and a recognizer that takes text for
// a prompt is caught by a real screen rather than a mutated one.

const quoteWord = "quote-prompts"

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

// withQuote is an agent's script that also answers quoteWord with text.
func withQuote(script func(string) fakemodel.Script, text string) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script {
		s := script(version)
		s.Keywords = append([]fakemodel.Keyword{{Word: quoteWord, Reply: fakemodel.Reply{Text: text}}}, s.Keywords...)
		return s
	}
}

func init() {
	register(
		&Scenario{Name: "quoted-prompt", Agent: "claude", Script: withQuote(claudeScript, claudeQuote), Drive: steps(func(s *sticky) {
			s.claudeIdle()
			s.claudePrompt(quoteWord + " please")
			s.request("prompt", nil)
			s.claudeTurnEnd(1)
			s.screen("Esc to cancel · Tab to amend")
			s.markIdle()
		})},
		&Scenario{Name: "quoted-prompt", Agent: "codex", Script: withQuote(codexScript, codexQuote), Drive: steps(func(s *sticky) {
			s.codexIdle()
			s.codexPrompt(quoteWord + " please")
			s.request("prompt", nil)
			// codexTurnEnd's idle wait would never see "esc to
			// interrupt" gone: the quote shows it. The working row's
			// hint is "(0s • esc to interrupt)".
			s.journal("task_complete", rolloutHas("event_msg", "task_complete"))
			s.screen("› ", codexStatus, "Press enter to confirm or esc to cancel")
			s.gone("• esc to interrupt")
			s.quiet(codexQuiet)
			s.markIdle()
		})},
	)
}
