package screen

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
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
func (c *codex0x) resumePicker(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.resumePicker")()
	p := c.picker
	if p == nil || b != g.Height()-2 || !g.RowIs(0, 1, p.title) || !g.Styled(0, 1, g.Width(), p.titleStyle) || !g.Blank(1) {
		return false
	}
	y := 2
	for _, h := range p.header {
		if !g.RowIs(y, 1, h) || !g.Blank(y+1) {
			return false
		}
		y += 2
	}
	pos, total, ok := pickerRule(g, b-2)
	if !g.RowIs(b-1, 1, p.hints[0]) || !g.RowIs(b, 1, p.hints[1]) || !ok {
		return false
	}
	top, current := y, 0
	for ; y < b-2; y++ {
		switch {
		case g.Blank(y):
		case g.First(y) == 2 && g.Rune(2, y) == p.glyph && g.SpaceAt(3, y):
			current++
		case g.First(y) != 4:
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
func (p *codexPicker) rows(g *recognizers.Grid, top, end, pos, total int) *recognizers.Picker {
	defer g.Enter("codexPicker.rows")()
	out := &recognizers.Picker{Current: -1}
	y := top
	for ; y < end && !g.Blank(y); y++ {
		cur := g.First(y) == 2
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
		if !g.Blank(y) {
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
func (p *codexPicker) row(g *recognizers.Grid, y int, cur bool) (recognizers.PickerRow, bool) {
	defer g.Enter("codexPicker.row")()
	const ageX, titleX = 4, codexPickerTitleX
	age := strings.TrimRight(g.Text(y, ageX, titleX), " ")
	if !pickerAge(age) || g.SpaceAt(titleX, y) {
		return recognizers.PickerRow{}, false
	}
	title := g.TextFrom(y, titleX)
	if cur {
		if g.Rune(2, y) != p.glyph || !g.Styled(y, 2, ageX, p.curGlyph) || !g.Styled(y, ageX, titleX, p.curAge) ||
			!g.Styled(y, titleX, g.Width(), p.curTitle) || p.curPadded && g.Last(y) != g.Width()-3 {
			return recognizers.PickerRow{}, false
		}
	} else {
		if g.First(y) != ageX || !g.Styled(y, ageX, titleX, p.age) || !p.otherTitle(g, y, titleX) {
			return recognizers.PickerRow{}, false
		}
	}
	return recognizers.PickerRow{Title: title, Detail: age, Truncated: strings.HasSuffix(title, "…")}, true
}

// otherTitle proves a row's title that is not current: plain, or with
// titleColoured one foreground colour and nothing else.
func (p *codexPicker) otherTitle(g *recognizers.Grid, y, x int) bool {
	if !p.titleColoured {
		return g.Styled(y, x, g.Width(), recognizers.Plain().Style())
	}
	st := g.StyleAt(x, y)
	fg, bg, attr := st.Decompose()
	return fg != tcell.ColorDefault && bg == tcell.ColorDefault && attr == tcell.AttrNone && st.Ext == 0 &&
		st.GetUnderlineStyle() == tcell.UnderlineStyleNone && g.Styled(y, x, g.Width(), st)
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
func pickerRule(g *recognizers.Grid, y int) (n, m int, ok bool) {
	if g.First(y) != 0 || g.Last(y) != g.Width()-1 {
		return 0, 0, false
	}
	t := strings.TrimLeft(g.Trimmed(y), "─")
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
