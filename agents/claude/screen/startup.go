package screen

import (
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Claude Code's startup screens (recordings startup-trust,
// startup-api-key, startup-onboarding, startup-login on 2.1.267 and
// 2.1.332): what it shows before its composer when a machine is not set
// up. The trust and API-key dialogs are one frame: a full-width rule in
// the warning colour (220), a bold title in that colour, the dialog's
// text and menu, and "Enter to confirm · Esc to cancel" as the last row
// (plain grey under the trust question, italic grey under the key's).
// Their highlighted rows are "No, exit" and "No (recommended)": akk never
// presses anything there. The first run's theme picker starts with
// "Welcome to Claude Code vX" in the logo colour.

var (
	claudeStartupFooters = []string{"Enter to confirm · Esc to cancel"}
	claudeStartupShapes  = []recognizers.StartupShape{
		{Title: "Accessing workspace:", Reason: recognizers.BlockedTrust},
		{Title: "Detected a custom API key in your environment", Reason: recognizers.BlockedLogin},
	}
	claudeStartupRule  = recognizers.Fg256(220).Style()
	claudeStartupTitle = recognizers.Fg256(220).Bold().Style()
	claudeWelcome      = recognizers.Fg256(174).Style()
)

// claudeOnboardingTitle is the theme picker's question, bold.
const claudeOnboardingTitle = "Choose the text style that looks best with your terminal"

// startup reads a startup screen as blocked; false when it is none.
func (c *claude21) startup(g *recognizers.Grid, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.startup")()
	if c.usageLimit(g, out) { // not a startup screen: the composer with notices under it
		return true
	}
	if b, bottom, ok := recognizers.StartupScreen(g, claudeStartupFooters, -1, claudeStartupShapes); ok {
		y, x := b.Row, g.First(b.Row)
		if full, _ := g.Rule(y-1, '─', claudeStartupRule); !full || !g.Styled(y, x, g.Last(y)+1, claudeStartupTitle) ||
			!styledAny(g, bottom, c.hint, c.hintItalic()) {
			return false
		}
		recognizers.BlockDialog(out, b, y-1, bottom)
		return true
	}
	if !g.HasAt(0, 0, "Welcome to Claude Code v") || g.StyleAt(0, 0) != claudeWelcome {
		return false
	}
	for y := 1; y < g.Height(); y++ {
		if x := g.First(y); !g.Blank(y) && g.Trimmed(y) == claudeOnboardingTitle && g.StyleAt(x, y) == recognizers.Plain().Bold().Style() {
			recognizers.BlockDialog(out, recognizers.Block{Reason: recognizers.BlockedOnboarding, Row: y}, 0, g.LastRow())
			return true
		}
	}
	return false
}

func (c *claude21) hintItalic() vt.Style { return recognizers.Fg256(246).Italic().Style() }

// styledAny: every non-blank cell of row y has one of the styles.
func styledAny(g *recognizers.Grid, y int, styles ...vt.Style) bool {
	for _, s := range styles {
		if g.Styled(y, 0, g.Width(), s) {
			return true
		}
	}
	return false
}

// claudeInterrupted is the note under a turn a person stopped with Esc
// ("  ⎿  Interrupted · What should Claude do instead?", all grey; a
// no-break space after the ⎿'s two spaces).
const claudeInterrupted = "Interrupted · What should Claude do instead?"

// interrupted reads the transcript's last block ending at row end as the
// interruption note.
func (c *claude21) interrupted(g *recognizers.Grid, end int) (recognizers.Block, bool) {
	defer g.Enter("claude21.interrupted")()
	if end < 0 || g.First(end) != 2 || g.Rune(2, end) != '⎿' || !g.Styled(end, 0, g.Width(), c.hint) {
		return recognizers.Block{}, false
	}
	text := strings.TrimSpace(strings.ReplaceAll(g.TextFrom(end, 3), "\u00a0", " "))
	if text != claudeInterrupted {
		return recognizers.Block{}, false
	}
	return recognizers.Block{Reason: recognizers.BlockedInterrupted, Row: end}, true
}

// claudeNotLoggedIn is the notice right-aligned above the composer when
// Claude Code has no login (2.1.332 writes "run /login"), in colour 211.
var (
	claudeNotLoggedIn      = []string{"Not logged in · Run /login", "Not logged in · run /login"}
	claudeNotLoggedInStyle = recognizers.Fg256(211).Style()
)

// notLoggedIn reports the notice on row y.
func (c *claude21) notLoggedIn(g *recognizers.Grid, y int) bool {
	defer g.Enter("claude21.notLoggedIn")()
	if y < 0 || g.Blank(y) || g.First(y) < g.Width()/3 {
		return false
	}
	t := g.Trimmed(y)
	for _, n := range claudeNotLoggedIn {
		if t == n && g.Styled(y, 0, g.Width(), claudeNotLoggedInStyle) {
			return true
		}
	}
	return false
}
