package vt

import "unicode/utf8"

// cell is the stored form of a cell: 6 bytes, so that a 120x40 screen
// with 1,000 lines of scrollback fits in 1 MiB. It packs the character (or
// the index of a grapheme of several code points in the line's ext table,
// 21 bits), its width, two flags and a 23-bit index into Screen.styles:
//
//	lo:  character bits 0-15
//	hi:  character bits 16-20 | ext<<5 | width<<6 | acs<<8 | cleared<<9 |
//	     gridExt<<10 | style bits 16-20 <<11
//	slo: style bits 0-15
//
// cleared and gridExt are tmux's GRID_FLAG_CLEARED and GRID_FLAG_EXTENDED:
// nothing visible depends on them, but tmux's "no change, do not draw"
// check in screen_write_cell does, and with it what a later write leaves.
type cell struct {
	lo, hi, slo uint16
}

const (
	chMask      = 1<<21 - 1
	extFlag     = 1 << 5
	acsFlag     = 1 << 8 // printed in the DEC special graphics set: keeps the ASCII byte, shows the glyph
	widthMask   = 3 << 6
	clearedFlag = 1 << 9  // erased (grid_clear_cell), not written
	gridExtFlag = 1 << 10 // tmux stores the cell in its extended form; sticky until erased
	styleShift  = 11
	// maxStyleIndex bounds the style table; compaction keeps it far below.
	maxStyleIndex = 1<<21 - 1
)

func mkcell(r rune, width int, style uint32) cell {
	return cell{
		lo:  uint16(r),
		hi:  uint16(r>>16&0x1f) | uint16(width)<<6 | uint16(style>>16)<<styleShift,
		slo: uint16(style),
	}
}

func (c cell) width() int      { return int(c.hi >> 6 & 3) }
func (c cell) isExt() bool     { return c.hi&extFlag != 0 }
func (c cell) isACS() bool     { return c.hi&acsFlag != 0 }
func (c cell) isPad() bool     { return c.hi&widthMask == 0 }
func (c cell) isWide() bool    { return c.width() == 2 }
func (c cell) ch() uint32      { return uint32(c.lo) | uint32(c.hi&0x1f)<<16 }
func (c cell) rune() rune      { return rune(c.ch()) }
func (c cell) style() uint32   { return uint32(c.slo) | uint32(c.hi>>styleShift)<<16 }
func (c cell) cleared() bool   { return c.hi&clearedFlag != 0 }
func (c cell) gridExt() bool   { return c.hi&gridExtFlag != 0 }
func (c *cell) setCh(v uint32) { c.lo, c.hi = uint16(v), c.hi&^0x1f|uint16(v>>16&0x1f) }
func (c *cell) setStyle(st uint32) {
	c.slo, c.hi = uint16(st), c.hi&(1<<styleShift-1)|uint16(st>>16)<<styleShift
}

// blankCell is an erased cell with the default style.
var blankCell = mkcell(' ', 1, 0)

// padCell is the cell right of a wide character; like tmux, it carries the
// default style (and, having no single byte of data, the extended form).
var padCell = cell{hi: gridExtFlag}

// clearedCell is an erased cell with the default background.
var clearedCell = cell{lo: ' ', hi: 1<<6 | clearedFlag}

// line is one row of cells. Lines move between the screen, the alternate
// screen's save area and the scrollback by pointer; cells never move
// between lines, so a grapheme's ext index stays valid as long as its line.
type line struct {
	cells []cell // cellsFor(w): the visible cells, and on one-column screens two more
	ext   []string
	w     int32 // visible width
	// used and size are tmux's cellused and cellsize. Nothing visible
	// depends on them, but the scrollback does: erasing the whole screen
	// scrolls the rows up to the last one in use into it (scroll-on-clear),
	// and writing a default space past size is skipped without counting.
	used, size int32
	wrapped    bool // the row continues on the next one (soft wrap)
}

// cellsFor is how many cells a row of visible width w stores. tmux's
// unsigned arithmetic lets a wide character on a one-column pane write up
// to two cells past the edge, where nothing shows them but later writes
// find them (screen_write_overwrite); the model keeps them too.
func cellsFor(w int) int {
	if w == 1 {
		return 3
	}
	return w
}

func newLine(w int, blank cell) *line {
	l := &line{cells: make([]cell, cellsFor(w)), w: int32(w)}
	l.fill(0, len(l.cells), blank)
	return l
}

// fill sets cells from to to-1 to c, by doubling copies: a row is
// emptied on every scroll.
func (l *line) fill(from, to int, c cell) {
	cs := l.cells[from:to]
	if len(cs) == 0 {
		return
	}
	cs[0] = c
	for n := 1; n < len(cs); n *= 2 {
		copy(cs[n:], cs[:n])
	}
}

// reset empties the line to blank cells (tmux's grid_empty_line): a
// background colour other than the default fills the row, so it counts as
// allocated (size) but not as used.
func (l *line) reset(blank cell) {
	l.fill(0, len(l.cells), blank)
	l.ext = l.ext[:0]
	l.wrapped = false
	l.used, l.size = 0, 0
	if blank.style() != 0 {
		l.size = l.w
	}
}

// expand is grid_expand_line's bookkeeping: the row's allocated cells grow
// to n, rounded up to a quarter, half or all of the width.
func (l *line) expand(n int) {
	if int32(n) <= l.size {
		return
	}
	w := int(l.w)
	switch {
	case n < w/4:
		n = w / 4
	case n < w/2:
		n = w / 2
	case w > n:
		n = w
	}
	l.size = int32(n)
}

// wrote records that cells x to x+n-1 were set (grid_set_cell/_cells).
func (l *line) wrote(x, n int) {
	l.expand(x + n)
	if end := int32(x + n); end > l.used {
		l.used = end
	}
}

// set stores c at x as grid_view_set_cell does: a written cell is not
// cleared, and a position stored in extended form stays so (c carries
// gridExtFlag when it needs that form itself).
func (l *line) set(x int, c cell) {
	c.hi = c.hi&^clearedFlag | l.cells[x].hi&gridExtFlag
	l.cells[x] = c
	l.wrote(x, 1)
}

// text returns what cell c shows. A cell printed in the DEC special
// graphics set shows each of its ASCII bytes as the line-drawing glyph, also
// after a mark was combined onto it: tmux keeps the bytes and draws them
// that way (tty_draw_line).
func (l *line) text(c cell) string {
	if c.isPad() {
		return ""
	}
	if !c.isACS() {
		return l.raw(c)
	}
	if !c.isExt() {
		if r := c.rune(); r < 128 && acsRune[r] != 0 {
			return runeString(acsRune[r])
		}
		return l.raw(c)
	}
	var b []byte
	for _, r := range l.raw(c) {
		if r < 128 && acsRune[r] != 0 {
			r = acsRune[r]
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// raw returns the text stored in c, as tmux stores it.
func (l *line) raw(c cell) string {
	if c.isExt() {
		if i := int(c.ch()); i < len(l.ext) {
			return l.ext[i]
		}
		return " "
	}
	return runeString(c.rune())
}

// appendText appends what cell c shows to dst without allocating.
func (l *line) appendText(dst []byte, c cell) []byte {
	if c.isExt() || c.isPad() {
		return append(dst, l.text(c)...)
	}
	r := c.rune()
	if c.isACS() && r < 128 && acsRune[r] != 0 {
		r = acsRune[r]
	}
	return utf8.AppendRune(dst, r)
}

// runeStrings holds the text of every code point below tableRunes, so that
// reading a cell allocates nothing for ASCII, Latin, box drawing, arrows and
// the like; beyond it (CJK, emoji) string(r) allocates.
const tableRunes = 0x3000

var runeStrings = func() *[tableRunes]string {
	var t [tableRunes]string
	var all []byte
	offs := make([]int, tableRunes+1)
	for r := rune(0); r < tableRunes; r++ {
		offs[r] = len(all)
		all = utf8.AppendRune(all, r)
	}
	offs[tableRunes] = len(all)
	str := string(all) // one allocation shared by every entry
	for r := range t {
		t[r] = str[offs[r]:offs[r+1]]
	}
	return &t
}()

func runeString(r rune) string {
	if r >= 0 && r < tableRunes {
		return runeStrings[r]
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
	c.hi |= extFlag
	c.setCh(uint32(len(l.ext) - 1))
}

func (l *line) compactExt() {
	old := l.ext
	l.ext = make([]string, 0, len(l.cells))
	for i := range l.cells {
		c := &l.cells[i]
		if c.isExt() {
			l.ext = append(l.ext, old[c.ch()])
			c.setCh(uint32(len(l.ext) - 1))
		}
	}
}
