package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// A Gemini CLI tool confirmation is a dialog framed from column 0 to the
// pane's edge ("╭─…─╮", "│ … │", "╰─…─╯"), the screen's last rows: its
// title "? <Tool>  <subject>" (the "? Tool  " bold), what the tool would
// do (a framed command or diff), its question, a blank row, and a
// numbered menu whose current row is painted ("● 1. Allow once").
//
// Each tool's dialog has its own question and closed menu, every row a
// fact of the version's recordings. Its "No, suggest changes (esc)" row is
// Esc: the tool is cancelled and with it the whole request ("ℹ Request
// cancelled.", the chats file's toolCall status "cancelled": recordings
// permission-reject, permission-escape, edit-reject), a cancel rather than
// a semantic no (DESIGN.md invariant 9), so reject is never offered; "Allow
// for this session" is a persistent grant and "Modify with external
// editor" opens an editor in the pane: neither is offered.

// geminiDialog is one tool's confirmation.
type geminiDialog struct {
	tool     string        // the title's tool name ("Shell")
	kind     contract.Tool // the projection's tool (ToolShell, ...)
	question string        // the question row, as drawn
	// bracket: the question names the tool as "[Tool]" in the title
	// style ("Allow execution of [Shell]?").
	bracket bool
	rows    []geminiRow
}

// geminiRow is a menu row's role and exact label.
type geminiRow struct {
	role  recognizers.Role
	label string
}

var (
	geminiAllowOnce = geminiRow{role: recognizers.RoleApprove, label: "Allow once"}
	geminiAllowSess = geminiRow{role: recognizers.RolePersistent, label: "Allow for this session"}
	geminiNoEsc     = geminiRow{role: recognizers.RoleCancel, label: "No, suggest changes (esc)"}
	geminiEditor    = geminiRow{role: recognizers.RoleChat, label: "Modify with external editor"}
)

// geminiDialogs0_61: Gemini CLI 0.61.0's run_shell_command (recordings
// permission-*) and write_file (edit-approve, edit-reject).
var geminiDialogs0_61 = []geminiDialog{
	{tool: "Shell", kind: contract.ToolShell, question: "Allow execution of [Shell]?", bracket: true,
		rows: []geminiRow{geminiAllowOnce, geminiAllowSess, geminiNoEsc}},
	{tool: "WriteFile", kind: contract.ToolWrite, question: "Apply this change?",
		rows: []geminiRow{geminiAllowOnce, geminiAllowSess, geminiEditor, geminiNoEsc}},
}

// geminiMenu is where the menu's columns are: the current row's glyph,
// the number, the label.
var geminiMenu = recognizers.MenuLayout{Glyph: '●', GlyphX: 2, NumX: 4, LabelX: 7}

// dialog proves a confirmation dialog ending on row b in palette p.
func (c *gemini0x) dialog(g *recognizers.Grid, b int, p *geminiPalette, out *recognizers.Recognition) bool {
	defer g.Enter("gemini0x.dialog")()
	if !c.frameRow(g, b, '╰', '╯', p) {
		return false
	}
	t := b - 1
	for ; t >= max(0, b-c.maxDialogRows) && c.framed(g, t, p); t-- {
	}
	if t < 0 || !c.frameRow(g, t, '╭', '╮', p) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	d := c.dialogTitle(g, t+1, p)
	if d == nil {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "title on row "+strconv.Itoa(t+1)))
		return true
	}
	q := -1
	for y := t + 2; y < b; y++ {
		if c.insideIs(g, y, d.question) {
			q = y
		}
	}
	if q < 0 || !c.questionStyled(g, q, d, p) || !c.blankInside(g, q+1) {
		pr.Questions = []recognizers.Question{{Header: d.tool, Prompt: d.question}}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no question over the menu"))
		return true
	}
	opts, lit := c.menu(g, q+2, b-1, p)
	pr.Questions = []recognizers.Question{{Header: d.tool, Prompt: d.question, Options: opts}}
	if len(opts) == 0 || opts[len(opts)-1].Row != b-1 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "the menu does not end the dialog"))
		return true
	}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	if lit < 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "no single current row"))
		return true
	}
	pr.Highlighted = lit
	if !c.rolesOf(d, opts) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "rows of no recorded "+d.tool+" menu"))
		return true
	}
	pr.Tool = d.kind
	if pr.Highlighted != 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[pr.Highlighted].Row)))
		return true
	}
	// "1" picks the one-time row, the current one (recordings
	// permission-approve, edit-approve: the tool runs once).
	pr.Decisions = []contract.Decision{contract.DecisionApproveOnce}
	out.Specs = []recognizers.ChoiceSpec{{Decision: contract.DecisionApproveOnce, Option: 0,
		Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(1), Expect: recognizers.NewExpect(-1, contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAwaitingApproval, contract.ScreenQuestionnaire)}}}}
	return true
}

// frameRow proves row y is the frame's top or bottom: l, then '─' to
// the column before the pane's edge, then r, all in the frame colour.
func (c *gemini0x) frameRow(g *recognizers.Grid, y int, l, r rune, p *geminiPalette) bool {
	if y < 0 || g.Rune(0, y) != l || g.Rune(g.Width()-1, y) != r || !g.Styled(y, 0, g.Width(), p.frame) {
		return false
	}
	for x := 1; x < g.Width()-1; x++ {
		if g.Rune(x, y) != '─' {
			return false
		}
	}
	return true
}

// framed reports a row inside the frame: '│' at both edges in its colour.
func (c *gemini0x) framed(g *recognizers.Grid, y int, p *geminiPalette) bool {
	return g.Rune(0, y) == '│' && g.Rune(g.Width()-1, y) == '│' && g.StyleAt(0, y) == p.frame && g.StyleAt(g.Width()-1, y) == p.frame
}

// insideIs reports a framed row whose text between the edges is exactly
// s from column 2.
func (c *gemini0x) insideIs(g *recognizers.Grid, y int, text string) bool {
	end := 2 + recognizers.DisplayWidth(text)
	if !g.SpaceAt(1, y) || !g.HasAt(y, 2, text) {
		return false
	}
	for x := end; x < g.Width()-1; x++ {
		if !g.SpaceAt(x, y) {
			return false
		}
	}
	return true
}

// blankInside reports a framed row with nothing between its edges.
func (c *gemini0x) blankInside(g *recognizers.Grid, y int) bool {
	for x := 1; x < g.Width()-1; x++ {
		if !g.SpaceAt(x, y) {
			return false
		}
	}
	return true
}

// dialogTitle reads the title row: "? <Tool>  " in the title style at
// column 2, then the subject in plain text up to the frame.
func (c *gemini0x) dialogTitle(g *recognizers.Grid, y int, p *geminiPalette) *geminiDialog {
	defer g.Enter("gemini0x.dialogTitle")()
	for i := range c.dialogs {
		d := &c.dialogs[i]
		head := "? " + d.tool + "  "
		x := 2 + recognizers.DisplayWidth(head)
		if g.HasAt(y, 2, head) && g.Styled(y, 2, x, p.title) && !g.SpaceAt(x, y) && g.Styled(y, x, g.Width()-1, p.text) {
			return d
		}
	}
	return nil
}

// questionStyled: the question in the dialog's text colour, or, when it
// names its tool as "[Tool]" in the title style, in the terminal's own.
func (c *gemini0x) questionStyled(g *recognizers.Grid, y int, d *geminiDialog, p *geminiPalette) bool {
	end := 2 + recognizers.DisplayWidth(d.question)
	if !d.bracket {
		return g.Styled(y, 2, end, p.text)
	}
	// Around its "[Tool]" the question is in the terminal's own colours.
	tag := "[" + d.tool + "]"
	i := 2 + recognizers.DisplayWidth(d.question[:strings.Index(d.question, tag)])
	j := i + recognizers.DisplayWidth(tag)
	return g.Styled(y, 1, i, recognizers.Plain().Style()) && g.Styled(y, i, j, p.title) && g.Styled(y, j, g.Width()-1, recognizers.Plain().Style())
}

// menu reads the option rows from y0 to y1 ("N. label" at geminiMenu's
// columns) and the current one: the only row with the glyph, painted in
// the lit style from the glyph through its label, every other row plain
// (-1 when that is not so).
func (c *gemini0x) menu(g *recognizers.Grid, y0, y1 int, p *geminiPalette) ([]recognizers.Option, int) {
	defer g.Enter("gemini0x.menu")()
	var opts []recognizers.Option
	lit, proven := -1, true
	for y := y0; y <= y1; y++ {
		num := recognizers.NumberAt(g, y, geminiMenu.NumX)
		if num == 0 {
			break
		}
		glyph := g.Rune(geminiMenu.GlyphX, y) == geminiMenu.Glyph
		if !glyph && !g.SpaceAt(geminiMenu.GlyphX, y) || !g.SpaceAt(geminiMenu.GlyphX+1, y) {
			break
		}
		label := strings.TrimSpace(g.Text(y, geminiMenu.LabelX, g.Width()-1))
		end := geminiMenu.LabelX + recognizers.DisplayWidth(label)
		switch {
		case glyph && lit < 0 && c.lit(g, y, end, p):
			lit = len(opts)
		case glyph || !g.Styled(y, geminiMenu.NumX, end, p.text):
			proven = false // a second glyph, one without the paint, or a row in another style
		}
		opts = append(opts, recognizers.Option{Number: num, Label: label, Row: y})
	}
	if !proven {
		lit = -1
	}
	return opts, lit
}

// lit reports row y painted from the glyph to end: its text in the lit
// style, its spaces in the lit background.
func (c *gemini0x) lit(g *recognizers.Grid, y, end int, p *geminiPalette) bool {
	for x := geminiMenu.GlyphX; x < end; x++ {
		s := g.StyleAt(x, y)
		if s != p.lit && !(g.SpaceAt(x, y) && s == p.litPad) {
			return false
		}
	}
	return true
}

// rolesOf matches the rows with the dialog's closed menu, label by label,
// and sets their roles; false when they differ.
func (c *gemini0x) rolesOf(d *geminiDialog, opts []recognizers.Option) bool {
	if len(opts) != len(d.rows) {
		return false
	}
	for i := range opts {
		if opts[i].Label != d.rows[i].label {
			return false
		}
		opts[i].Role = d.rows[i].role
	}
	return true
}

// staleAbove reports another dialog's question or title above the live
// dialog's top t (a dialog the screen did not erase).
func (c *gemini0x) staleAbove(g *recognizers.Grid, t int) (recognizers.Reason, bool) {
	defer g.Enter("gemini0x.staleAbove")()
	for y := 0; y < t; y++ {
		if c.promptPhrase(g, y) || c.titlePhrase(g, y) {
			return recognizers.NewReason(recognizers.ReasonStalePrompt, "row "+strconv.Itoa(y)), true
		}
	}
	return recognizers.Reason{}, false
}

// titlePhrase reports a dialog title's "? Tool  " on row y, whatever its
// style or column.
func (c *gemini0x) titlePhrase(g *recognizers.Grid, y int) bool {
	t := g.Trimmed(y)
	for _, d := range c.dialogs {
		if strings.Contains(t, "? "+d.tool+"  ") {
			return true
		}
	}
	return false
}

// brokenDialog explains a screen whose last rows hold a dialog but not
// a whole one at the bottom, as a permission prompt, manual_required: a
// whole dialog with rows below it (content below); framed rows whose
// frame does not close (no bottom row: footer missing); a frame that runs
// off the top of the pane (clipped) or whose top row is gone (frame
// missing); a frame whose menu lost its last row, leaving only persistent
// grants (persistent only) or another menu (changed shape); a menu row
// going on over a row without the frame (a wrapped label).
func (c *gemini0x) brokenDialog(g *recognizers.Grid, b int, p *geminiPalette, out *recognizers.Recognition) bool {
	defer g.Enter("gemini0x.brokenDialog")()
	for y := b - 1; y >= 0; y-- {
		if !c.frameRow(g, y, '╰', '╯', p) {
			continue
		}
		saved := *out
		if c.dialog(g, y, p, out) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(y+1)))
			return true
		}
		*out = saved
		break
	}
	var why recognizers.Reason
	switch {
	case c.framed(g, b, p) && c.dialogPart(g, b, p):
		why = recognizers.NewReason(recognizers.ReasonFooterMissing, "the dialog's frame does not close")
	case c.frameRow(g, b, '╰', '╯', p):
		y := b - 1
		for y >= 0 && c.framed(g, y, p) {
			y--
		}
		switch {
		case y < 0:
			why = recognizers.NewReason(recognizers.ReasonClippedFrame, "the frame runs off the top")
		case g.Blank(y) && y == b-1 && c.dialogPart(g, y-1, p):
			why = c.menuLeft(g, y-1, p)
		case g.Blank(y) && c.dialogPart(g, y+1, p):
			why = recognizers.NewReason(recognizers.ReasonFrameMissing, "no frame top over row "+strconv.Itoa(y+1))
		case !g.Blank(y) && c.menuRow(g, y-1) && c.dialogPart(g, y+1, p):
			// No recording wraps a label: a menu row going on over a row
			// of its own is a shape no version shows.
			why = recognizers.NewReason(recognizers.ReasonWrappedLabel, "row "+strconv.Itoa(y))
		default:
			return false
		}
	default:
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	out.Prompt = &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Region = recognizers.Region{Top: max(0, b-c.maxDialogRows), Rows: min(b+1, c.maxDialogRows+1)}
	out.Reasons = append(out.Reasons, why)
	return true
}

// dialogPart reports a framed row of the dialog from row y up to its
// frame: a menu row, or a question, with the frame above it.
func (c *gemini0x) dialogPart(g *recognizers.Grid, y int, p *geminiPalette) bool {
	for ; y >= 0 && c.framed(g, y, p); y-- {
		if c.menuRow(g, y) || c.promptPhrase(g, y) {
			return true
		}
	}
	return false
}

// menuLeft reads the option rows ending on row y (the menu's last row
// gone): only persistent grants, or another menu.
func (c *gemini0x) menuLeft(g *recognizers.Grid, y int, p *geminiPalette) recognizers.Reason {
	var labels []string
	for ; y >= 0 && c.framed(g, y, p) && c.menuRow(g, y); y-- {
		labels = append(labels, strings.TrimSpace(g.Text(y, geminiMenu.LabelX, g.Width()-1)))
	}
	once, grant := false, false
	for _, l := range labels {
		once = once || l == geminiAllowOnce.label
		grant = grant || l == geminiAllowSess.label
	}
	if grant && !once {
		return recognizers.NewReason(recognizers.ReasonPersistentOnly, "")
	}
	return recognizers.NewReason(recognizers.ReasonChangedMenuShape, "the menu lost its last row")
}

// menuRow reports an option row of the dialog's menu on row y.
func (c *gemini0x) menuRow(g *recognizers.Grid, y int) bool {
	return recognizers.NumberAt(g, y, geminiMenu.NumX) > 0
}
