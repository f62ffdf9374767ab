package screen

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// OpenCode's dialogs take the composer's place: a panel from column 2 to
// the pane's third-last column with a left edge "┃" (the warning colour
// for a permission, the accent for a question), down to the screen's
// second-last row.
//
// A permission (recordings permission-*, edit-*): a pad row, "△
// Permission required", the tool's icon and title ("# Shell command",
// "→ Edit notes.txt"), what the tool would do, then its buttons on the
// element colour: " Allow once ", " Allow always ", " Reject " from
// column 5, one gap apart, the selected one painted in the warning
// colour (the first when the dialog opens), the key hints right-aligned
// on the same row (under 80 columns a blank row under the buttons, then
// the hints from column 5: permission-approve-w60). ←/→ move the
// selection cyclically and Enter takes it. Allow once runs the tool once
// (permission-approve, edit-approve); Reject fails the tool and ends the
// turn with no further request (permission-reject, edit-reject: "The
// user rejected permission to use this specific tool call."), a semantic
// no. Esc is bound to the same Reject, but akk never sends Esc for a
// decision (DESIGN.md invariant 9): reject is ← (from Allow once it
// wraps to Reject), a recapture proving Reject selected, then Enter.
// "Allow always" is a persistent grant: its second stage ("△ Always
// allow", Confirm and Cancel, permission-always) is never answered.
//
// A question (question-*): a pad row, the question, a blank row, the
// numbered answers ("N. label" from column 5, a muted description under
// each), the current one on the element colour (its number in the
// secondary colour, its label in the agent's), then "Type your own
// answer" (a text editor: not offered), a blank row and the hints "↑↓
// select  enter submit  esc dismiss". A digit picks its answer and
// submits it at once (question-digit); Esc dismisses the question.

// openCodeTool is a permission title the profile knows.
type openCodeTool struct {
	icon, title string // the title row's icon and the title's start
	kind        contract.Tool
}

var openCodeTools = []openCodeTool{
	{icon: "#", title: "Shell command", kind: contract.ToolShell},
	{icon: "→", title: "Edit ", kind: contract.ToolEdit},
}

// openCodeButtons are the permission's buttons, in screen order.
var openCodeButtons = []struct {
	role  recognizers.Role
	label string
}{
	{role: recognizers.RoleApprove, label: "Allow once"},
	{role: recognizers.RolePersistent, label: "Allow always"},
	{role: recognizers.RoleReject, label: "Reject"},
}

const (
	openCodePermHints   = "ctrl+f fullscreen  ⇆ select  enter confirm"
	openCodeAlwaysHints = "⇆ select  enter confirm"
	openCodeQHints      = "↑↓ select  enter submit  esc dismiss"
	openCodeFreeText    = "Type your own answer"
)

var keyLeft = []byte("\x1b[D")

// openCodePanel is a dialog's panel as read.
type openCodePanel struct {
	top, bottom int
	edge        tcell.Color
}

// panel finds the panel whose edge is in colour e, ending on the
// screen's second-last row with nothing under it.
func (c *openCode1x) panel(g *recognizers.Grid, p *openCodePalette, e tcell.Color) (openCodePanel, bool) {
	b := g.Height() - 2
	if b < 1 || !p.empty(g, g.Height()-1, 0, p.w, p.bg) || !c.panelRow(g, b, p, e) {
		return openCodePanel{}, false
	}
	t := b
	for t-1 >= 0 && c.panelRow(g, t-1, p, e) {
		t--
	}
	return openCodePanel{top: t, bottom: b, edge: e}, true
}

// panelRow reports row y a row of a panel: its edge at column 2 in e on
// the panel colour, the screen's background left of it (the right margin
// is each row's own: the permission's hints overflow it at 80 columns).
func (c *openCode1x) panelRow(g *recognizers.Grid, y int, p *openCodePalette, e tcell.Color) bool {
	return edge(g, 2, y, '┃', e, p.panel) && p.empty(g, y, 0, 2, p.bg)
}

// margins reports the right margin empty on every row of the panel but
// skip.
func (c *openCode1x) margins(g *recognizers.Grid, p *openCodePalette, d openCodePanel, skip int) bool {
	for y := d.top; y <= d.bottom; y++ {
		if y != skip && !p.empty(g, y, p.w-2, p.w, p.bg) {
			return false
		}
	}
	return true
}

// dialog reads a permission or a question panel, or explains one that is
// not whole; it names another dialog's text above the live one.
func (c *openCode1x) dialog(g *recognizers.Grid, p *openCodePalette, out *recognizers.Recognition) bool {
	defer g.Enter("openCode1x.dialog")()
	d, ok := c.panel(g, p, p.warning)
	switch {
	case ok:
		c.permission(g, p, d, out)
	case c.brokenPanel(g, p, p.warning, out):
		return true
	default:
		if d, ok = c.panel(g, p, p.accent); !ok {
			return c.brokenPanel(g, p, p.accent, out)
		}
		c.question(g, p, d, out)
	}
	for y := 0; y < d.top; y++ {
		if c.dialogPhrase(g, y) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonStalePrompt, "row "+strconv.Itoa(y)))
			break
		}
	}
	return true
}

// openCodePhrases are texts only a dialog shows.
var openCodePhrases = []string{"Permission required", "Always allow", openCodeQHints, "⇆ select  enter confirm"}

// dialogPhrase reports a dialog's text on row y, whatever its style.
func (c *openCode1x) dialogPhrase(g *recognizers.Grid, y int) bool {
	t := g.Trimmed(y)
	for _, s := range openCodePhrases {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// brokenPanel explains panel rows in edge colour e that are not a whole
// dialog at the screen's bottom: the dialog's kind, manual_required.
func (c *openCode1x) brokenPanel(g *recognizers.Grid, p *openCodePalette, e tcell.Color, out *recognizers.Recognition) bool {
	b := g.Height() - 1
	for b >= 0 && !c.panelRow(g, b, p, e) {
		b--
	}
	if b < 0 {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	out.Prompt = &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	if e == p.accent {
		out.ScreenState, out.Prompt.Kind = contract.ScreenQuestionnaire, contract.KindQuestionnaire
	}
	out.Region = recognizers.Region{Top: b, Rows: 1}
	out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "the panel ends on row "+strconv.Itoa(b)+", not the second-last"))
	return true
}

// header reports the panel's pad row and its "△ <title>" row.
func (c *openCode1x) header(g *recognizers.Grid, p *openCodePalette, d openCodePanel, title string) bool {
	y := d.top + 1
	end := 7 + recognizers.DisplayWidth(title)
	return p.empty(g, d.top, 3, p.w-2, p.panel) && p.empty(g, y, 3, 5, p.panel) && p.word(g, y, 5, "△", p.warning, p.panel) &&
		p.empty(g, y, 6, 7, p.panel) && p.word(g, y, 7, title, p.text, p.panel) && p.empty(g, y, end, p.w-2, p.panel)
}

// permission proves a permission's panel and plans it.
func (c *openCode1x) permission(g *recognizers.Grid, p *openCodePalette, d openCodePanel, out *recognizers.Recognition) {
	defer g.Enter("openCode1x.permission")()
	out.ScreenState, out.Composer = contract.ScreenAwaitingApproval, contract.ComposerAbsent
	out.Region = recognizers.Region{Top: d.top, Rows: d.bottom - d.top + 1}
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	if c.header(g, p, d, "Always allow") {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonPersistentOnly, "the Always allow stage"))
		return
	}
	if !c.header(g, p, d, "Permission required") {
		why := recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no permission header on row "+strconv.Itoa(d.top+1))
		if d.top == 0 {
			why = recognizers.NewReason(recognizers.ReasonClippedFrame, "the panel runs off the top")
		}
		out.Reasons = append(out.Reasons, why)
		return
	}
	tool, title := c.toolTitle(g, p, d.top+2)
	if tool == nil {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "a tool title of no recording on row "+strconv.Itoa(d.top+2)))
		return
	}
	q := recognizers.Question{Header: title, Prompt: "Permission required"}
	row, lit, ok := c.buttons(g, p, d, q, out)
	pr.Questions = []recognizers.Question{q}
	if !ok {
		return
	}
	opts := make([]recognizers.Option, len(openCodeButtons))
	for i, b := range openCodeButtons {
		opts[i] = recognizers.Option{Label: b.label, Role: b.role, Row: row}
	}
	q.Options = opts
	pr.Questions, pr.Highlighted, pr.Tool = []recognizers.Question{q}, lit, tool.kind
	if lit != 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "button "+strconv.Itoa(lit)))
		return
	}
	// Enter takes Allow once (permission-approve, edit-approve); ← wraps
	// to Reject, proven selected before Enter (permission-reject,
	// edit-reject).
	after := []contract.ScreenState{contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAwaitingApproval, contract.ScreenQuestionnaire}
	pr.Decisions = []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject}
	out.Specs = []recognizers.ChoiceSpec{
		{Decision: contract.DecisionApproveOnce, Option: 0, Steps: []recognizers.PlanStep{{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, after...)}}},
		{Decision: contract.DecisionReject, Option: 2, Steps: []recognizers.PlanStep{
			{Keys: keyLeft, Expect: recognizers.NewExpect(2, contract.ScreenAwaitingApproval)},
			{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, contract.ScreenIdle, contract.ScreenWorking, contract.ScreenBlocked)}}},
	}
}

// toolTitle reads the title row: the icon muted at column 7, the title
// from column 9, one the profile knows.
func (c *openCode1x) toolTitle(g *recognizers.Grid, p *openCodePalette, y int) (*openCodeTool, string) {
	if !p.empty(g, y, 3, 7, p.panel) || !p.empty(g, y, 8, 9, p.panel) {
		return nil, ""
	}
	title := strings.TrimRight(g.Text(y, 9, p.w-2), " ")
	end := 9 + recognizers.DisplayWidth(title)
	if !p.paintedAs(g, y, 9, end, p.text, p.panel) || !p.empty(g, y, end, p.w-2, p.panel) {
		return nil, ""
	}
	for i := range openCodeTools {
		t := &openCodeTools[i]
		if p.word(g, y, 7, t.icon, p.muted, p.panel) && strings.HasPrefix(title, t.title) {
			return t, title
		}
	}
	return nil, ""
}

// buttons proves the button area, the panel's last rows on the element
// colour: a blank row, the buttons (and the hints on the same row, or
// under 80 columns a blank row and the hints), a blank row. It returns the buttons' row
// and the selected one.
func (c *openCode1x) buttons(g *recognizers.Grid, p *openCodePalette, d openCodePanel, q recognizers.Question, out *recognizers.Recognition) (int, int, bool) {
	defer g.Enter("openCode1x.buttons")()
	narrow := g.Width() < c.narrowBelow
	row, hints := d.bottom-1, d.bottom-1
	if narrow {
		row -= 2
		if !p.empty(g, row+1, 3, p.w-2, p.element) {
			row = -1
		}
	}
	if row < 2 || !p.empty(g, d.bottom, 3, p.w-2, p.element) || !p.empty(g, row-1, 3, p.w-2, p.element) || p.empty(g, row-2, 3, 4, p.element) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no button area"))
		return 0, -1, false
	}
	x, lit := 5, -1
	ok := p.empty(g, row, 3, 5, p.element)
	for i, b := range openCodeButtons {
		end := x + recognizers.DisplayWidth(b.label) + 2
		switch {
		case !ok:
		case p.word(g, row, x+1, b.label, p.bg, p.warning) && p.empty(g, row, x, x+1, p.warning) && p.empty(g, row, end-1, end, p.warning) && lit < 0:
			lit = i
		case p.word(g, row, x+1, b.label, p.muted, p.element) && p.empty(g, row, x, x+1, p.element) && p.empty(g, row, end-1, end, p.element):
		default:
			ok = false
		}
		x = end + 1
		ok = ok && p.empty(g, row, x-1, x, p.element)
	}
	// The hints end five columns before the main area's edge, or, where
	// the row is too narrow for them, follow the buttons and run over
	// the panel's margin, clipped at the pane's edge (permission-approve-w80).
	h := max(p.w-5-recognizers.DisplayWidth(openCodePermHints), x)
	if narrow {
		h = 5
		ok = ok && p.empty(g, row, x-1, p.w-2, p.element) && p.empty(g, hints, 3, 5, p.element)
	}
	if !ok || !narrow && !p.empty(g, hints, x-1, h, p.element) || !c.hintsRow(g, p, hints, h) || !c.margins(g, p, d, hints) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "buttons of no recording on row "+strconv.Itoa(row)))
		return row, -1, false
	}
	if lit < 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "no selected button"))
		return row, -1, false
	}
	return row, lit, true
}

// hintsRow proves the permission's key hints from column h: each key in
// the text colour, its action muted, on the element colour inside the
// panel and on the screen's background over its margin, clipped at the
// main area's edge; after them only the padding.
func (c *openCode1x) hintsRow(g *recognizers.Grid, p *openCodePalette, y, h int) bool {
	x := h
	for _, kv := range [][2]string{{"ctrl+f ", "fullscreen"}, {"⇆ ", "select"}, {"enter ", "confirm"}} {
		for i, part := range kv {
			fg := p.text
			if i == 1 {
				fg = p.muted
			}
			for _, r := range part {
				if x >= p.w {
					return true
				}
				bg := p.element
				if x >= p.w-2 {
					bg = p.bg
				}
				if f, b := colours(g, x, y); g.Rune(x, y) != r || b != bg || r != ' ' && f != fg {
					return false
				}
				x++
			}
		}
		if kv[1] != "confirm" {
			if !p.empty(g, y, x, x+2, p.element) {
				return false
			}
			x += 2
		}
	}
	return p.empty(g, y, x, p.w-2, p.element) && p.empty(g, y, p.w-2, p.w, p.bg)
}

// question proves a question's panel and plans its answers.
func (c *openCode1x) question(g *recognizers.Grid, p *openCodePalette, d openCodePanel, out *recognizers.Recognition) {
	defer g.Enter("openCode1x.question")()
	out.ScreenState, out.Composer = contract.ScreenQuestionnaire, contract.ComposerAbsent
	out.Region = recognizers.Region{Top: d.top, Rows: d.bottom - d.top + 1}
	pr := &recognizers.Prompt{Kind: contract.KindQuestionnaire, Highlighted: -1}
	out.Prompt = pr
	qy := d.top + 1
	text := strings.TrimRight(g.Text(qy, 5, p.w-2), " ")
	end := 5 + recognizers.DisplayWidth(text)
	if !p.empty(g, d.top, 3, p.w-2, p.panel) || text == "" || !p.empty(g, qy, 3, 5, p.panel) ||
		!p.paintedAs(g, qy, 5, end, p.text, p.panel) || !p.empty(g, qy, end, p.w-2, p.panel) || !p.empty(g, qy+1, 3, p.w-2, p.panel) {
		why := recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no question on row "+strconv.Itoa(qy))
		if d.top == 0 {
			why = recognizers.NewReason(recognizers.ReasonClippedFrame, "the panel runs off the top")
		}
		out.Reasons = append(out.Reasons, why)
		return
	}
	q := recognizers.Question{Prompt: text}
	hy := d.bottom - 1
	if !c.margins(g, p, d, -1) {
		pr.Questions = []recognizers.Question{q}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "text over the panel's margin"))
		return
	}
	if !p.empty(g, d.bottom, 3, p.w-2, p.panel) || !c.qHints(g, p, hy) || !p.empty(g, hy-1, 3, p.w-2, p.panel) {
		pr.Questions = []recognizers.Question{q}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no hints under the answers"))
		return
	}
	opts, lit, ok := c.answers(g, p, qy+2, hy-2)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	if !ok || len(opts) < 2 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "answers of no recording"))
		return
	}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	model := opts
	if opts[len(opts)-1].Role == recognizers.RoleFreeText {
		model = opts[:len(opts)-1]
	}
	out.Reasons = append(out.Reasons, recognizers.FreeTextLookalikes(model, []string{openCodeFreeText, "Other"})...)
	if lit < 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightUnproven, "no single current answer"))
		return
	}
	pr.Highlighted = lit
	for i, o := range opts {
		if strings.HasPrefix(o.Label, "[") {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonMultiSelect, "row "+strconv.Itoa(o.Row)))
			return
		}
		if o.Role == recognizers.RoleFreeText {
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, FreeText: true, Unavailable: true})
			continue
		}
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i,
			Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(o.Number), Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}})
	}
}

// qHints proves the question's hints row.
func (c *openCode1x) qHints(g *recognizers.Grid, p *openCodePalette, y int) bool {
	h := 5
	if !g.HasAt(y, h, openCodeQHints) || !p.empty(g, y, 3, 5, p.panel) {
		return false
	}
	end := h + recognizers.DisplayWidth(openCodeQHints)
	for _, kv := range [][2]string{{"↑↓ ", "select"}, {"enter ", "submit"}, {"esc ", "dismiss"}} {
		if !p.word(g, y, h, kv[0], p.text, p.panel) || !p.word(g, y, h+recognizers.DisplayWidth(kv[0]), kv[1], p.muted, p.panel) {
			return false
		}
		h += recognizers.DisplayWidth(kv[0]+kv[1]) + 2
	}
	return p.empty(g, y, end, p.w-2, p.panel)
}

// answers reads the answer rows from y0 to y1: "N. label" at column 5,
// each optionally followed by its muted description at column 8, the
// current one on the element colour. The last is the free-text row when
// its label is "Type your own answer".
func (c *openCode1x) answers(g *recognizers.Grid, p *openCodePalette, y0, y1 int) ([]recognizers.Option, int, bool) {
	defer g.Enter("openCode1x.answers")()
	var opts []recognizers.Option
	lit := -1
	for y := y0; y <= y1; y++ {
		n := recognizers.NumberAt(g, y, 5)
		if n == 0 {
			if len(opts) == 0 || !c.description(g, p, y, &opts[len(opts)-1]) {
				return opts, -1, false
			}
			continue
		}
		nx := 5 + len(strconv.Itoa(n)) + 2
		label := strings.TrimRight(g.Text(y, nx, p.w-2), " ")
		end := nx + recognizers.DisplayWidth(label)
		num := strconv.Itoa(n) + "."
		switch {
		case label == "" || !p.empty(g, y, 3, 5, p.panel) || !p.empty(g, y, end, p.w-2, p.panel):
			return opts, -1, false
		case p.word(g, y, 5, num, p.second, p.element) && p.empty(g, y, nx-1, nx, p.element) && p.word(g, y, nx, label, p.agent, p.element):
			if lit >= 0 {
				return opts, -1, false
			}
			lit = len(opts)
		case p.word(g, y, 5, num, p.muted, p.panel) && p.empty(g, y, nx-1, nx, p.panel) && p.word(g, y, nx, label, p.text, p.panel):
		default:
			return opts, -1, false
		}
		opts = append(opts, recognizers.Option{Number: n, Label: label, Row: y})
	}
	if len(opts) > 0 && opts[len(opts)-1].Label == openCodeFreeText {
		opts[len(opts)-1].Role = recognizers.RoleFreeText
	}
	return opts, lit, true
}

// description reads a muted description row under an answer.
func (c *openCode1x) description(g *recognizers.Grid, p *openCodePalette, y int, o *recognizers.Option) bool {
	text := strings.TrimRight(g.Text(y, 8, p.w-2), " ")
	end := 8 + recognizers.DisplayWidth(text)
	if text == "" || !p.empty(g, y, 3, 8, p.panel) || !p.paintedAs(g, y, 8, end, p.muted, p.panel) || !p.empty(g, y, end, p.w-2, p.panel) {
		return false
	}
	o.Description = strings.TrimSpace(o.Description + " " + text)
	return true
}
