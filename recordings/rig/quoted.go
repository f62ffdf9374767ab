package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// The quoted-prompt scenario: the fake model answers a prompt with plain
// assistant text that quotes, verbatim, a questionnaire and then a
// permission prompt of the same agent (menu rows, highlight glyph, footer
// hint), so that the quote ends right above the idle composer. Nothing
// asks anything: the screen is idle, and a recognizer that takes text for
// a prompt is caught by a real screen rather than a mutated one.

// QuoteWord is the prompt's keyword: the fake model answers it with the
// agent's quote (a script made WithKeywords).
const QuoteWord = "quote-prompts"

// Quoted is an agent's part in the quoted-prompt scenario.
type Quoted struct {
	// Quote is the model's reply: the agent's own dialogs as plain text.
	Quote string
	// Answered waits for the reply's turn to end with the quote above the
	// idle composer.
	Answered func(s *Steps)
}

// Scenario is the quoted-prompt scenario of agent, whose corpus script is
// script and whose composer is c.
func (q Quoted) Scenario(agent string, script func(string) fakemodel.Script, c Composer) *Scenario {
	quote := fakemodel.Keyword{Word: QuoteWord, Reply: fakemodel.Reply{Text: q.Quote}}
	return &Scenario{Name: "quoted-prompt", Agent: agent, Script: WithKeywords(script, quote), Drive: func(s *Steps) {
		c.Idle(s)
		c.Prompt(s, QuoteWord+" please")
		s.Request("prompt", nil)
		q.Answered(s)
		s.MarkIdle()
	}}
}
