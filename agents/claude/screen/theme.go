package screen

import "github.com/agent-knock-knock/akk/recognizers"

// Claude Code draws its screens in the theme the user picked (~/.claude.json
// "theme"). The profiles read each theme whose screens are recorded
// (recordings *-theme-<name>: idle, draft, the Bash permission dialog and,
// in light and light-ansi, a single-select question): the styles below are
// what those recordings show where the theme differs from the dark
// default. dark-daltonized draws the first three exactly as dark does (its
// questions are not in the corpus: they read as dark wherever they draw as
// dark). Any surface not recorded in a theme (errors, startup screens)
// keeps the dark styles, so in another theme it does not match and stays
// unknown or manual: zero input. The light themes' question
// styles would also match the questionnaire's unrecorded shapes (several
// questions, the review, multi-select, the open editor): qSingleOnly
// refuses those, and "Type something" (which opens the editor) is listed
// but not offered.

// claudeTheme is a theme's changes to a version's dark grammar.
type claudeTheme struct {
	name  string
	apply func(c *claude21)
}

// claudeThemes are the recorded themes of a version whose light theme
// draws the composer's rules in lightRule (246 on 2.1.267, 245 on 2.1.332).
func claudeThemes(lightRule int) []claudeTheme {
	return []claudeTheme{
		{"light", func(c *claude21) {
			c.composerRule = recognizers.Fg256(lightRule).Style()
			c.footer, c.hint = recognizers.Fg256(241).Style(), recognizers.Fg256(241).Style()
			c.highlight, c.permRule, c.permHeader = recognizers.Fg256(105).Style(), recognizers.Fg256(105).Style(), recognizers.Fg256(105).Bold().Style()
			c.qRule, c.chip, c.question = recognizers.Fg256(241).Style(), recognizers.Fg256(231).Bg256(105).Style(), recognizers.Fg256(16).Bold().Style()
			c.qSingleOnly = true
		}},
		// light-ansi: the 16 ANSI colours (SGR 30, 34, 37, 44, 90), not the 256-colour
		// forms.
		{"light-ansi", func(c *claude21) {
			c.composerRule = recognizers.Fg256(7).Style()
			c.footer, c.hint = recognizers.Fg256(8).Style(), recognizers.Fg256(8).Style()
			c.highlight, c.permRule, c.permHeader = recognizers.Fg256(4).Style(), recognizers.Fg256(4).Style(), recognizers.Fg256(4).Bold().Style()
			c.qRule, c.chip, c.question = recognizers.Fg256(8).Style(), recognizers.Fg256(7).Bg256(4).Style(), recognizers.Fg256(0).Bold().Style()
			c.qSingleOnly = true
		}},
	}
}

// withThemes is a version's grammar in its dark default and in each of
// its themes.
func withThemes(dark *claude21, themes []claudeTheme) *themed {
	t := &themed{variants: []recognizers.Grammar{dark}, names: []string{"dark"}}
	for _, th := range themes {
		c := *dark
		th.apply(&c)
		t.variants, t.names = append(t.variants, &c), append(t.names, th.name)
	}
	return t
}

// themed reads a screen with one version's grammar in each theme, the
// default first, and keeps the first reading that proves its shape, else
// the first that knows the state, else the default's: a screen matches
// one theme's styles or none.
type themed struct {
	variants []recognizers.Grammar
	names    []string
}

func (t *themed) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	recognizers.ReadBest(g, out, t.variants, func(i int) string {
		if i == 0 {
			return "" // the default reads in its caller's section
		}
		return t.names[i] + " theme"
	})
}
