package vt

import "fmt"

// Options configures a Screen. The zero value is valid.
type Options struct {
	// Scrollback is how many lines scrolled off the top of the primary
	// screen are kept. 0 means DefaultScrollback; negative keeps none.
	Scrollback int
}

// DefaultScrollback is the scrollback kept when Options.Scrollback is 0.
// It is small on purpose: tmux keeps the real history, and akk re-reads it
// with capture-pane when it needs more than recent context.
const DefaultScrollback = 200

// Screen is a VT screen model fed by a pane's output stream. It is not safe
// for concurrent use.
type Screen struct {
	w, h  int
	lines []*line // the active grid, h rows
	// altSaved holds the primary grid while the alternate screen is on,
	// at the size it was saved at (tmux's saved_grid is not resized).
	altSaved []*line
	// altLost: cells of the saved screen did not fit the screen and were
	// not kept (a seed of a pane narrower than its saved grid).
	altLost  bool
	diverged bool // see Diverged
	history  scrollback
	spare    []*line // emptied lines kept for reuse

	cx, cy         int // cx == w is the pending-wrap state
	rupper, rlower int // scroll region, inclusive
	mode           mode
	tabs           []bool

	pen     pen
	penID   uint32
	penOK   bool // penID is current
	penExt  bool // the pen needs tmux's extended cell form
	charset charsetState
	saved   savedState // DECSC
	alt     altState   // 1049's saved cursor and pen
	// penASCII is penCell(0, 1) while penOK: an ASCII character's cell,
	// less the character.
	penASCII cell

	styles      []pen
	styleLimit  int // compact the table when styles grows past this
	cache       styleCache
	spareStyles []pen    // the other buffer of compactStyles
	remap       []uint32 // compactStyles' scratch
	styleGen    uint64   // advanced by compactStyles: see StyleGeneration
	links       []link
	linkIdx     map[link]uint16

	lastASCII int  // the last printed ASCII character for REP, -1 for none
	zwj       bool // a zero width joiner waits for the next character
	title     string
	titles    []string // pushed by CSI 22 t

	dirty []uint64 // one bit per row changed since ClearDirty
	fpBuf []byte   // Fingerprint's scratch buffer
	views [64]styleViewEntry
	runes [256]runeEntry

	parser parser
}

// New returns a blank screen of the given size; sizes below 1x1 are raised
// to it.
func New(width, height int, opts Options) *Screen {
	width, height = max(width, 1), max(height, 1)
	sb := opts.Scrollback
	if sb == 0 {
		sb = DefaultScrollback
	}
	s := &Screen{
		w: width, h: height,
		history:    newScrollback(sb),
		styles:     []pen{{}},
		styleLimit: minStyleLimit,
		links:      []link{{}},
		linkIdx:    map[link]uint16{},
	}
	s.lines = make([]*line, height)
	for i := range s.lines {
		s.lines[i] = newLine(width, blankCell)
	}
	s.dirty = make([]uint64, (height+63)/64)
	s.resetState()
	return s
}

// resetState sets everything but the grid contents to power-on values.
func (s *Screen) resetState() {
	s.cx, s.cy = 0, 0
	s.rupper, s.rlower = 0, s.h-1
	s.mode = modeCursor | modeWrap
	s.resetTabs()
	s.pen, s.penOK = pen{}, false
	s.charset = charsetState{}
	s.saved = savedState{}
	s.alt = altState{}
	s.lastASCII = -1
}

func (s *Screen) resetTabs() {
	if len(s.tabs) != s.w {
		s.tabs = make([]bool, s.w)
	}
	for i := range s.tabs {
		s.tabs[i] = i > 0 && i%8 == 0
	}
}

// Write feeds pane output. It accepts any bytes, split anywhere, and never
// fails.
func (s *Screen) Write(p []byte) (int, error) {
	s.parser.feed(p, s)
	return len(p), nil
}

// Size returns the width and height.
func (s *Screen) Size() (width, height int) { return s.w, s.h }

// Cursor returns the cursor.
func (s *Screen) Cursor() Cursor {
	return Cursor{X: s.cx, Y: s.cy, Visible: s.mode&modeCursor != 0}
}

// Title returns the pane title set by OSC 0 or 2.
func (s *Screen) Title() string { return s.title }

// AltScreen reports whether the alternate screen is active.
func (s *Screen) AltScreen() bool { return s.altSaved != nil }

// ScrollRegion returns the scroll region's first and last rows (inclusive).
func (s *Screen) ScrollRegion() (top, bottom int) { return s.rupper, s.rlower }

// Cell returns the cell at column x, row y of the visible screen. Out of
// range coordinates give a blank cell.
func (s *Screen) Cell(x, y int) Cell {
	if y < 0 || y >= s.h || x < 0 || x >= s.w {
		return Cell{Text: " ", Width: 1}
	}
	return s.publicCell(s.lines[y], x)
}

func (s *Screen) publicCell(l *line, x int) Cell {
	c := l.cells[x]
	st, link := s.styleView(c.style())
	return Cell{Text: s.cellText(l, c), Width: uint8(c.width()), Style: st, Link: link}
}

// Row returns the cells of visible row y.
func (s *Screen) Row(y int) []Cell { return s.AppendRow(nil, y) }

// AppendRow appends the cells of visible row y to dst. Reading a screen
// row by row into a reused slice allocates nothing but the text of
// characters beyond U+2FFF (CJK, emoji) and of combined graphemes.
func (s *Screen) AppendRow(dst []Cell, y int) []Cell {
	if y < 0 || y >= s.h {
		return dst
	}
	l := s.lines[y]
	for x := 0; x < s.w; x++ {
		c := l.cells[x]
		st, link := s.styleView(c.style())
		dst = append(dst, Cell{Text: s.cellText(l, c), Width: uint8(c.width()), Style: st, Link: link})
	}
	return dst
}

// styleView returns the public form of style id, from a small cache: a
// tcell.Style is built by a dozen copies of a 72-byte value, and one with a
// link allocates.
func (s *Screen) styleView(id uint32) (Style, string) {
	e := &s.views[id%uint32(len(s.views))]
	if !e.ok || e.id != id {
		p := s.styles[id]
		*e = styleViewEntry{id: id, ok: true, st: p.style(s.links), link: s.links[p.link].uri}
	}
	return e.st, e.link
}

// cellText is l.text(c) with a small cache for the characters beyond the
// package's string table (CJK and emoji repeat within a screen).
func (s *Screen) cellText(l *line, c cell) string {
	if c.isExt() || c.isPad() || c.isACS() || c.rune() < tableRunes {
		return l.text(c)
	}
	r := c.rune()
	e := &s.runes[uint32(r)%uint32(len(s.runes))]
	if e.s == "" || e.r != r {
		e.r, e.s = r, string(r)
	}
	return e.s
}

type runeEntry struct {
	r rune
	s string
}

type styleViewEntry struct {
	id   uint32
	ok   bool
	st   Style
	link string
}

// Wrapped reports whether visible row y continues on the next row because
// text wrapped there (tmux's GRID_LINE_WRAPPED).
func (s *Screen) Wrapped(y int) bool {
	return y >= 0 && y < s.h && s.lines[y].wrapped
}

// ScrollbackLen returns how many scrollback lines are kept.
func (s *Screen) ScrollbackLen() int { return s.history.n }

// ScrollbackRow returns scrollback line i, 0 being the oldest. A line keeps
// the width it had when it scrolled off.
func (s *Screen) ScrollbackRow(i int) []Cell {
	if i < 0 || i >= s.history.n {
		return nil
	}
	l := s.history.at(i)
	out := make([]Cell, l.w)
	for x := range out {
		out[x] = s.publicCell(l, x)
	}
	return out
}

// String renders the visible screen as plain text, for debugging.
func (s *Screen) String() string {
	return fmt.Sprintf("vt.Screen %dx%d cursor %d,%d\n%s", s.w, s.h, s.cx, s.cy, s.PlainText(s.Bounds()))
}
