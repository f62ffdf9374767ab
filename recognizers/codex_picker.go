package recognizers

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// codexPicker is Codex's full-screen session picker, opened by /resume
// (recordings thread-resume; recordings/rig/threads.go): a title at
// column 1 of the top row, fixed rows under it, one session row per
// conversation (the current one with a glyph at column 2), and at the
// bottom a rule ending in "N / M · P% ─" and two rows of key hints, the
// pane's last row left blank. It reads as menu_or_viewer with no
// interaction: akk only knows the agent is not at its composer.
type codexPicker struct {
	title      string
	titleStyle vt.Style
	// header are the rows under the title, from row 2, each over a blank
	// row, exactly as recorded (the filters and the search box).
	header []string
	glyph  rune      // the current session row's
	hints  [2]string // the key hints, at column 1

	// The session rows (Recognition.Picker), as recorded: one row each
	// from the first row after the header, the age at column 4 and the
	// title at column codexPickerTitleX. The current row draws its glyph
	// and the space after it in curGlyph, the age and its padding in
	// curAge, the title in curTitle; curPadded: its highlight runs on to
	// two columns before the pane's edge (0.171.0's reverse video).
	// Another row draws its age in age and its title in plain default
	// colours, or with titleColoured in one foreground colour of its
	// own (0.171.0 colours each thread).
	curGlyph, curAge, curTitle vt.Style
	curPadded                  bool
	age                        vt.Style
	titleColoured              bool
}

// codexPickerTitleX is the session title's column (the age's 12 columns
// after an indent of 4, both versions).
const codexPickerTitleX = 16

// resumePicker proves the picker on a screen whose last non-blank row is
// b; a screen that matches only part of it is not read.
func (c *codex0x) resumePicker(g *grid, b int, out *Recognition) bool {
	defer g.enter("codex0x.resumePicker")()
	p := c.picker
	if p == nil || b != g.h-2 || !g.rowIs(0, 1, p.title) || !g.styled(0, 1, g.w, p.titleStyle) || !g.blank(1) {
		return false
	}
	y := 2
	for _, h := range p.header {
		if !g.rowIs(y, 1, h) || !g.blank(y+1) {
			return false
		}
		y += 2
	}
	pos, total, ok := pickerRule(g, b-2)
	if !g.rowIs(b-1, 1, p.hints[0]) || !g.rowIs(b, 1, p.hints[1]) || !ok {
		return false
	}
	top, current := y, 0
	for ; y < b-2; y++ {
		switch {
		case g.blank(y):
		case g.first(y) == 2 && g.ch(2, y) == p.glyph && g.space(3, y):
			current++
		case g.first(y) != 4:
			return false
		}
	}
	if current != 1 {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	out.Picker = p.rows(g, top, b-2, pos, total)
	return true
}

// rows reads the session rows from row top to the rule on row end, each
// in its recorded shape, with pos and total from the rule's "N / M": the
// rows one under the other from top, then only blank rows, exactly one
// current, N naming it (the list starts at the first session; a
// scrolled list is not recorded). Anything else is nil.
func (p *codexPicker) rows(g *grid, top, end, pos, total int) *Picker {
	defer g.enter("codexPicker.rows")()
	out := &Picker{Current: -1}
	y := top
	for ; y < end && !g.blank(y); y++ {
		cur := g.first(y) == 2
		row, ok := p.row(g, y, cur)
		if !ok || cur && out.Current >= 0 {
			return nil
		}
		if cur {
			out.Current = len(out.Rows)
		}
		out.Rows = append(out.Rows, row)
	}
	for ; y < end; y++ {
		if !g.blank(y) {
			return nil
		}
	}
	out.Shown, out.Total = len(out.Rows), total
	if out.Current < 0 || pos != out.Current+1 || total < out.Shown {
		return nil
	}
	return out
}

// row reads session row y: the current one (the glyph proven by the
// caller's walk) or another, each in its styles.
func (p *codexPicker) row(g *grid, y int, cur bool) (PickerRow, bool) {
	defer g.enter("codexPicker.row")()
	const ageX, titleX = 4, codexPickerTitleX
	age := strings.TrimRight(g.text(y, ageX, titleX), " ")
	if !pickerAge(age) || g.space(titleX, y) {
		return PickerRow{}, false
	}
	title := g.textFrom(y, titleX)
	if cur {
		if g.ch(2, y) != p.glyph || !g.styled(y, 2, ageX, p.curGlyph) || !g.styled(y, ageX, titleX, p.curAge) ||
			!g.styled(y, titleX, g.w, p.curTitle) || p.curPadded && g.last(y) != g.w-3 {
			return PickerRow{}, false
		}
	} else {
		if g.first(y) != ageX || !g.styled(y, ageX, titleX, p.age) || !p.otherTitle(g, y, titleX) {
			return PickerRow{}, false
		}
	}
	return PickerRow{Title: title, Detail: age, Truncated: strings.HasSuffix(title, "…")}, true
}

// otherTitle proves a row's title that is not current: plain, or with
// titleColoured one foreground colour and nothing else.
func (p *codexPicker) otherTitle(g *grid, y, x int) bool {
	if !p.titleColoured {
		return g.styled(y, x, g.w, plain().vt())
	}
	st := g.style(x, y)
	fg, bg, attr := st.Decompose()
	return fg != tcell.ColorDefault && bg == tcell.ColorDefault && attr == tcell.AttrNone && st.Ext == 0 &&
		st.GetUnderlineStyle() == tcell.UnderlineStyleNone && g.styled(y, x, g.w, st)
}

// pickerAge reports an age as the pickers draw it: a number, a unit
// ("2s", "16s") and " ago".
func pickerAge(s string) bool {
	n, ok := strings.CutSuffix(s, " ago")
	i := len(n) - len(strings.TrimLeft(n, "0123456789"))
	unit := n[i:]
	return ok && i > 0 && i <= 4 && unit != "" && len(unit) <= 3 && strings.Trim(unit, "abcdefghijklmnopqrstuvwxyz") == ""
}

// pickerRule proves the picker's rule on row y: '─' from column 0, then
// " N / M · P% ─" ending at the pane's last column, and returns N and M.
func pickerRule(g *grid, y int) (n, m int, ok bool) {
	if g.first(y) != 0 || g.last(y) != g.w-1 {
		return 0, 0, false
	}
	t := strings.TrimLeft(g.trimmed(y), "─")
	t, ok = strings.CutSuffix(t, "% ─")
	if !ok || !strings.HasPrefix(t, " ") {
		return 0, 0, false
	}
	pos, pct, ok := strings.Cut(t[1:], " · ")
	ns, ms, ok2 := strings.Cut(pos, " / ")
	if !ok || !ok2 || !digits(ns) || !digits(ms) || !digits(pct) {
		return 0, 0, false
	}
	return atoiDigits(ns), atoiDigits(ms), true
}

// digits reports a non-empty run of at most four decimal digits.
func digits(s string) bool {
	return s != "" && len(s) <= 4 && strings.Trim(s, "0123456789") == ""
}

// atoiDigits is the value of a run digits accepted.
func atoiDigits(s string) int {
	n := 0
	for _, d := range s {
		n = n*10 + int(d-'0')
	}
	return n
}
