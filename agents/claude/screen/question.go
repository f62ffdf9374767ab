package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// questionnaire parses an AskUserQuestion dialog whose rule is on row
// top: the header (a chip for one question, tabs for several), the
// question, the menu with "Type something." as its editor row, a rule,
// "Chat about this", the footer. The tabs' "✔ Submit" leads to the
// review (a confirmation).
func (c *claude21) questionnaire(g *recognizers.Grid, top, b int, out *recognizers.Recognition) {
	defer g.Enter("claude21.questionnaire")()
	out.ScreenState = contract.ScreenQuestionnaire
	pr := &recognizers.Prompt{Kind: contract.KindQuestionnaire, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: top, Rows: b - top + 1}
	header, step, review, ok := c.tabs(g, top+1)
	if !ok || !g.Blank(top+2) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "header on row "+strconv.Itoa(top+1)))
		return
	}
	if c.qSingleOnly && (review || step.Total > 1) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "several questions (not recorded in this theme)"))
	}
	y := top + 3
	var rows []string
	for ; y <= b && !g.Blank(y) && g.First(y) == 0 && g.Styled(y, 0, g.Width(), c.question); y++ {
		rows = append(rows, g.Trimmed(y))
	}
	text := strings.Join(rows, " ")
	if review {
		c.review(g, top, y, b, text, out)
		return
	}
	pr.Step = step
	q := recognizers.Question{Header: header, Prompt: text}
	if len(rows) == 0 || !g.Blank(y) {
		pr.Questions = []recognizers.Question{q}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "question on row "+strconv.Itoa(top+3)))
		return
	}
	opts, glyphs, end, wrapped := c.menu(g, c.qMenu, y+1, b, true)
	out.Reasons = append(out.Reasons, wrapped...)
	pr.MultiSelect = len(opts) > 0 && checkboxWidth(g, opts[0].Row, c.qMenu.LabelX) > 0
	if c.qSingleOnly && pr.MultiSelect {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "multi-select (not recorded in this theme)"))
	}
	submitRow := false
	if pr.MultiSelect && g.RowIs(end+1, c.qMenu.LabelX, c.multiSubmit) && g.Styled(end+1, 0, g.Width(), c.multiSubmitSty) {
		end++
		submitRow = true
	}
	menu := len(opts)
	chat, f := c.chatAndFooter(g, end+1, b, out)
	if chat != nil {
		opts = append(opts, *chat)
	}
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	out.Region = recognizers.Region{Top: top, Rows: max(f, b) - top + 1}
	ft := c.freeTextRow(opts, chat != nil)
	if ft < 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no \"Type something\" row"))
		return
	}
	out.Reasons = append(out.Reasons, recognizers.FreeTextLookalikes(opts[:ft], c.freeTextLabels)...)
	labelX := c.qMenu.LabelX
	if pr.MultiSelect {
		labelX += 4
	}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	// "Chat about this" sits below the rule in the default style: the
	// proof covers the menu above it (chatAndFooter refused a glyph on it).
	h, rs := c.highlightProof(g, c.qMenu, labelX, opts[:menu], glyphs, ft)
	out.Reasons = append(out.Reasons, rs...)
	pr.Highlighted = h
	if c.qSingleOnly && h == ft {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "the editor row (not recorded in this theme)"))
	}
	editor, draft := c.editorRow(g, opts[ft], h == ft, labelX, pr.MultiSelect)
	if !editor {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "\"Type something\" row "+strconv.Itoa(opts[ft].Row)))
	}
	c.checkFooter(g, f, h == ft, step.Total > 1, out)
	if pr.MultiSelect {
		c.multiSelect(g, pr, opts[:menu], h, ft, submitRow, out)
		return
	}
	if h == ft && draft != "" {
		c.freeTextStep(q, draft, out)
		return
	}
	c.questionChoices(opts, h, ft, out)
}

// tabs reads the header row: one question's chip (" ☐ Color ") or the
// tabs of several ("←  ☐ Language  ☐ Database  ✔ Submit  →") with the
// current one in the chip style. review: the current tab is Submit.
func (c *claude21) tabs(g *recognizers.Grid, y int) (header string, step contract.Step, review, ok bool) {
	defer g.Enter("claude21.tabs")()
	s, e := -1, -1
	for x := 0; x < g.Width(); x++ {
		if g.StyleAt(x, y) == c.chip {
			if s < 0 {
				s = x
			}
			e = x + 1
		} else if s >= 0 {
			break
		}
	}
	if s < 0 {
		return "", step, false, false
	}
	cur := strings.TrimSpace(g.Text(y, s, e))
	if s == 0 {
		return boxName(cur), contract.Step{Index: 1, Total: 1}, false, e > g.Last(y)
	}
	if g.Rune(0, y) != '←' || g.Rune(g.Last(y), y) != '→' || !c.arrow(g.StyleAt(0, y)) || !c.arrow(g.StyleAt(g.Last(y), y)) {
		return "", step, false, false
	}
	before := tabNames(g.Text(y, 1, s))
	after := tabNames(g.Text(y, e, g.Last(y)))
	all := append(append(before, cur), after...)
	if len(all) < 2 || all[len(all)-1] != "✔ Submit" {
		return "", step, false, false
	}
	if cur == "✔ Submit" {
		return "", contract.Step{}, true, true
	}
	return boxName(cur), contract.Step{Index: len(before) + 1, Total: len(all) - 1}, false, true
}

// arrow: the tabs' arrows are grey when there is no tab that way, plain
// when there is.
func (c *claude21) arrow(s vt.Style) bool { return s == c.hint || s == recognizers.Plain().Style() }

func tabNames(s string) []string {
	var out []string
	for _, t := range strings.Split(s, "  ") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// boxName drops a tab's check box ("☐ Color" -> "Color").
func boxName(s string) string {
	for _, box := range []string{"☐ ", "☒ ", "✔ "} {
		if n, ok := strings.CutPrefix(s, box); ok {
			return n
		}
	}
	return s
}

// chatAndFooter reads what follows the menu: a full-width rule, "N. Chat
// about this", a blank row and the footer. It returns the chat row and
// the footer's row.
func (c *claude21) chatAndFooter(g *recognizers.Grid, r, b int, out *recognizers.Recognition) (*recognizers.Option, int) {
	defer g.Enter("claude21.chatAndFooter")()
	full, n := g.Rule(r, '─', c.qRule)
	if !full {
		code := recognizers.ReasonFrameMissing
		if n >= 8 {
			code = recognizers.ReasonResizedFrame
		}
		out.Reasons = append(out.Reasons, recognizers.NewReason(code, "rule on row "+strconv.Itoa(r)))
		return nil, r
	}
	var chat *recognizers.Option
	if num, glyph, ok := c.qMenu.OptionAt(g, r+1); ok && !glyph {
		label, _ := c.splitLabel(g, r+1, c.qMenu.LabelX)
		if label == c.chatLabel {
			chat = &recognizers.Option{Number: num, Label: label, Role: recognizers.RoleChat, Row: r + 1}
		}
	}
	if chat == nil {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "row "+strconv.Itoa(r+1)))
		return nil, r + 1
	}
	f := r + 3
	if !g.Blank(r+2) || f > b {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
		return chat, min(f, b)
	}
	if f < b {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
	return chat, f
}

// checkFooter proves the select footer: the editor's variant when the
// editor row is current, the tabs' navigation when there are several
// questions.
func (c *claude21) checkFooter(g *recognizers.Grid, f int, editor, several bool, out *recognizers.Recognition) {
	defer g.Enter("claude21.checkFooter")()
	want := c.qFooters
	if editor {
		want = c.editorFooters
	}
	i := 0
	if several {
		i = 1
	}
	if g.First(f) != 0 || !g.Styled(f, 0, g.Width(), c.hint) || g.Trimmed(f) != want[i] {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	}
}

// freeTextRow is the index of "Type something": the last row before
// "Chat about this".
func (c *claude21) freeTextRow(opts []recognizers.Option, chat bool) int {
	n := len(opts) - 1
	if chat {
		n--
	}
	if n < 1 {
		return -1
	}
	opts[n].Role = recognizers.RoleFreeText
	return n
}

// editorRow proves the "Type something" row: grey with its label when not
// current; when current, the editor: the placeholder dim behind a drawn
// cursor (empty), or text followed by the drawn cursor (a draft).
func (c *claude21) editorRow(g *recognizers.Grid, o recognizers.Option, current bool, labelX int, multi bool) (ok bool, draft string) {
	defer g.Enter("claude21.editorRow")()
	want := c.freeTextLabel
	if multi {
		want = c.multiFreeText
	}
	y, last := o.Row, g.Last(o.Row)
	if !current {
		return o.Label == want && g.Styled(y, labelX, g.Width(), c.hint), ""
	}
	if g.StyleAt(labelX, y) == c.editorCursor && g.Styled(y, labelX+1, g.Width(), c.editorHint) && o.Label == want {
		return true, ""
	}
	if last > labelX && g.StyleAt(last, y) == c.editorCursor && g.SpaceAt(last, y) &&
		g.Styled(y, labelX, last, recognizers.Plain().Style()) {
		return true, strings.TrimRight(g.Text(y, labelX, last), " ")
	}
	return false, ""
}

// questionChoices plans a single-select question: a digit for each
// answer row (seed 000: digit selects and submits), and for "Type
// something" the moves onto it, a recapture of the empty editor, then the
// text and Enter. While the editor row is current, digits would be typed
// into it: only the text is offered then. Where the editor is not
// recorded (qSingleOnly), "Type something" is not offered.
func (c *claude21) questionChoices(opts []recognizers.Option, h, ft int, out *recognizers.Recognition) {
	for i, o := range opts {
		switch {
		case o.Role == recognizers.RoleChat:
			continue
		case i == ft && h == ft:
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, FreeText: true, MaxText: c.maxFreeText,
				Steps: []recognizers.PlanStep{{Text: true, Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}})
		case i == ft && h >= 0 && h < ft && !c.qSingleOnly:
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, FreeText: true, MaxText: c.maxFreeText,
				Steps: []recognizers.PlanStep{
					{Keys: recognizers.RepeatKey(recognizers.KeyDown, ft-h), Expect: recognizers.NewExpect(ft, contract.ScreenQuestionnaire)},
					{Text: true, Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)},
				}})
		case i == ft:
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, FreeText: true, Unavailable: true})
		default:
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, Unavailable: h == ft,
				Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(o.Number), Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}})
		}
	}
}

// freeTextStep is the editor holding a draft: the step is free text, and
// the only proven action submits the draft as shown.
func (c *claude21) freeTextStep(q recognizers.Question, draft string, out *recognizers.Recognition) {
	out.ScreenState, out.Composer = contract.ScreenFreeText, contract.ComposerDraft
	out.Draft, out.DraftLen = draft, len([]rune(draft))
	pr := out.Prompt
	pr.Kind, pr.Highlighted = contract.KindFreeText, -1
	pr.Questions = []recognizers.Question{{Header: q.Header, Prompt: q.Prompt}}
	out.Specs = []recognizers.ChoiceSpec{{Option: -1, FreeText: true, MaxText: c.maxFreeText, Require: draft,
		Steps: []recognizers.PlanStep{{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}}}
}

// multiSelect plans a multi-select question (opts: its menu rows, the
// "Type something" row ft last): each answer row's digit flips its box
// and leaves the highlight (multi-select recordings of 2.1.263 to
// 2.1.332), and Tab moves on to the review, which the controller answers
// as the next interaction. Not answered, and the reason says why: among
// several questions (no recording shows where Tab goes there), with the
// cursor on "Type something" (digits would be typed into its editor),
// with that row ticked (a person's own text is part of the answer), or
// without the Submit row.
func (c *claude21) multiSelect(g *recognizers.Grid, pr *recognizers.Prompt, opts []recognizers.Option, h, ft int, submitRow bool, out *recognizers.Recognition) {
	defer g.Enter("claude21.multiSelect")()
	for i := range opts {
		o := &opts[i]
		tick, ok := c.checkbox(g, o.Row)
		if !ok {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "checkbox on row "+strconv.Itoa(o.Row)))
		}
		o.Checked = tick
	}
	checked := pr.Boxes()
	var why string
	switch {
	case pr.Step.Total != 1:
		why = "among several questions"
	case !submitRow:
		why = "no Submit row"
	case h == ft:
		why = "the cursor is on the free-text row"
	case checked[ft]:
		why = "the free-text row is ticked"
	}
	if why != "" {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonMultiSelect, why))
	}
	for i, o := range opts {
		if i == ft || o.Role != recognizers.RoleChoice {
			continue
		}
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, Toggle: recognizers.DigitKey(o.Number), Unavailable: why != ""})
	}
	out.Multi = &recognizers.MultiSpec{Checked: checked, Highlighted: h,
		Submit: []recognizers.PlanStep{{Keys: recognizers.KeyTab, Expect: recognizers.NewExpect(-1, contract.ScreenConfirmation)}}}
}

// checkbox reads a multi-select row's box: "[ ]" in the default style or
// "[✔]" in the tick colour.
func (c *claude21) checkbox(g *recognizers.Grid, y int) (checked, ok bool) {
	defer g.Enter("claude21.checkbox")()
	x := c.qMenu.LabelX
	switch {
	case g.Rune(x+1, y) == ' ' && g.Styled(y, x, x+3, recognizers.Plain().Style()):
		return false, g.Rune(x, y) == '[' && g.Rune(x+2, y) == ']'
	case g.Rune(x+1, y) == '✔' && g.Styled(y, x, x+3, c.tick):
		return true, g.Rune(x, y) == '[' && g.Rune(x+2, y) == ']'
	}
	return false, false
}

// review parses the final review: "Review your answers", the answers,
// "Ready to submit your answers?", "1. Submit answers", "2. Cancel".
func (c *claude21) review(g *recognizers.Grid, top, y, b int, title string, out *recognizers.Recognition) {
	defer g.Enter("claude21.review")()
	out.ScreenState = contract.ScreenConfirmation
	pr := out.Prompt
	pr.Kind = contract.KindConfirmation
	q := recognizers.Question{Header: title}
	pr.Questions = []recognizers.Question{q}
	if title != c.reviewTitle {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "review title"))
		return
	}
	p := y
	for ; p <= b; p++ {
		if c.reviewPrompt != "" && g.RowIs(p, 0, c.reviewPrompt) && g.Styled(p, 0, g.Width(), c.hint) {
			break
		}
		if _, _, ok := c.qMenu.OptionAt(g, p); ok {
			break
		}
	}
	if c.reviewPrompt != "" {
		if p > b || !g.RowIs(p, 0, c.reviewPrompt) || !g.Blank(p+1) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no \""+c.reviewPrompt+"\""))
			return
		}
		q.Prompt = c.reviewPrompt
		p += 2
	}
	opts, glyphs, end, wrapped := c.menu(g, c.qMenu, p, b, false)
	out.Reasons = append(out.Reasons, wrapped...)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	if end < b {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(end+1)))
	}
	if len(opts) != 2 || opts[0].Label != c.reviewSubmit || opts[1].Label != c.reviewCancel {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, strconv.Itoa(len(opts))+" rows"))
		return
	}
	opts[0].Role, opts[1].Role = recognizers.RoleSubmit, recognizers.RoleCancel
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	h, rs := c.highlightProof(g, c.qMenu, c.qMenu.LabelX, opts, glyphs, -1)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	if h > 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[h].Row)))
	}
	// Enter on the current Submit is what the recordings prove; Cancel is
	// its digit, as every row of Claude's select.
	out.Specs = []recognizers.ChoiceSpec{
		{Option: 0, Steps: []recognizers.PlanStep{{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAwaitingApproval)}}},
		{Option: 1, Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(2), Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}},
	}
}
