package screen

import (
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// codexModel is Codex's /model popups (recordings model-menu,
// model-abandon, model-menu-session, model-catalog;
// recordings/rig/inspect_codex.go), drawn under the history in the
// composer's place to the screen's last non-blank row:
//
//	  Select Model and Effort                    bold, at column 2
//	  Access legacy models by running …          dim (0.155.1's list only)
//
//	  1. gpt-6-astra (default)  Our most capable …
//	› 5. gpt-5.5 (current)      Frontier model …   the highlighted row
//	↓                                              0.171.0: more below
//	  Press enter to confirm or esc to go back     the key hints
//
// and, after Enter on a model, the same shape titled "Select Reasoning
// Level for <model>" listing its efforts (EffortList). Rows: "› " or two
// spaces, "N. ", the label with its marks, two spaces or more, the
// description from one column shared by every row; the label part plain
// and the description dim, the highlighted row in its own styles.
type codexModel struct {
	// gap: blank rows between the title (or the list's subtitle) and the
	// first row; subtitle: the model list's dim row under its title ("":
	// none).
	gap      int
	subtitle string
	// The highlighted row: the glyph and label part in hlLabel (and the
	// padding after the description), the description in hlDesc.
	hlLabel, hlDesc vt.Style
	// listHints, effortHints: the key hints under each popup; the
	// session hint offers "s" (this session only).
	listHints, effortHints []string
	sessionHint            string
	scroll                 vt.Style // "↑" / "↓"
	// unnumbered: rows past the ninth have no number (0.171.0).
	unnumbered bool
}

const (
	codexModelTitle  = "Select Model and Effort"
	codexEffortTitle = "Select Reasoning Level for "
	codexModelGlyph  = '›'
)

// modelMenu proves a /model popup ending on row b.
func (c *codex0x) modelMenu(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.modelMenu")()
	m := c.model
	if m == nil || g.First(b) != 2 {
		return false
	}
	hints := g.TextFrom(b, 2)
	menu := &recognizers.ModelMenu{Highlight: -1, Session: hints == m.sessionHint}
	end := b - 1 // the row under the last entry
	if !g.Blank(end) {
		if g.Rune(0, end) != '↓' || g.Last(end) != 0 || g.StyleAt(0, end) != m.scroll {
			return false
		}
		menu.Below = true
	}
	up := func(y int) bool { return g.Rune(0, y) == '↑' && g.Last(y) == 0 && g.StyleAt(0, y) == m.scroll }
	top := end - 1
	for ; top >= 0 && top > end-recognizers.MaxModelRows && !g.Blank(top) && !up(top); top-- {
	}
	first := top + 1
	if top >= 0 && up(top) {
		menu.Above = true
		top--
	}
	// top is the last blank row over the entries: gap of them under the
	// title (and subtitle), "↑" in place of the last one.
	gap := m.gap
	if menu.Above {
		gap--
	}
	t := top - gap + 1
	for y := t; y <= top; y++ {
		if !g.Blank(y) {
			return false
		}
	}
	t--
	if t >= 1 && m.subtitle != "" && g.RowIs(t, 2, m.subtitle) && g.Styled(t, 2, g.Width(), recognizers.Plain().Dim().Style()) {
		t--
		if !g.RowIs(t, 2, codexModelTitle) {
			return false
		}
		menu.Kind = recognizers.ModelList
	} else {
		title := g.TextFrom(t, 2)
		switch model, ok := strings.CutPrefix(title, codexEffortTitle); {
		case g.First(t) != 2:
			return false
		case title == codexModelTitle && m.subtitle == "":
			menu.Kind = recognizers.ModelList
		case ok && model != "":
			menu.Kind, menu.For = recognizers.EffortList, model
		default:
			return false
		}
	}
	want := m.listHints
	if menu.Kind == recognizers.EffortList {
		want = m.effortHints
	}
	if !g.Styled(t, 2, g.Width(), recognizers.Plain().Bold().Style()) || !slices.Contains(want, hints) || !m.rows(g, first, end, menu) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	out.ModelMenu = menu
	return true
}

// rows reads the entries from row first to the row end, exactly one
// highlighted, every description from the same column.
func (m *codexModel) rows(g *recognizers.Grid, first, end int, menu *recognizers.ModelMenu) bool {
	defer g.Enter("codexModel.rows")()
	descX := -1
	for y := first; y < end; y++ {
		row, hl, x, ok := m.row(g, y)
		if !ok || hl && menu.Highlight >= 0 || descX >= 0 && x != descX {
			return false
		}
		descX = x
		if hl {
			menu.Highlight = len(menu.Rows)
		}
		menu.Rows = append(menu.Rows, row)
	}
	return menu.Highlight >= 0
}

// row reads entry row y and returns its description's column.
func (m *codexModel) row(g *recognizers.Grid, y int) (recognizers.ModelRow, bool, int, bool) {
	hl := g.Rune(0, y) == codexModelGlyph
	if !hl && g.First(y) != 2 && (!m.unnumbered || g.First(y) != 6) || hl && !g.SpaceAt(1, y) {
		return recognizers.ModelRow{}, false, 0, false
	}
	n, at := recognizers.NumberAt(g, y, 2), 5
	if n == 0 {
		// 0.171.0 numbers nine rows; the rest have spaces in its place
		// and the label a column further (model-catalog).
		if !m.unnumbered || !g.SpaceAt(2, y) || !g.SpaceAt(3, y) || !g.SpaceAt(4, y) || !g.SpaceAt(5, y) || g.SpaceAt(6, y) {
			return recognizers.ModelRow{}, false, 0, false
		}
		at = 6
	}
	rest := g.TextFrom(y, at)
	label, desc, ok := strings.Cut(rest, "  ")
	desc = strings.TrimLeft(desc, " ")
	if !ok || label == "" || desc == "" {
		return recognizers.ModelRow{}, false, 0, false
	}
	descX := at + recognizers.DisplayWidth(rest) - recognizers.DisplayWidth(desc)
	descEnd := descX + recognizers.DisplayWidth(desc)
	labelSty, descSty := recognizers.Plain().Style(), recognizers.Plain().Dim().Style()
	if hl {
		labelSty, descSty = m.hlLabel, m.hlDesc
	}
	if !g.Styled(y, 0, descX, labelSty) || !g.Styled(y, descX, descEnd, descSty) || !g.Styled(y, descEnd, g.Width(), labelSty) {
		return recognizers.ModelRow{}, false, 0, false
	}
	row := recognizers.ModelRow{Number: n, Desc: desc}
	for {
		var cur, def bool
		label, cur = recognizers.CutMark(label, " (current)")
		label, def = recognizers.CutMark(label, " (default)")
		row.Current, row.Default = row.Current || cur, row.Default || def
		if !cur && !def {
			break
		}
	}
	row.Label = label
	return row, hl, descX, true
}

// codexModelHint155 is Codex 0.155.1's hint under both popups.
const codexModelHint155 = "Press enter to confirm or esc to go back"

// The model notice: what Codex prints into its history when /model ends
// (recordings model-menu, model-catalog).
const (
	codexNoticeMark = "• "
	codexNoticeText = "Model changed to "
)

// The notices are read with untraced cell reads: --explain of an idle
// screen shows no check of them.

// codexNotice reads the last history row over the composer at row top
// when it is "• Model changed to …".
func codexNotice(g *recognizers.Grid, top int) string {
	y := top - 1
	for ; y >= 0 && y > top-recognizers.MaxNoticeGap && g.Blank(y); y-- {
	}
	if y < 0 || g.First(y) != 0 || !strings.HasPrefix(g.TextFrom(y, 0), codexNoticeMark+codexNoticeText) {
		return ""
	}
	return g.TextFrom(y, 2)
}

// codexApplied proves "Model changed to <slug> <effort>[ suffix]": the
// slug is the row's label lower-cased, spaces as dashes (0.171.0 lists
// display names), the effort lower-cased ("Extra high": "xhigh").
func codexApplied(suffix string) func(string, string, string) bool {
	return func(notice, name, effort string) bool {
		slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
		e := strings.ToLower(effort)
		if e == "extra high" {
			e = "xhigh"
		}
		return notice == codexNoticeText+slug+" "+e+suffix
	}
}
