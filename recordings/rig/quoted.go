package rig

// The quoted-prompt scenario: the fake model answers a prompt with plain
// assistant text that quotes, verbatim, a questionnaire and then a
// permission prompt of the same agent (menu rows, highlight glyph, footer
// hint), so that the quote ends right above the idle composer. Nothing
// asks anything: the screen is idle, and a recognizer that takes text for
// a prompt is caught by a real screen rather than a mutated one.

// QuoteWord is the prompt's keyword: the fake model answers it with the
// agent's quote (a script made WithKeywords).
const QuoteWord = "quote-prompts"
