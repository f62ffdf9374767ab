package recognizers

import (
	"strings"

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
	claudeStartupShapes  = []startupShape{
		{title: "Accessing workspace:", reason: BlockedTrust},
		{title: "Detected a custom API key in your environment", reason: BlockedLogin},
	}
	claudeStartupRule  = fg256(220).vt()
	claudeStartupTitle = fg256(220).bold().vt()
	claudeWelcome      = fg256(174).vt()
)

// claudeOnboardingTitle is the theme picker's question, bold.
const claudeOnboardingTitle = "Choose the text style that looks best with your terminal"

// startup reads a startup screen as blocked; false when it is none.
func (c *claude21) startup(g *grid, out *Recognition) bool {
	defer g.enter("claude21.startup")()
	if c.usageLimit(g, out) { // not a startup screen: the composer with notices under it
		return true
	}
	if b, bottom, ok := startupScreen(g, claudeStartupFooters, -1, claudeStartupShapes); ok {
		y, x := b.Row, g.first(b.Row)
		if full, _ := g.rule(y-1, '─', claudeStartupRule); !full || !g.styled(y, x, g.last(y)+1, claudeStartupTitle) ||
			!styledAny(g, bottom, c.hint, c.hintItalic()) {
			return false
		}
		blockDialog(out, b, y-1, bottom)
		return true
	}
	if !g.hasAt(0, 0, "Welcome to Claude Code v") || g.style(0, 0) != claudeWelcome {
		return false
	}
	for y := 1; y < g.h; y++ {
		if x := g.first(y); !g.blank(y) && g.trimmed(y) == claudeOnboardingTitle && g.style(x, y) == plain().bold().vt() {
			blockDialog(out, Block{Reason: BlockedOnboarding, Row: y}, 0, g.lastRow())
			return true
		}
	}
	return false
}

func (c *claude21) hintItalic() vt.Style { return fg256(246).italic().vt() }

// styledAny: every non-blank cell of row y has one of the styles.
func styledAny(g *grid, y int, styles ...vt.Style) bool {
	for _, s := range styles {
		if g.styled(y, 0, g.w, s) {
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
func (c *claude21) interrupted(g *grid, end int) (Block, bool) {
	defer g.enter("claude21.interrupted")()
	if end < 0 || g.first(end) != 2 || g.ch(2, end) != '⎿' || !g.styled(end, 0, g.w, c.hint) {
		return Block{}, false
	}
	text := strings.TrimSpace(strings.ReplaceAll(g.textFrom(end, 3), "\u00a0", " "))
	if text != claudeInterrupted {
		return Block{}, false
	}
	return Block{Reason: BlockedInterrupted, Row: end}, true
}

// claudeNotLoggedIn is the notice right-aligned above the composer when
// Claude Code has no login (2.1.332 writes "run /login"), in colour 211.
var (
	claudeNotLoggedIn      = []string{"Not logged in · Run /login", "Not logged in · run /login"}
	claudeNotLoggedInStyle = fg256(211).vt()
)

// notLoggedIn reports the notice on row y.
func (c *claude21) notLoggedIn(g *grid, y int) bool {
	defer g.enter("claude21.notLoggedIn")()
	if y < 0 || g.blank(y) || g.first(y) < g.w/3 {
		return false
	}
	t := g.trimmed(y)
	for _, n := range claudeNotLoggedIn {
		if t == n && g.styled(y, 0, g.w, claudeNotLoggedInStyle) {
			return true
		}
	}
	return false
}
