package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Plan mode's dialogs (Claude Code 2.1.267 and 2.1.332, recordings
// plan-approve and plan-exit-empty) are framed apart from the permission
// dialogs: a full-width "▔" rule in the dialog colour, an inner "─" rule
// indented two columns on each side, the bold title at column 3, the
// body, the question, and a menu indented two columns more.
//
// "Ready to code?" highlights "Yes, and use auto mode": Enter would switch
// the session to auto mode. akk approves a plan only with the digit of its
// one-time "Yes, manually approve edits" row, never Enter. "Exit plan
// mode?" without a plan offers only a session-wide mode switch, so it
// stays manual (persistent_permission_only).

// claudePlanMode is plan mode's footer, under the idle composer.
var claudePlanMode = footerMode{mode: "⏸ plan mode on (shift+tab to cycle)", lit: "⏸ plan mode on", accent: recognizers.Fg256(73).Style()}

// planFrame is the frame of plan mode's dialogs.
type planFrame struct {
	rule    vt.Style // the inner rules
	footer  string   // the prefix of "ctrl+g to edit in Vim · <plan file>"
	dialogs []planDialog
}

// planDialog is a plan-mode dialog: a permission dialog's question and
// menu, and where its question is.
type planDialog struct {
	permDialog
	// ruled: the question sits right under a second inner rule (the plan
	// above it); otherwise it is the body's first row.
	ruled bool
	asked vt.Style               // the question's style
	x     int                    // the question's column
	menu  recognizers.MenuLayout // glyph at x, number x+2, label x+5
}

func planMenu(x int) recognizers.MenuLayout {
	return recognizers.MenuLayout{Glyph: '❯', GlyphX: x, NumX: x + 2, LabelX: x + 5}
}

// claudePlanFrame is the frame of 2.1.267 and 2.1.332; exitX is the
// column of "Exit plan mode?"'s question and menu (4 on 2.1.267, 3 on
// 2.1.332).
func claudePlanFrame(exitX int) *planFrame {
	return &planFrame{
		rule:   recognizers.Fg256(73).Style(),
		footer: "ctrl+g to edit in Vim · ",
		dialogs: []planDialog{
			{permDialog: permDialog{header: "Ready to code?", tool: contract.ToolPlan, prefix: "Claude has written up a plan and is ready to execute. Would you like to proceed?", footer: true,
				rows: []dialogRow{{role: recognizers.RoleAutoMode, labels: []string{"Yes, and use auto mode"}},
					{role: recognizers.RoleApprove, labels: []string{"Yes, manually approve edits"}},
					{role: recognizers.RoleChat, labels: []string{"Tell Claude what to change"}}}},
				ruled: true, asked: recognizers.Fg256(246).Style(), x: 3, menu: planMenu(3)},
			{permDialog: permDialog{header: "Exit plan mode?", tool: contract.ToolExitPlan, prefix: "Claude wants to exit plan mode",
				rows: []dialogRow{{role: recognizers.RolePersistent, labels: []string{"Yes, and switch to default (ask each time) for this session"}}, rowNo}},
				asked: recognizers.Plain().Style(), x: exitX, menu: planMenu(exitX)},
		},
	}
}

// phrase reports whether row y shows, from column x, a plan dialog's
// question or footer, whatever its style.
func (f *planFrame) phrase(g *recognizers.Grid, y, x int) bool {
	defer g.Enter("planFrame.phrase")()
	for i := range f.dialogs {
		if g.HasAt(y, x, f.dialogs[i].prefix) {
			return true
		}
	}
	return g.HasAt(y, x, f.footer)
}

// footerRow reports whether row y is the footer: its fixed start, then
// the plan file's path (where the user's settings keep plans), a ".md".
func (f *planFrame) footerRow(g *recognizers.Grid, y int) bool {
	defer g.Enter("planFrame.footerRow")()
	text := g.Trimmed(y)
	return g.First(y) == 3 && g.HasAt(y, 3, f.footer) && strings.HasSuffix(text, ".md") &&
		len(text) > len(f.footer)+len(".md") && !strings.Contains(text[len(f.footer):], " ")
}

// planTop reports whether row y is a plan dialog's top: the full-width
// "▔" rule in the dialog colour.
func (c *claude21) planTop(g *recognizers.Grid, y int) bool {
	defer g.Enter("claude21.planTop")()
	full, _ := g.Rule(y, '▔', c.permRule)
	return full
}

// innerRule reports whether row y is the frame's inner rule: "─" from
// column 2 to two columns before the pane's edge.
func (f *planFrame) innerRule(g *recognizers.Grid, y int) bool {
	defer g.Enter("planFrame.innerRule")()
	if y < 0 || y >= g.Height() || g.First(y) != 2 || g.Last(y) != g.Width()-3 {
		return false
	}
	m := g.Match(f.rule)
	for x := 2; x < g.Width()-2; x++ {
		if c := g.Cell(x, y); c.Rune() != '─' || !g.Matches(&m, c) {
			return false
		}
	}
	return true
}

// planDialog recognizes a plan-mode dialog ending on row b.
func (c *claude21) planDialog(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.planDialog")()
	f := c.plan
	if f == nil {
		return false
	}
	t := -1
	for y := b; y >= 0 && t < 0; y-- {
		if c.planTop(g, y) {
			t = y
		}
	}
	hdr := t + 3
	if t < 0 || !f.innerRule(g, t+2) || g.First(hdr) != 3 || !g.Styled(hdr, 0, g.Width(), c.permHeader) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	q := recognizers.Question{Header: g.Trimmed(hdr)}
	pr.Questions = []recognizers.Question{q}
	var d *planDialog
	for i := range f.dialogs {
		if f.dialogs[i].header == q.Header {
			d = &f.dialogs[i]
		}
	}
	if d == nil {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "title on row "+strconv.Itoa(hdr)))
		return true
	}
	pr.Tool = d.tool
	p := f.questionRow(g, d, hdr, b)
	if p < 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no question below the plan"))
		return true
	}
	q.Prompt = d.prefix
	opts, glyphs, end, wrapped := c.menu(g, d.menu, p+2, b, true)
	out.Reasons = append(out.Reasons, wrapped...)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	switch {
	case len(opts) == 0 || !g.Blank(p+1):
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no menu under the question"))
		return true
	case d.footer && (!g.Blank(end+1) || !f.footerRow(g, end+2) || !g.Styled(end+2, 0, g.Width(), c.hint)):
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(end+2)))
	case d.footer && end+2 < b || !d.footer && end < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(b)))
	}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	h, rs := c.highlightProof(g, d.menu, d.menu.LabelX, opts, glyphs, -1)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	out.Reasons = append(out.Reasons, c.permShape(&d.permDialog, opts)...)
	if h > 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[h].Row)))
	}
	if r, stale := c.staleAbove(g, t); stale {
		out.Reasons = append(out.Reasons, r)
	}
	c.permChoices(pr, opts, out)
	return true
}

// questionRow finds d's question under the title on row hdr: the
// bottom-most exact row right under an inner rule for a ruled dialog (a
// plan may hold any text above it), else two rows under the title.
func (f *planFrame) questionRow(g *recognizers.Grid, d *planDialog, hdr, b int) int {
	defer g.Enter("planFrame.questionRow")()
	is := func(y int) bool {
		return g.RowIs(y, d.x, d.prefix) && g.Styled(y, 0, g.Width(), d.asked)
	}
	if !d.ruled {
		if g.Blank(hdr+1) && is(hdr+2) {
			return hdr + 2
		}
		return -1
	}
	for y := b; y > hdr+1; y-- {
		if f.innerRule(g, y-1) && is(y) {
			return y
		}
	}
	return -1
}
