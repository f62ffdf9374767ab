package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// A Claude dialog replaces the composer: a full-width rule, a header row
// (the tool's name, a question's chip, or the questions' tabs), the body,
// a numbered menu and a footer. It is recognized from its top, the
// bottom-most such frame, and parsed down to the screen's last row.

// dialogTop reports whether row y is the top of a dialog: a rule of a
// dialog's style at least 8 columns long, and a header row under it.
// resized says the rule does not span the pane.
func (c *claude21) dialogTop(g *recognizers.Grid, y int) bool {
	defer g.Enter("claude21.dialogTop")()
	ok, _ := c.dialogTopRule(g, y)
	return ok
}

func (c *claude21) dialogTopRule(g *recognizers.Grid, y int) (ok, resized bool) {
	defer g.Enter("claude21.dialogTopRule")()
	if y+1 >= g.Height() || g.Blank(y+1) || g.Rune(0, y) != '─' {
		return false, false
	}
	var full bool
	var n int
	switch h := y + 1; {
	case g.First(h) == 1 && g.StyleAt(1, h) == c.permHeader:
		full, n = g.Rule(y, '─', c.permRule)
	case g.First(h) == 0 && (g.StyleAt(0, h) == c.chip || g.Rune(0, h) == '←' && c.arrow(g.StyleAt(0, h))):
		full, n = g.Rule(y, '─', c.qRule)
	}
	return n >= 8, n >= 8 && !full
}

// dialog recognizes a dialog ending at or above row b.
func (c *claude21) dialog(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.dialog")()
	top := -1
	for y := b - 1; y >= 0; y-- {
		if c.dialogTop(g, y) {
			top = y
			break
		}
	}
	if top < 0 {
		return c.frameless(g, b, out)
	}
	if g.First(top+1) == 1 {
		c.permission(g, top, b, out)
	} else {
		c.questionnaire(g, top, b, out)
	}
	if _, resized := c.dialogTopRule(g, top); resized {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonResizedFrame, "rule on row "+strconv.Itoa(top)))
	}
	if r, stale := c.staleAbove(g, top); stale {
		out.Reasons = append(out.Reasons, r)
	}
	return true
}

// frameless handles a dialog's styled rows (its footer, a highlighted
// menu row) without its top: the pane cut it off (clipped) or the rule is
// gone. It is a prompt a person must handle, never an actionable one.
func (c *claude21) frameless(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.frameless")()
	kind := contract.Kind("")
	x := g.First(b)
	switch {
	case x == 1 && g.RowIs(b, 1, c.permFooter) && g.Styled(b, 1, g.Width(), c.hint):
		kind = contract.KindPermission
	case x == 0 && g.HasAt(b, 0, "Enter to select ·") && g.Styled(b, 0, g.Width(), c.hint):
		kind = contract.KindQuestionnaire
	}
	header := false
	for y := b; y >= 0; y-- {
		if g.Blank(y) {
			continue
		}
		fx := g.First(y)
		if kind == "" && fx <= 1 && g.Rune(fx, y) == '❯' && g.StyleAt(fx, y) == c.highlight && recognizers.NumberAt(g, y, fx+2) > 0 {
			kind = contract.KindQuestionnaire
			if fx == 1 {
				kind = contract.KindPermission
			}
		}
		if fx == 1 && g.StyleAt(1, y) == c.permHeader || fx == 0 && (g.StyleAt(0, y) == c.chip || g.Rune(0, y) == '←' && c.arrow(g.StyleAt(0, y))) {
			header = true
		}
	}
	if kind == "" {
		return false
	}
	out.ScreenState = contract.ScreenQuestionnaire
	if kind == contract.KindPermission {
		out.ScreenState = contract.ScreenAwaitingApproval
	}
	out.Prompt = &recognizers.Prompt{Kind: kind, Highlighted: -1}
	code := recognizers.ReasonClippedFrame
	if header {
		code = recognizers.ReasonFrameMissing
	}
	out.Reasons = append(out.Reasons, recognizers.NewReason(code, "no dialog rule and header above row "+strconv.Itoa(b)))
	return true
}

// menu reads a numbered menu from row y0: option rows of the layout and,
// when wrapped, their continuation rows; with descriptions, rows of
// description text under an option. It stops at the first other row and
// returns the options, which rows draw the glyph, the last row read, and
// a wrapped_label reason for each wrap no recording proves.
// Description rows start anywhere from column 2 to the label's column
// after a checkbox (versions differ).
func (c *claude21) menu(g *recognizers.Grid, lay recognizers.MenuLayout, y0, b int, descriptions bool) ([]recognizers.Option, []bool, int, []recognizers.Reason) {
	defer g.Enter("claude21.menu")()
	var opts []recognizers.Option
	var glyphs []bool
	var rs []recognizers.Reason
	wraps := 0 // continuation rows of the last option
	y := y0
	for ; y <= b; y++ {
		if num, glyph, ok := lay.OptionAt(g, y); ok {
			label, desc := c.splitLabel(g, y, lay.LabelX+checkboxWidth(g, y, lay.LabelX))
			opts = append(opts, recognizers.Option{Number: num, Label: label, Description: desc, Row: y})
			glyphs = append(glyphs, glyph)
			wraps = 0
			continue
		}
		if len(opts) == 0 || g.Blank(y) {
			break
		}
		o := &opts[len(opts)-1]
		fx := g.First(y)
		switch {
		case descriptions && fx >= 2 && fx <= lay.LabelX+4 && g.Styled(y, 0, g.Width(), c.hint):
			o.Description = strings.TrimSpace(o.Description + " " + g.Trimmed(y))
		case !descriptions && lay.Continuation(g, y):
			wraps++
			if wraps > max(c.maxWraps, 1) || !hasAnyPrefix(o.Label+" ", c.wrapProven) {
				rs = append(rs, recognizers.NewReason(recognizers.ReasonWrappedLabel, "row "+strconv.Itoa(y)))
			}
			if o.Description != "" && g.Styled(y, 0, g.Width(), c.hint) {
				// The grey description after " · " went on.
				o.Description = strings.TrimSpace(o.Description + " " + g.Trimmed(y))
				continue
			}
			label, desc := c.splitLabel(g, y, lay.LabelX)
			// A word longer than a whole row (a path) is broken at the
			// pane's edge, its rest on the next row without a space; any
			// other wrap falls between words.
			sep := " "
			if o.Description == "" && brokenWord(g, y-1, y, lay.LabelX) {
				sep = ""
			}
			o.Label = strings.TrimSpace(o.Label + sep + label)
			o.Description = strings.TrimSpace(o.Description + " " + desc)
		case descriptions && o.Description == "" && fx == lay.LabelX+checkboxWidth(g, o.Row, lay.LabelX) &&
			!g.RowIs(y, lay.LabelX, c.multiSubmit):
			// Text at the label's column right under its row, not grey and
			// not multi-select's Submit: the label wrapped (no recording
			// shows a questionnaire's label wrap). The menu ends here.
			rs = append(rs, recognizers.NewReason(recognizers.ReasonWrappedLabel, "row "+strconv.Itoa(y)))
			return opts, glyphs, y - 1, rs
		default:
			return opts, glyphs, y - 1, rs
		}
	}
	return opts, glyphs, y - 1, rs
}

// brokenWord reports whether the word ending row prev and the one
// starting row next are one word broken at the edge: together they are
// longer than a row holds from column x.
func brokenWord(g *recognizers.Grid, prev, next, x int) bool {
	p := g.Last(prev)
	if p < g.Width()-2 {
		return false
	}
	before := g.Text(prev, x, p+1)
	after := g.TextFrom(next, g.First(next))
	tail := before[strings.LastIndex(before, " ")+1:]
	head, _, _ := strings.Cut(after, " ")
	return recognizers.DisplayWidth(tail)+recognizers.DisplayWidth(head) > g.Width()-1-x
}

// splitLabel splits an option row at its first grey non-blank cell: the
// label before it, a description after (" · auto mode handles these
// prompts for you"). A row grey from its start is all label ("Type
// something.").
func (c *claude21) splitLabel(g *recognizers.Grid, y, x0 int) (label, desc string) {
	end := g.Last(y) + 1
	cut := end
	lead := true
	hint := g.Match(c.hint) // by style index: a Style compare per cell is most of the cost
	for x := x0; x < end; x++ {
		cl := g.Cell(x, y)
		if g.BlankCell(cl) {
			continue
		}
		grey := g.Matches(&hint, cl)
		if grey && !lead {
			cut = x
			break
		}
		if !grey {
			lead = false
		}
	}
	label = strings.TrimSpace(g.Text(y, x0, cut))
	desc = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(g.Text(y, cut, end)), "·"))
	return label, desc
}

// highlightProof proves exactly one current row from styles: the glyph
// drawn in the highlight colour on one row only, that row's label in the
// highlight colour and no other's (but the editor row ed, whose label is
// its text), and every number in grey.
func (c *claude21) highlightProof(g *recognizers.Grid, lay recognizers.MenuLayout, labelX int, opts []recognizers.Option, glyphs []bool, ed int) (int, []recognizers.Reason) {
	defer g.Enter("claude21.highlightProof")()
	h := -1
	var out []recognizers.Reason
	for i, o := range opts {
		if g.StyleAt(lay.NumX, o.Row) != c.hint || g.StyleAt(lay.NumX+1, o.Row) != c.hint {
			out = append(out, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "number style on row "+strconv.Itoa(o.Row)))
		}
		labelLit := g.StyleAt(labelX, o.Row) == c.highlight
		switch {
		case glyphs[i] && g.StyleAt(lay.GlyphX, o.Row) != c.highlight:
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "glyph without highlight on row "+strconv.Itoa(o.Row)))
		case glyphs[i] && h >= 0:
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "second highlighted row "+strconv.Itoa(o.Row)))
		case glyphs[i]:
			h = i
			if !labelLit && i != ed {
				out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "label not highlighted on row "+strconv.Itoa(o.Row)))
			}
		case labelLit:
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "highlighted label without glyph on row "+strconv.Itoa(o.Row)))
		}
	}
	if h < 0 && len(out) == 0 && len(opts) > 0 {
		out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "no highlighted row"))
	}
	return h, out
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// checkboxWidth is 4 when row y shows a multi-select checkbox ("[ ] ",
// "[✔] ") at column x, else 0.
func checkboxWidth(g *recognizers.Grid, y, x int) int {
	if g.Rune(x, y) == '[' && g.Rune(x+2, y) == ']' && g.SpaceAt(x+3, y) {
		return 4
	}
	return 0
}
