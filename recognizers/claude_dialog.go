package recognizers

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
)

// A Claude dialog replaces the composer: a full-width rule, a header row
// (the tool's name, a question's chip, or the questions' tabs), the body,
// a numbered menu and a footer. It is recognized from its top, the
// bottom-most such frame, and parsed down to the screen's last row.

// dialogTop reports whether row y is the top of a dialog: a rule of a
// dialog's style at least 8 columns long, and a header row under it.
// resized says the rule does not span the pane.
func (c *claude21) dialogTop(g *grid, y int) bool {
	defer g.enter("claude21.dialogTop")()
	ok, _ := c.dialogTopRule(g, y)
	return ok
}

func (c *claude21) dialogTopRule(g *grid, y int) (ok, resized bool) {
	defer g.enter("claude21.dialogTopRule")()
	if y+1 >= g.h || g.blank(y+1) || g.ch(0, y) != '─' {
		return false, false
	}
	var full bool
	var n int
	switch h := y + 1; {
	case g.first(h) == 1 && g.style(1, h) == c.permHeader:
		full, n = g.rule(y, '─', c.permRule)
	case g.first(h) == 0 && (g.style(0, h) == c.chip || g.ch(0, h) == '←' && c.arrow(g.style(0, h))):
		full, n = g.rule(y, '─', c.qRule)
	}
	return n >= 8, n >= 8 && !full
}

// dialog recognizes a dialog ending at or above row b.
func (c *claude21) dialog(g *grid, b int, out *Recognition) bool {
	defer g.enter("claude21.dialog")()
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
	if g.first(top+1) == 1 {
		c.permission(g, top, b, out)
	} else {
		c.questionnaire(g, top, b, out)
	}
	if _, resized := c.dialogTopRule(g, top); resized {
		out.Reasons = append(out.Reasons, reason(ReasonResizedFrame, "rule on row "+itoa(top)))
	}
	if r, stale := c.staleAbove(g, top); stale {
		out.Reasons = append(out.Reasons, r)
	}
	return true
}

// frameless handles a dialog's styled rows (its footer, a highlighted
// menu row) without its top: the pane cut it off (clipped) or the rule is
// gone. It is a prompt a person must handle, never an actionable one.
func (c *claude21) frameless(g *grid, b int, out *Recognition) bool {
	defer g.enter("claude21.frameless")()
	kind := contract.Kind("")
	x := g.first(b)
	switch {
	case x == 1 && g.rowIs(b, 1, c.permFooter) && g.styled(b, 1, g.w, c.hint):
		kind = contract.KindPermission
	case x == 0 && g.hasAt(b, 0, "Enter to select ·") && g.styled(b, 0, g.w, c.hint):
		kind = contract.KindQuestionnaire
	}
	header := false
	for y := b; y >= 0; y-- {
		if g.blank(y) {
			continue
		}
		fx := g.first(y)
		if kind == "" && fx <= 1 && g.ch(fx, y) == '❯' && g.style(fx, y) == c.highlight && numberAt(g, y, fx+2) > 0 {
			kind = contract.KindQuestionnaire
			if fx == 1 {
				kind = contract.KindPermission
			}
		}
		if fx == 1 && g.style(1, y) == c.permHeader || fx == 0 && (g.style(0, y) == c.chip || g.ch(0, y) == '←' && c.arrow(g.style(0, y))) {
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
	out.Prompt = &Prompt{Kind: kind, Highlighted: -1}
	code := ReasonClippedFrame
	if header {
		code = ReasonFrameMissing
	}
	out.Reasons = append(out.Reasons, reason(code, "no dialog rule and header above row "+itoa(b)))
	return true
}

// menu reads a numbered menu from row y0: option rows of the layout and,
// when wrapped, their continuation rows; with descriptions, rows of
// description text under an option. It stops at the first other row and
// returns the options, which rows draw the glyph, the last row read, and
// a wrapped_label reason for each wrap no recording proves.
// Description rows start anywhere from column 2 to the label's column
// after a checkbox (versions differ).
func (c *claude21) menu(g *grid, lay menuLayout, y0, b int, descriptions bool) ([]Option, []bool, int, []Reason) {
	defer g.enter("claude21.menu")()
	var opts []Option
	var glyphs []bool
	var rs []Reason
	wraps := 0 // continuation rows of the last option
	y := y0
	for ; y <= b; y++ {
		if num, glyph, ok := lay.option(g, y); ok {
			label, desc := c.splitLabel(g, y, lay.labelX+checkboxWidth(g, y, lay.labelX))
			opts = append(opts, Option{Number: num, Label: label, Description: desc, Row: y})
			glyphs = append(glyphs, glyph)
			wraps = 0
			continue
		}
		if len(opts) == 0 || g.blank(y) {
			break
		}
		o := &opts[len(opts)-1]
		fx := g.first(y)
		switch {
		case descriptions && fx >= 2 && fx <= lay.labelX+4 && g.styled(y, 0, g.w, c.hint):
			o.Description = strings.TrimSpace(o.Description + " " + g.trimmed(y))
		case !descriptions && lay.continuation(g, y):
			wraps++
			if wraps > max(c.maxWraps, 1) || !hasAnyPrefix(o.Label+" ", c.wrapProven) {
				rs = append(rs, reason(ReasonWrappedLabel, "row "+itoa(y)))
			}
			if o.Description != "" && g.styled(y, 0, g.w, c.hint) {
				// The grey description after " · " went on.
				o.Description = strings.TrimSpace(o.Description + " " + g.trimmed(y))
				continue
			}
			label, desc := c.splitLabel(g, y, lay.labelX)
			// A word longer than a whole row (a path) is broken at the
			// pane's edge, its rest on the next row without a space; any
			// other wrap falls between words.
			sep := " "
			if o.Description == "" && brokenWord(g, y-1, y, lay.labelX) {
				sep = ""
			}
			o.Label = strings.TrimSpace(o.Label + sep + label)
			o.Description = strings.TrimSpace(o.Description + " " + desc)
		case descriptions && o.Description == "" && fx == lay.labelX+checkboxWidth(g, o.Row, lay.labelX) &&
			!g.rowIs(y, lay.labelX, c.multiSubmit):
			// Text at the label's column right under its row, not grey and
			// not multi-select's Submit: the label wrapped (no recording
			// shows a questionnaire's label wrap). The menu ends here.
			rs = append(rs, reason(ReasonWrappedLabel, "row "+itoa(y)))
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
func brokenWord(g *grid, prev, next, x int) bool {
	p := g.last(prev)
	if p < g.w-2 {
		return false
	}
	before := g.text(prev, x, p+1)
	after := g.textFrom(next, g.first(next))
	tail := before[strings.LastIndex(before, " ")+1:]
	head, _, _ := strings.Cut(after, " ")
	return displayWidth(tail)+displayWidth(head) > g.w-1-x
}

// splitLabel splits an option row at its first grey non-blank cell: the
// label before it, a description after (" · auto mode handles these
// prompts for you"). A row grey from its start is all label ("Type
// something.").
func (c *claude21) splitLabel(g *grid, y, x0 int) (label, desc string) {
	end := g.last(y) + 1
	cut := end
	lead := true
	hint := g.match(c.hint) // by style index: a Style compare per cell is most of the cost
	for x := x0; x < end; x++ {
		cl := g.cell(x, y)
		if g.blankCell(cl) {
			continue
		}
		grey := g.is(&hint, cl)
		if grey && !lead {
			cut = x
			break
		}
		if !grey {
			lead = false
		}
	}
	label = strings.TrimSpace(g.text(y, x0, cut))
	desc = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(g.text(y, cut, end)), "·"))
	return label, desc
}

// highlightProof proves exactly one current row from styles: the glyph
// drawn in the highlight colour on one row only, that row's label in the
// highlight colour and no other's (but the editor row ed, whose label is
// its text), and every number in grey.
func (c *claude21) highlightProof(g *grid, lay menuLayout, labelX int, opts []Option, glyphs []bool, ed int) (int, []Reason) {
	defer g.enter("claude21.highlightProof")()
	h := -1
	var out []Reason
	for i, o := range opts {
		if g.style(lay.numX, o.Row) != c.hint || g.style(lay.numX+1, o.Row) != c.hint {
			out = append(out, reason(ReasonChangedMenuShape, "number style on row "+itoa(o.Row)))
		}
		labelLit := g.style(labelX, o.Row) == c.highlight
		switch {
		case glyphs[i] && g.style(lay.glyphX, o.Row) != c.highlight:
			out = append(out, reason(ReasonHighlightUnproven, "glyph without highlight on row "+itoa(o.Row)))
		case glyphs[i] && h >= 0:
			out = append(out, reason(ReasonHighlightUnproven, "second highlighted row "+itoa(o.Row)))
		case glyphs[i]:
			h = i
			if !labelLit && i != ed {
				out = append(out, reason(ReasonHighlightUnproven, "label not highlighted on row "+itoa(o.Row)))
			}
		case labelLit:
			out = append(out, reason(ReasonHighlightUnproven, "highlighted label without glyph on row "+itoa(o.Row)))
		}
	}
	if h < 0 && len(out) == 0 && len(opts) > 0 {
		out = append(out, reason(ReasonHighlightUnproven, "no highlighted row"))
	}
	return h, out
}

func numbersOf(opts []Option) []int {
	out := make([]int, len(opts))
	for i, o := range opts {
		out[i] = o.Number
	}
	return out
}

func rowsOf(opts []Option) []int {
	out := make([]int, len(opts))
	for i, o := range opts {
		out[i] = o.Row
	}
	return out
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
func checkboxWidth(g *grid, y, x int) int {
	if g.ch(x, y) == '[' && g.ch(x+2, y) == ']' && g.space(x+3, y) {
		return 4
	}
	return 0
}
