package vt

// cell is the stored form of a cell: 8 bytes. ch packs the character (or
// the index of a grapheme of several code points in the line's ext table),
// an ext flag and the width; style indexes Screen.styles.
type cell struct {
	ch    uint32
	style uint32
}

const (
	chMask     = 1<<21 - 1
	extBit     = 1 << 21
	widthShift = 22
)

func mkcell(r rune, width int, style uint32) cell {
	return cell{ch: uint32(r) | uint32(width)<<widthShift, style: style}
}

func (c cell) width() int   { return int(c.ch >> widthShift & 3) }
func (c cell) isExt() bool  { return c.ch&extBit != 0 }
func (c cell) isPad() bool  { return c.ch>>widthShift&3 == 0 }
func (c cell) rune() rune   { return rune(c.ch & chMask) }
func (c cell) isWide() bool { return c.width() == 2 }

// blankCell is an erased cell with the default style.
var blankCell = mkcell(' ', 1, 0)

// padCell is the cell right of a wide character; like tmux, it carries the
// default style.
var padCell = mkcell(0, 0, 0)

// line is one row of cells. Lines move between the screen, the alternate
// screen's save area and the scrollback by pointer; cells never move
// between lines, so a grapheme's ext index stays valid as long as its line.
type line struct {
	cells   []cell
	ext     []string
	wrapped bool // the row continues on the next one (soft wrap)
}

func newLine(w int, blank cell) *line {
	l := &line{cells: make([]cell, w)}
	l.fill(0, w, blank)
	return l
}

func (l *line) fill(from, to int, c cell) {
	cs := l.cells[from:to]
	for i := range cs {
		cs[i] = c
	}
}

// reset empties the line to blank cells (tmux's grid_empty_line).
func (l *line) reset(blank cell) {
	l.fill(0, len(l.cells), blank)
	l.ext = l.ext[:0]
	l.wrapped = false
}

// text returns the grapheme stored in c.
func (l *line) text(c cell) string {
	if c.isExt() {
		if i := int(c.ch & chMask); i < len(l.ext) {
			return l.ext[i]
		}
		return " "
	}
	if c.isPad() {
		return ""
	}
	r := c.rune()
	if c.ch&acsBit != 0 && r < 128 && acsRune[r] != 0 {
		r = acsRune[r]
	}
	return string(r)
}

// setText stores a grapheme of several code points in the cell at x,
// keeping its width and style. When the line's table has grown well past
// what its cells can reference, unreferenced entries are dropped first, so
// rewriting one cell forever stays bounded.
func (l *line) setText(x int, s string) {
	if len(l.ext) >= 2*len(l.cells)+8 {
		l.compactExt()
	}
	l.ext = append(l.ext, s)
	c := &l.cells[x]
	c.ch = c.ch&^(chMask|extBit) | extBit | uint32(len(l.ext)-1)
}

func (l *line) compactExt() {
	old := l.ext
	l.ext = make([]string, 0, len(l.cells))
	for i := range l.cells {
		c := &l.cells[i]
		if c.isExt() {
			l.ext = append(l.ext, old[c.ch&chMask])
			c.ch = c.ch&^chMask | uint32(len(l.ext)-1)
		}
	}
}
