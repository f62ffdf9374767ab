package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
)

// footer proves the overlay's footer on row f after a blank row: its
// exact text at column 2 and, when padded, its dim style reaching the
// pane's last column (a narrower one was drawn for another width).
func (c *codex0x) footer(g *recognizers.Grid, end, f, b int, text string, padded bool, out *recognizers.Recognition) {
	defer g.Enter("codex0x.footer")()
	switch {
	case !g.Blank(end+1) || !g.RowIs(f, 2, text) || g.StyleAt(2, f) != c.dim:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	case padded && g.StyleAt(g.Width()-1, f) != c.dim:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonResizedFrame, "footer on row "+strconv.Itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
}

// menu reads option rows of the layout from y0. With descriptions, a
// row's description is the dim text after its label, at one column shared
// by all rows (on the current row, which is all highlight, the same column
// splits it); without, dim cells are shortcut keys.
func (c *codex0x) menu(g *recognizers.Grid, lay recognizers.MenuLayout, y0, b int, descriptions bool) ([]recognizers.Option, []bool, int) {
	defer g.Enter("codex0x.menu")()
	var opts []recognizers.Option
	var glyphs []bool
	y := y0
	for ; y <= b; y++ {
		num, glyph, ok := lay.OptionAt(g, y)
		if !ok {
			break
		}
		opts = append(opts, recognizers.Option{Number: num, Row: y})
		glyphs = append(glyphs, glyph)
	}
	col := -1
	for i, o := range opts {
		if glyphs[i] || !descriptions {
			continue
		}
		for x := lay.LabelX; x <= g.Last(o.Row); x++ {
			if cl := g.Cell(x, o.Row); !g.BlankCell(cl) && g.StyleOf(cl) == c.dim {
				if col < 0 || x < col {
					col = x
				}
				break
			}
		}
	}
	for i := range opts {
		o := &opts[i]
		end := g.Last(o.Row) + 1
		cut := end
		if col >= 0 && col < end && g.SpaceAt(col-1, o.Row) {
			cut = col
		}
		o.Label = strings.TrimSpace(g.Text(o.Row, lay.LabelX, cut))
		o.Description = strings.TrimSpace(g.Text(o.Row, cut, end))
	}
	return opts, glyphs, y - 1
}

// highlightProof proves exactly one current row: the glyph and the whole
// row in the highlight style, and no highlight style on any other row.
func (c *codex0x) highlightProof(g *recognizers.Grid, lay recognizers.MenuLayout, opts []recognizers.Option, glyphs []bool) (int, []recognizers.Reason) {
	defer g.Enter("codex0x.highlightProof")()
	h := -1
	var out []recognizers.Reason
	for i, o := range opts {
		lit := false
		m := recognizers.NewStyleSet(c.rowLit)
		for x := lay.GlyphX; x <= g.Last(o.Row); x++ {
			if cl := g.Cell(x, o.Row); !g.BlankCell(cl) && g.InSet(&m, cl) {
				lit = true
				break
			}
		}
		switch {
		case glyphs[i] && !c.highlightRow(g, o.Row, lay.GlyphX):
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "row "+strconv.Itoa(o.Row)+" not in the highlight style"))
		case glyphs[i] && h >= 0:
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "second highlighted row "+strconv.Itoa(o.Row)))
		case glyphs[i]:
			h = i
		case lit:
			out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "highlight style without glyph on row "+strconv.Itoa(o.Row)))
		}
	}
	if h < 0 && len(out) == 0 && len(opts) > 0 {
		out = append(out, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "no highlighted row"))
	}
	return h, out
}
