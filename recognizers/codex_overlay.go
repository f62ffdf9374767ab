package recognizers

import "strings"

// footer proves the overlay's footer on row f after a blank row: its
// exact text at column 2 and, when padded, its dim style reaching the
// pane's last column (a narrower one was drawn for another width).
func (c *codex0x) footer(g *grid, end, f, b int, text string, padded bool, out *Recognition) {
	defer g.enter("codex0x.footer")()
	switch {
	case !g.blank(end+1) || !g.rowIs(f, 2, text) || g.style(2, f) != c.dim:
		out.Reasons = append(out.Reasons, reason(ReasonFooterMissing, "row "+itoa(f)))
	case padded && g.style(g.w-1, f) != c.dim:
		out.Reasons = append(out.Reasons, reason(ReasonResizedFrame, "footer on row "+itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, reason(ReasonContentBelow, "row "+itoa(f+1)))
	}
}

// menu reads option rows of the layout from y0. With descriptions, a
// row's description is the dim text after its label, at one column shared
// by all rows (on the current row, which is all highlight, the same column
// splits it); without, dim cells are shortcut keys.
func (c *codex0x) menu(g *grid, lay menuLayout, y0, b int, descriptions bool) ([]Option, []bool, int) {
	defer g.enter("codex0x.menu")()
	var opts []Option
	var glyphs []bool
	y := y0
	for ; y <= b; y++ {
		num, glyph, ok := lay.option(g, y)
		if !ok {
			break
		}
		opts = append(opts, Option{Number: num, Row: y})
		glyphs = append(glyphs, glyph)
	}
	col := -1
	for i, o := range opts {
		if glyphs[i] || !descriptions {
			continue
		}
		for x := lay.labelX; x <= g.last(o.Row); x++ {
			if cl := g.cell(x, o.Row); !g.blankCell(cl) && g.styleOf(cl) == c.dim {
				if col < 0 || x < col {
					col = x
				}
				break
			}
		}
	}
	for i := range opts {
		o := &opts[i]
		end := g.last(o.Row) + 1
		cut := end
		if col >= 0 && col < end && g.space(col-1, o.Row) {
			cut = col
		}
		o.Label = strings.TrimSpace(g.text(o.Row, lay.labelX, cut))
		o.Description = strings.TrimSpace(g.text(o.Row, cut, end))
	}
	return opts, glyphs, y - 1
}

// highlightProof proves exactly one current row: the glyph and the whole
// row in the highlight style, and no highlight style on any other row.
func (c *codex0x) highlightProof(g *grid, lay menuLayout, opts []Option, glyphs []bool) (int, []Reason) {
	defer g.enter("codex0x.highlightProof")()
	h := -1
	var out []Reason
	for i, o := range opts {
		lit := false
		m := newStyleSet(c.rowLit)
		for x := lay.glyphX; x <= g.last(o.Row); x++ {
			if cl := g.cell(x, o.Row); !g.blankCell(cl) && g.inSet(&m, cl) {
				lit = true
				break
			}
		}
		switch {
		case glyphs[i] && !c.highlightRow(g, o.Row, lay.glyphX):
			out = append(out, reason(ReasonHighlightUnproven, "row "+itoa(o.Row)+" not in the highlight style"))
		case glyphs[i] && h >= 0:
			out = append(out, reason(ReasonHighlightUnproven, "second highlighted row "+itoa(o.Row)))
		case glyphs[i]:
			h = i
		case lit:
			out = append(out, reason(ReasonHighlightUnproven, "highlight style without glyph on row "+itoa(o.Row)))
		}
	}
	if h < 0 && len(out) == 0 && len(opts) > 0 {
		out = append(out, reason(ReasonHighlightUnproven, "no highlighted row"))
	}
	return h, out
}
