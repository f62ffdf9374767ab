package recognizers

import (
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// grid is the recognizers' snapshot of a vt screen: every cell's text,
// width and an index into a small table of the styles seen. Profiles read
// only the grid, so a recognition reads each screen cell once, and a
// Recognizer re-reads only the rows the screen marked dirty.
type grid struct {
	w, h    int
	rows    []grow
	changed []bool // rows read by the last load
	styles  []styleInfo
	lastSt  uint16 // the style interned last: runs of one style are common
	cursor  vt.Cursor
	alt     bool
}

type grow struct {
	cells       []gcell
	first, last int // first and last non-blank column; -1 on a blank row
}

type gcell struct {
	text string // "" for the padding cell of a wide character
	w    uint8
	st   uint16
}

type styleInfo struct {
	s vt.Style
	// paints: the style is visible on a space (background, reverse,
	// underline, strikethrough), so a space in it is not blank.
	paints bool
}

// maxStyles bounds the style table of a long-lived grid: shimmering
// spinners paint with many colours. Past it the table is rebuilt.
const maxStyles = 4096

// load reads scr into the grid: every row when all is set, when the size
// changed or the style table was rebuilt, otherwise only the dirty rows.
func (g *grid) load(scr *vt.Screen, all bool) {
	w, h := scr.Size()
	if w != g.w || h != g.h {
		g.resize(w, h)
		all = true
	}
	if len(g.styles) > maxStyles {
		g.styles, g.lastSt = g.styles[:0], 0
		all = true
	}
	for y := 0; y < h; y++ {
		g.changed[y] = all || scr.Dirty(y)
		if g.changed[y] {
			g.loadRow(scr, y)
		}
	}
	g.cursor = scr.Cursor()
	g.alt = scr.AltScreen()
}

func (g *grid) resize(w, h int) {
	g.w, g.h = w, h
	if cap(g.rows) >= h {
		g.rows, g.changed = g.rows[:h], g.changed[:h]
	} else {
		g.rows, g.changed = make([]grow, h), make([]bool, h)
	}
	for y := range g.rows {
		if cap(g.rows[y].cells) >= w {
			g.rows[y].cells = g.rows[y].cells[:w]
		} else {
			g.rows[y].cells = make([]gcell, w)
		}
	}
}

// changedIn reports whether the last load read any row of r.
func (g *grid) changedIn(r Region) bool {
	for y := max(r.Top, 0); y <= r.Bottom() && y < g.h; y++ {
		if g.changed[y] {
			return true
		}
	}
	return false
}

func (g *grid) loadRow(scr *vt.Screen, y int) {
	r := &g.rows[y]
	r.first, r.last = -1, -1
	for x := range r.cells {
		c := scr.Cell(x, y)
		st := g.intern(c.Style)
		r.cells[x] = gcell{text: c.Text, w: c.Width, st: st}
		if !g.blankCell(r.cells[x]) {
			if r.first < 0 {
				r.first = x
			}
			r.last = x
		}
	}
}

func (g *grid) intern(s vt.Style) uint16 {
	if int(g.lastSt) < len(g.styles) && g.styles[g.lastSt].s == s {
		return g.lastSt
	}
	for i := range g.styles {
		if g.styles[i].s == s {
			g.lastSt = uint16(i)
			return g.lastSt
		}
	}
	_, bg, attr := s.Decompose()
	paints := bg != tcell.ColorDefault || attr&(tcell.AttrReverse|tcell.AttrStrikeThrough) != 0 ||
		s.GetUnderlineStyle() != tcell.UnderlineStyleNone
	g.styles = append(g.styles, styleInfo{s: s, paints: paints})
	g.lastSt = uint16(len(g.styles) - 1)
	return g.lastSt
}

// isSpace reports whether a cell's text is a space. A no-break space is
// one too: Claude draws one after its prompt glyph.
func isSpace(t string) bool { return t == " " || t == "\u00a0" || t == "" }

func (g *grid) blankCell(c gcell) bool { return isSpace(c.text) && !g.styles[c.st].paints }

// cell returns the cell at x, y; outside the grid a blank cell.
func (g *grid) cell(x, y int) gcell {
	if y < 0 || y >= g.h || x < 0 || x >= g.w {
		return gcell{text: " ", w: 1}
	}
	return g.rows[y].cells[x]
}

// style returns the style of the cell at x, y.
func (g *grid) style(x, y int) vt.Style { return g.styles[g.cell(x, y).st].s }

// ch returns the first character of the cell at x, y (0 for a padding
// cell).
func (g *grid) ch(x, y int) rune {
	t := g.cell(x, y).text
	if t == "" {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(t)
	return r
}

// blank, first and last are total: a row outside the grid is blank, its
// first and last columns -1 (profiles look past edges freely).
func (g *grid) blank(y int) bool { return y < 0 || y >= g.h || g.rows[y].first < 0 }

func (g *grid) first(y int) int {
	if y < 0 || y >= g.h {
		return -1
	}
	return g.rows[y].first
}

func (g *grid) last(y int) int {
	if y < 0 || y >= g.h {
		return -1
	}
	return g.rows[y].last
}

// lastRow returns the bottom-most non-blank row, or -1.
func (g *grid) lastRow() int {
	for y := g.h - 1; y >= 0; y-- {
		if !g.blank(y) {
			return y
		}
	}
	return -1
}

// text returns the text of columns x0 to x1-1 of row y, padding cells
// skipped and no-break spaces as spaces. It allocates: callers use it to
// build labels, not to test.
func (g *grid) text(y, x0, x1 int) string {
	if y < 0 || y >= g.h {
		return ""
	}
	x0, x1 = max(x0, 0), min(x1, g.w)
	var b []byte
	for x := x0; x < x1; x++ {
		t := g.rows[y].cells[x].text
		if t == "\u00a0" {
			t = " "
		}
		b = append(b, t...)
	}
	return string(b)
}

// trimmed returns row y's text from its first to its last non-blank cell,
// without edge spaces (a highlight may paint them).
func (g *grid) trimmed(y int) string {
	if g.blank(y) {
		return ""
	}
	return strings.TrimSpace(g.text(y, g.rows[y].first, g.rows[y].last+1))
}

// textFrom returns row y's text from column x to its last non-blank cell,
// without trailing spaces.
func (g *grid) textFrom(y, x int) string {
	if g.blank(y) || x > g.rows[y].last {
		return ""
	}
	return strings.TrimRight(g.text(y, x, g.rows[y].last+1), " ")
}

// hasAt reports whether row y shows s starting at column x (wide
// characters count two columns). It does not allocate.
func (g *grid) hasAt(y, x int, s string) bool {
	if y < 0 || y >= g.h {
		return false
	}
	for _, r := range s {
		if x >= g.w {
			return false
		}
		c := g.rows[y].cells[x]
		cr, n := utf8.DecodeRuneInString(c.text)
		if n == 0 || cr != r && !(r == ' ' && cr == '\u00a0') {
			return false
		}
		x += max(int(c.w), 1)
	}
	return true
}

// rowIs reports whether row y's non-blank text is exactly s starting at
// column x.
func (g *grid) rowIs(y, x int, s string) bool {
	return !g.blank(y) && g.rows[y].first == x && g.hasAt(y, x, s) &&
		g.rows[y].last == x+displayWidth(s)-1
}

// styled reports whether every non-blank cell of columns x0..x1-1 of row y
// has style s.
func (g *grid) styled(y, x0, x1 int, s vt.Style) bool {
	if y < 0 || y >= g.h {
		return true
	}
	for x := max(x0, 0); x < min(x1, g.w); x++ {
		c := g.rows[y].cells[x]
		if !g.blankCell(c) && g.styles[c.st].s != s {
			return false
		}
	}
	return true
}

// rule reports whether row y is a full-width rule of ch in style s; width
// is the length of its leading run of ch in style s.
func (g *grid) rule(y int, ch rune, s vt.Style) (full bool, width int) {
	if y < 0 || y >= g.h {
		return false, 0
	}
	for x := 0; x < g.w; x++ {
		c := g.rows[y].cells[x]
		r, _ := utf8.DecodeRuneInString(c.text)
		if r != ch || g.styles[c.st].s != s {
			break
		}
		width++
	}
	return width == g.w, width
}

// displayWidth is the column width of s as vt lays it out.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += max(vt.RuneWidth(r), 0)
	}
	return n
}
