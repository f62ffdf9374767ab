package recognizers

import (
	"slices"
	"strings"
)

// permission parses the approval overlay titled on row t: the request
// (environment, reason, "$ command"), the menu, and the footer padded in
// dim to the pane's last column.
func (c *codex0x) permission(g *grid, t, b int, out *Recognition) {
	out.ScreenState = AwaitingApproval
	title := g.trimmed(t)
	pr := &Prompt{Kind: KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = Region{Top: t, Rows: b - t + 1}
	q := Question{Prompt: title}
	switch {
	case strings.HasSuffix(title, c.verifySuffix):
		// Platform user verification needs the person at the terminal
		// (seed 000): blocked, never approvable.
		out.ScreenState = Blocked
		out.Reasons = append(out.Reasons, reason(ReasonUserVerification, ""))
	case !slices.Contains(c.permTitles, title):
		out.Reasons = append(out.Reasons, reason(ReasonUnsupportedShape, "title on row "+itoa(t)))
	}
	y := t + 1
	for y <= b {
		if _, _, ok := c.permMenu.option(g, y); ok {
			break
		}
		y++
	}
	opts, glyphs, end := c.menu(g, c.permMenu, y, b, false)
	for i := range opts {
		opts[i].Label, _ = cutShortcut(opts[i].Label)
	}
	q.Options = opts
	pr.Questions = []Question{q}
	if len(opts) == 0 || y == t+1 {
		out.Reasons = append(out.Reasons, reason(ReasonChangedMenuShape, "no request or no options"))
		return
	}
	f := end + 2
	c.footer(g, end, f, b, c.permFooter, true, out)
	out.Region = Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, checkNumbers(numbersOf(opts), rowsOf(opts))...)
	h, rs := c.highlightProof(g, c.permMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	out.Reasons = append(out.Reasons, c.permShape(g, opts)...)
	if h > 0 {
		out.Reasons = append(out.Reasons, reason(ReasonHighlightMoved, "row "+itoa(opts[h].Row)))
	}
	// Row 3's action is Esc: Codex cancels the request and interrupts
	// the turn ("You canceled the request", turn_aborted) exactly as Esc
	// does anywhere. That is cancel, not a semantic reject (DESIGN.md
	// invariant 9), so reject is not offered.
	pr.Decisions = []string{ApproveOnce}
	out.specs = []choiceSpec{{decision: ApproveOnce, option: 0,
		steps: []PlanStep{{Keys: []byte(c.approveKey), Expect: expect(-1, Working, Idle, Blocked, AwaitingApproval, Questionnaire)}}}}
}

// permShape proves the recorded three-row menu and gives rows their roles.
func (c *codex0x) permShape(g *grid, opts []Option) []Reason {
	roles := []Role{RoleApprove, RolePersistent, RoleReject}
	keys := []string{c.approveKey, "", "esc"}
	exact := len(opts) == len(roles)
	approve, persistent := false, false
	for i := range opts {
		o := &opts[i]
		switch {
		case o.Label == c.approveLabel:
			o.Role, approve = RoleApprove, true
		case strings.HasPrefix(o.Label, c.persistent):
			o.Role, persistent = RolePersistent, true
		case o.Label == c.rejectLabel:
			o.Role = RoleReject
		}
		_, key := cutShortcut(strings.TrimSpace(g.trimmed(o.Row)))
		if i >= len(roles) || o.Role != roles[i] || keys[i] != "" && key != keys[i] {
			exact = false
		}
	}
	switch {
	case exact:
		return nil
	case persistent && !approve:
		return []Reason{reason(ReasonPersistentOnly, "")}
	}
	return []Reason{reason(ReasonChangedMenuShape, itoa(len(opts))+" rows")}
}

// footer proves the overlay's footer on row f after a blank row: its
// exact text at column 2 and, when padded, its dim style reaching the
// pane's last column (a narrower one was drawn for another width).
func (c *codex0x) footer(g *grid, end, f, b int, text string, padded bool, out *Recognition) {
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
