package recognizers

import (
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
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
func (c *codex0x) modelMenu(g *grid, b int, out *Recognition) bool {
	defer g.enter("codex0x.modelMenu")()
	m := c.model
	if m == nil || g.first(b) != 2 {
		return false
	}
	hints := g.textFrom(b, 2)
	menu := &ModelMenu{Highlight: -1, Session: hints == m.sessionHint}
	end := b - 1 // the row under the last entry
	if !g.blank(end) {
		if g.ch(0, end) != '↓' || g.last(end) != 0 || g.style(0, end) != m.scroll {
			return false
		}
		menu.Below = true
	}
	up := func(y int) bool { return g.ch(0, y) == '↑' && g.last(y) == 0 && g.style(0, y) == m.scroll }
	top := end - 1
	for ; top >= 0 && top > end-maxModelRows && !g.blank(top) && !up(top); top-- {
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
		if !g.blank(y) {
			return false
		}
	}
	t--
	if t >= 1 && m.subtitle != "" && g.rowIs(t, 2, m.subtitle) && g.styled(t, 2, g.w, plain().dim().vt()) {
		t--
		if !g.rowIs(t, 2, codexModelTitle) {
			return false
		}
		menu.Kind = ModelList
	} else {
		title := g.textFrom(t, 2)
		switch model, ok := strings.CutPrefix(title, codexEffortTitle); {
		case g.first(t) != 2:
			return false
		case title == codexModelTitle && m.subtitle == "":
			menu.Kind = ModelList
		case ok && model != "":
			menu.Kind, menu.For = EffortList, model
		default:
			return false
		}
	}
	want := m.listHints
	if menu.Kind == EffortList {
		want = m.effortHints
	}
	if !g.styled(t, 2, g.w, plain().bold().vt()) || !slices.Contains(want, hints) || !m.rows(g, first, end, menu) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	out.ModelMenu = menu
	return true
}

// rows reads the entries from row first to the row end, exactly one
// highlighted, every description from the same column.
func (m *codexModel) rows(g *grid, first, end int, menu *ModelMenu) bool {
	defer g.enter("codexModel.rows")()
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
func (m *codexModel) row(g *grid, y int) (ModelRow, bool, int, bool) {
	hl := g.ch(0, y) == codexModelGlyph
	if !hl && g.first(y) != 2 && (!m.unnumbered || g.first(y) != 6) || hl && !g.space(1, y) {
		return ModelRow{}, false, 0, false
	}
	n, at := numberAt(g, y, 2), 5
	if n == 0 {
		// 0.171.0 numbers nine rows; the rest have spaces in its place
		// and the label a column further (model-catalog).
		if !m.unnumbered || !g.space(2, y) || !g.space(3, y) || !g.space(4, y) || !g.space(5, y) || g.space(6, y) {
			return ModelRow{}, false, 0, false
		}
		at = 6
	}
	rest := g.textFrom(y, at)
	label, desc, ok := strings.Cut(rest, "  ")
	desc = strings.TrimLeft(desc, " ")
	if !ok || label == "" || desc == "" {
		return ModelRow{}, false, 0, false
	}
	descX := at + displayWidth(rest) - displayWidth(desc)
	descEnd := descX + displayWidth(desc)
	labelSty, descSty := plain().vt(), plain().dim().vt()
	if hl {
		labelSty, descSty = m.hlLabel, m.hlDesc
	}
	if !g.styled(y, 0, descX, labelSty) || !g.styled(y, descX, descEnd, descSty) || !g.styled(y, descEnd, g.w, labelSty) {
		return ModelRow{}, false, 0, false
	}
	row := ModelRow{Number: n, Desc: desc}
	for {
		var cur, def bool
		label, cur = cutMark(label, " (current)")
		label, def = cutMark(label, " (default)")
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
