package screen

import (
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// claudeModel is Claude Code's model picker, which /model opens in the
// composer's place (recordings model-menu, model-abandon, model-catalog,
// model-session; recordings/rig/inspect_claude.go), drawn under the
// history to the screen's last non-blank row:
//
//	▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔  a full-width rule in the highlight colour
//	   Select model                  the dialog header's style
//	   Switch between Claude …       the intro, grey (one or two rows)
//
//	   ❯ 1. Default (recommended) ✔  Use the default model …
//	     2. Opus (1M context)        Opus 5 with 1M context · …
//	                                 a description's wrapped rest
//
//	   ● High effort (default) ←/→ to adjust
//
//	   Enter to set as default · s to use this session only · Esc to cancel
//
// The glyph "❯" at column x in the highlight colour on exactly one row,
// "N. " grey at x+2, the label at x+5 (the highlighted one in the
// highlight colour, the current one's with " ✔" in green, others plain),
// the description from column descX. In a conversation that has turns,
// Enter asks first (SwitchConfirm):
//
//	▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔
//	   Switch model?                 yellow, bold
//	   Your next response will …     grey
//
//	   This conversation is cached … (plain, the model's name bold)
//
//	   ❯ 1. Yes, switch to Sonnet 5
//	     2. No, go back
//
//	   Enter to confirm · Esc to cancel   (2.1.332 only)
//
// Its styles are the dark theme's (the only one recorded).
type claudeModel struct {
	x, descX    int
	hints       string // the picker's key hints
	hintStyle   vt.Style
	confirmHint string // the confirmation's hint row, "" when it has none
	// efforts are the effort levels as the effort row names them ("Low",
	// "Medium", …), Left to Right; effortRing: Right on the last is the
	// first (2.1.267), else the row stops at both ends (2.1.332).
	efforts    []string
	effortRing bool
	// note is the style of Max's warning under the effort row (and of
	// 2.1.267's "Effort not supported for <model>" row).
	note vt.Style
}

const (
	claudeModelTitle   = "Select model"
	claudeConfirmTitle = "Switch model?"
	claudeConfirmYes   = "Yes, switch to "
	claudeConfirmNo    = "No, go back"
	claudeEffortAdjust = " ←/→ to adjust"
	claudeCurrentMark  = " ✔"
	claudeNoEffort     = "Effort not supported for "
)

var (
	claudeModelGreen   = recognizers.Fg256(114).Style()
	claudeConfirmStyle = recognizers.Fg256(220).Bold().Style()
	claudeEffortGlyph  = recognizers.Fg256(174).Style()
)

// modelMenu proves the picker or its confirmation ending on row b, the
// screen's last non-blank row.
func (c *claude21) modelMenu(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.modelMenu")()
	m := c.model
	if m == nil || g.First(b) != m.x && g.First(b) != m.x+2 {
		return false // untraced: neither hints nor a confirmation's last row
	}
	if g.RowIs(b, m.x, m.hints) && g.Styled(b, m.x, g.Width(), m.hintStyle) {
		return m.picker(g, b, out)
	}
	return m.confirm(g, b, out)
}

// picker proves the picker whose hint row is b.
func (m *claudeModel) picker(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claudeModel.picker")()
	menu := &recognizers.ModelMenu{Kind: recognizers.ModelList, Session: true}
	// The effort row, over the blank row above the hints; Max draws a
	// grey warning under it, Ultracode a blank row (model-catalog).
	e := b - 2
	if !g.Blank(b - 1) {
		return false
	}
	if !m.effortRow(g, e, menu) {
		e = b - 3
		if !g.Blank(b-2) && (g.First(b-2) != m.x || !g.Styled(b-2, m.x, g.Width(), m.note)) || !m.effortRow(g, e, menu) {
			return false
		}
	}
	if !g.Blank(e - 1) {
		return false
	}
	top := m.head(g, e-2, claudeModelTitle, claudePickerTitleStyle)
	if top < 0 {
		return false
	}
	y := top + 1
	for ; y < e-1 && !g.Blank(y); y++ {
		if g.First(y) != m.x || !g.Styled(y, m.x, g.Width(), claudePickerGrey) {
			return false
		}
	}
	if y == top+1 || y > top+3 || !g.Blank(y) || !m.rows(g, y+1, e-1, menu) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	out.ModelMenu = menu
	return true
}

// head finds, at most maxModelRows above row from, the title at column x
// in style st under the full-width rule, and returns its row (-1: none).
func (m *claudeModel) head(g *recognizers.Grid, from int, title string, st vt.Style) int {
	for y := from; y >= 1 && y >= from-recognizers.MaxModelRows; y-- {
		if g.Blank(y) || g.First(y) >= m.x {
			if g.RowIs(y, m.x, title) {
				if full, _ := g.Rule(y-1, '▔', claudeStatusRule); !full || !g.Styled(y, m.x, g.Width(), st) {
					return -1
				}
				return y
			}
			continue
		}
		return -1
	}
	return -1
}

// effortRow reads the effort row on row y: its glyph, then "<Level>
// effort[ (default)] ←/→ to adjust", or the row of a model without one.
func (m *claudeModel) effortRow(g *recognizers.Grid, y int, menu *recognizers.ModelMenu) bool {
	defer g.Enter("claudeModel.effortRow")()
	if g.First(y) != m.x {
		return false
	}
	if strings.HasPrefix(g.TextFrom(y, m.x+2), claudeNoEffort) && g.SpaceAt(m.x+1, y) {
		return g.Styled(y, m.x, g.Width(), m.note) // Effort "": the highlighted model has none
	}
	if g.StyleAt(m.x, y) != claudeEffortGlyph || !g.SpaceAt(m.x+1, y) {
		return false
	}
	t, ok := strings.CutSuffix(g.TextFrom(y, m.x+2), claudeEffortAdjust)
	if !ok {
		return false
	}
	t, menu.EffortDefault = recognizers.CutMark(t, " (default)")
	level, ok := strings.CutSuffix(t, " effort")
	if !ok || !slices.Contains(m.efforts, level) {
		return false
	}
	menu.Effort = level
	return true
}

// rows reads the model rows from row top to the blank row end.
func (m *claudeModel) rows(g *recognizers.Grid, top, end int, menu *recognizers.ModelMenu) bool {
	defer g.Enter("claudeModel.rows")()
	menu.Highlight = -1
	for y := top; y < end; y++ {
		if g.First(y) == m.descX && len(menu.Rows) > 0 {
			r := &menu.Rows[len(menu.Rows)-1]
			r.Desc += " " + g.TextFrom(y, m.descX)
			continue
		}
		row, hl, ok := m.row(g, y)
		if !ok || hl && menu.Highlight >= 0 || row.Number != len(menu.Rows)+1 {
			return false
		}
		if hl {
			menu.Highlight = len(menu.Rows)
		}
		menu.Rows = append(menu.Rows, row)
	}
	return menu.Highlight >= 0 && len(menu.Rows) > 0
}

// row reads one option row: the glyph or spaces, "N. ", the label, and
// the description from descX.
func (m *claudeModel) row(g *recognizers.Grid, y int) (recognizers.ModelRow, bool, bool) {
	x := m.x
	hl := g.Rune(x, y) == '❯'
	switch {
	case hl && (g.StyleAt(x, y) != claudePickerGlyph || !g.SpaceAt(x+1, y)):
		return recognizers.ModelRow{}, false, false
	case !hl && g.First(y) != x+2:
		return recognizers.ModelRow{}, false, false
	}
	n := recognizers.NumberAt(g, y, x+2)
	if n == 0 || !g.Styled(y, x+2, x+5, claudePickerGrey) || g.SpaceAt(x+5, y) {
		return recognizers.ModelRow{}, false, false
	}
	label := strings.TrimRight(g.Text(y, x+5, m.descX), " ")
	label, current := recognizers.CutMark(label, claudeCurrentMark)
	var want vt.Style
	switch {
	case current:
		want = claudeModelGreen
	case hl:
		want = claudePickerGlyph
	default:
		want = recognizers.Plain().Style()
	}
	if label == "" || !g.Styled(y, x+5, x+5+recognizers.DisplayWidth(label), want) || !g.SpaceAt(m.descX-1, y) || g.SpaceAt(m.descX, y) {
		return recognizers.ModelRow{}, false, false
	}
	return recognizers.ModelRow{Number: n, Label: label, Current: current, Desc: g.TextFrom(y, m.descX)}, hl, true
}

// confirm proves the switch confirmation ending on row b.
func (m *claudeModel) confirm(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claudeModel.confirm")()
	no := b
	if m.confirmHint != "" {
		if !g.RowIs(b, m.x, m.confirmHint) || !g.Styled(b, m.x, g.Width(), m.hintStyle) || !g.Blank(b-1) {
			return false
		}
		no = b - 2
	}
	yes := no - 1
	yesRow, hlYes, ok1 := m.row2(g, yes)
	noRow, hlNo, ok2 := m.row2(g, no)
	if !ok1 || !ok2 || yesRow.Number != 1 || noRow.Number != 2 || hlYes == hlNo || noRow.Label != claudeConfirmNo ||
		!strings.HasPrefix(yesRow.Label, claudeConfirmYes) || !g.Blank(yes-1) {
		return false
	}
	top := m.head(g, yes-2, claudeConfirmTitle, claudeConfirmStyle)
	if top < 0 || g.First(top+1) != m.x || !g.Styled(top+1, m.x, g.Width(), claudePickerGrey) || !g.Blank(top+2) {
		return false
	}
	for y := top + 3; y < yes-1; y++ {
		if g.Blank(y) || g.First(y) != m.x {
			return false
		}
	}
	menu := &recognizers.ModelMenu{Kind: recognizers.SwitchConfirm, For: strings.TrimPrefix(yesRow.Label, claudeConfirmYes),
		Rows: []recognizers.ModelRow{yesRow, noRow}}
	if hlNo {
		menu.Highlight = 1
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	out.ModelMenu = menu
	return true
}

// row2 reads a confirmation row: the layout of the picker's rows, the
// label running to the row's end.
func (m *claudeModel) row2(g *recognizers.Grid, y int) (recognizers.ModelRow, bool, bool) {
	x := m.x
	hl := g.Rune(x, y) == '❯'
	if hl && (g.StyleAt(x, y) != claudePickerGlyph || !g.SpaceAt(x+1, y)) || !hl && g.First(y) != x+2 {
		return recognizers.ModelRow{}, false, false
	}
	n := recognizers.NumberAt(g, y, x+2)
	want := recognizers.Plain().Style()
	if hl {
		want = claudePickerGlyph
	}
	if n == 0 || !g.Styled(y, x+2, x+5, claudePickerGrey) || !g.Styled(y, x+5, g.Width(), want) {
		return recognizers.ModelRow{}, false, false
	}
	return recognizers.ModelRow{Number: n, Label: g.TextFrom(y, x+5)}, hl, true
}

// The effort levels the effort row names, Left to Right (model-catalog).
var (
	claudeEfforts267 = []string{"Low", "Medium", "High", "xHigh", "Max", "Ultracode"}
	claudeEfforts332 = []string{"Low", "Medium", "High", "xHigh", "Max"}
)

// The model notice: what Claude Code prints into its history when /model
// ends (recordings model-menu, model-session, model-abandon).
const (
	claudeNoticeCmd  = "❯ /model"
	claudeNoticeMark = "  ⎿  "
)

// The notices are read with untraced cell reads: --explain of an idle
// screen shows no check of them.

// claudeNotice reads, over the composer whose upper rule is row top, the
// last history rows when they are "❯ /model" and its "⎿  " result; the
// right-aligned effort line right above the rule is skipped.
func claudeNotice(g *recognizers.Grid, top int) string {
	y := top - 1
	if !g.Blank(y) && g.First(y) > g.Width()/2 {
		y--
	}
	for ; y > 0 && y > top-recognizers.MaxNoticeGap && g.Blank(y); y-- {
	}
	if y < 1 || g.Text(y, 0, recognizers.DisplayWidth(claudeNoticeMark)) != claudeNoticeMark || g.Trimmed(y-1) != claudeNoticeCmd || g.First(y-1) != 0 {
		return ""
	}
	return g.TextFrom(y, recognizers.DisplayWidth(claudeNoticeMark))
}

// claudeApplied proves "Set model to <name> for this session only[ with
// <effort> effort]" (model-session).
func claudeApplied(notice, name, effort string) bool {
	rest, ok := strings.CutPrefix(notice, "Set model to ")
	if !ok {
		return false
	}
	tail := " for this session only"
	if effort != "" {
		tail += " with " + strings.ToLower(effort) + " effort"
	}
	got, ok := strings.CutSuffix(rest, tail)
	return ok && got != "" && (name == "" || got == name)
}
