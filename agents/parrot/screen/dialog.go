package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// Parrot's permission dialog takes the last seven rows, top to bottom:
// an orange rule, its title ("Parrot wants to run:" bold orange, then
// the command in the terminal's own colours), a blank row, its menu
// ("❯ 1. Yes" bold green while highlighted, "  2. No" plain; Up and Down
// move the highlight), a blank row and "Esc to cancel" in the hint
// colour. A digit picks its row whatever the highlight (recordings
// permission-approve, permission-reject).

// parrotMenu is where the menu's columns are.
var parrotMenu = recognizers.MenuLayout{Glyph: '❯', GlyphX: 0, NumX: 2, LabelX: 5}

// dialog proves the permission dialog ending on the last row. Once its
// last row is "Esc to cancel" in its colour the screen is a permission
// prompt: any other difference makes it manual_required, with a reason.
func (c *parrot1x) dialog(g *recognizers.Grid, out *recognizers.Recognition) bool {
	defer g.Enter("parrot1x.dialog")()
	b := g.Height() - 1
	if !g.RowIs(b, 0, c.cancel) || g.Trimmed(b) != c.cancel || !g.Styled(b, 0, g.Width(), c.hintStyle) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: max(0, b-6), Rows: min(b+1, 7)}
	opts, lit, top := c.menu(g, b-2)
	title := top - 2
	question := recognizers.Question{Prompt: g.Trimmed(title), Options: opts}
	pr.Questions = []recognizers.Question{question}
	switch {
	case !g.Blank(b - 1):
		return c.manual(out, recognizers.ReasonContentBelow, "row "+strconv.Itoa(b-1))
	case len(opts) == 0 || !g.Blank(top-1):
		return c.manual(out, recognizers.ReasonChangedMenuShape, "no menu over row "+strconv.Itoa(b-1))
	case !c.titled(g, title):
		pr.Questions[0].Prompt = ""
		return c.manual(out, recognizers.ReasonUnsupportedShape, "title on row "+strconv.Itoa(title))
	}
	if full, _ := g.Rule(title-1, '─', c.askRule); !full || title-1 < 1 || !c.headed(g) {
		return c.manual(out, recognizers.ReasonFrameMissing, "no rule and header over row "+strconv.Itoa(title))
	}
	out.Region = recognizers.Region{Top: title - 1, Rows: b - title + 2}
	if rs := recognizers.CheckOptionNumbers(opts); len(rs) > 0 {
		out.Reasons = append(out.Reasons, rs...)
		return true
	}
	if !c.rolesOf(opts) {
		return c.manual(out, recognizers.ReasonChangedMenuShape, "rows of no recorded menu")
	}
	pr.Questions[0].Options = opts
	if lit < 0 {
		return c.manual(out, recognizers.ReasonHighlightUnproven, "no single current row")
	}
	pr.Highlighted, pr.Tool = lit, contract.ToolShell
	if lit != 0 {
		return c.manual(out, recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[lit].Row))
	}
	// "1" runs it, "2" declines it and ends the turn: the agent is idle
	// again at once (recordings permission-approve, permission-reject).
	pr.Decisions = []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject}
	for i, d := range pr.Decisions {
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Decision: d, Option: i,
			Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(opts[i].Number), Expect: recognizers.NewExpect(-1, contract.ScreenIdle)}}})
	}
	return true
}

// manual adds why the dialog is manual_required; it is still the
// screen's reading.
func (c *parrot1x) manual(out *recognizers.Recognition, code, detail string) bool {
	out.Reasons = append(out.Reasons, recognizers.NewReason(code, detail))
	return true
}

// menu reads the option rows from row y up, in parrotMenu's layout, and
// the current one: the only row with the glyph, all of it in the lit
// style, every other row plain (-1 when that is not so). top is the
// menu's first row.
func (c *parrot1x) menu(g *recognizers.Grid, y int) (opts []recognizers.Option, lit, top int) {
	defer g.Enter("parrot1x.menu")()
	top, lit = y+1, -1
	proven := true
	for ; y >= 0; y-- {
		num, glyph, ok := parrotMenu.OptionAt(g, y)
		if !ok {
			break
		}
		style := recognizers.Plain().Style()
		if glyph {
			style = c.litStyle
			proven = proven && lit < 0 // a second glyph proves no current row
			lit = y
		}
		proven = proven && g.Styled(y, 0, g.Width(), style)
		label := strings.TrimSpace(g.Text(y, parrotMenu.LabelX, g.Width()))
		opts = append([]recognizers.Option{{Number: num, Label: label, Row: y}}, opts...)
		top = y
	}
	if !proven || lit < 0 {
		return opts, -1, top
	}
	return opts, lit - top, top
}

// titled reports the title on row y: "Parrot wants to run:" in its style
// from column 0, then a space and the command in the terminal's own
// colours.
func (c *parrot1x) titled(g *recognizers.Grid, y int) bool {
	x := recognizers.DisplayWidth(c.ask)
	return y >= 0 && g.First(y) == 0 && g.Text(y, 0, x+1) == c.ask+" " && g.Styled(y, 0, x, c.askStyle) &&
		g.Styled(y, x, g.Width(), recognizers.Plain().Style()) && g.Last(y) > x
}

// rolesOf matches the rows with the closed menu, label by label, and sets
// their roles; false when they differ.
func (c *parrot1x) rolesOf(opts []recognizers.Option) bool {
	if len(opts) != len(c.options) {
		return false
	}
	for i := range opts {
		if opts[i].Label != c.options[i].label {
			return false
		}
		opts[i].Role = c.options[i].role
	}
	return true
}
