package recognizers

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// Grid is the recognizers' snapshot of a vt screen: every cell in vt's
// compact form (character, width, style handle), each row's first and last
// non-blank column, and a table of the styles the handles resolve to.
// Profiles read only the grid (and through it the text of the rare cells
// holding several code points), so a recognition reads each screen row
// once, and a Recognizer re-reads only the rows the screen marked dirty.
//
// A screen's style handles are cheap to compare but not canonical (its
// table may hold one rendition twice) and void once the screen compacts
// its table, so the grid maps each handle, once per style generation and
// only when a profile asks about it, to an index into its own table, which
// holds every rendition once: equal indexes are equal styles and the
// reverse.
type Grid struct {
	w, h    int
	rows    []grow
	changed []bool // rows read by the last load
	styles  []styleInfo
	byStyle map[vt.Style]uint16 // index in styles of each rendition
	ids     []uint16            // screen handle -> 1 + index in styles; 0 not yet resolved
	scr     *vt.Screen          // the screen the rows were read from; ids are of its generation gen
	gen     uint64
	cursor  vt.Cursor
	alt     bool
	trace   *tracer // records the profile's checks (--explain); nil otherwise
}

// ReadGrid reads the whole of scr into a new grid: for tests and tools
// that run a part of a grammar on a screen (Recognize and Recognizer keep
// their own grids).
func ReadGrid(scr *vt.Screen) *Grid {
	g := new(Grid)
	g.load(scr, true)
	return g
}

// Cell is a cell as vt reads it out: the grid stores rows as they come.
type Cell = vt.RowCell

type grow struct {
	cells       []Cell
	first, last int // first and last non-blank column; -1 on a blank row
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
// changed, when the handles read before are void (another screen, or its
// style table was compacted) or the grid's table was rebuilt; otherwise
// only the dirty rows.
func (g *Grid) load(scr *vt.Screen, all bool) {
	w, h := scr.Size()
	if w != g.w || h != g.h {
		g.resize(w, h)
		all = true
	}
	if scr != g.scr || scr.StyleGeneration() != g.gen || len(g.styles) > maxStyles {
		g.resetStyles(scr)
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

// resetStyles forgets every handle and style: rows must be read again.
func (g *Grid) resetStyles(scr *vt.Screen) {
	g.scr, g.gen = scr, scr.StyleGeneration()
	clear(g.ids)
	g.styles = g.styles[:0]
	if g.byStyle == nil {
		g.byStyle = make(map[vt.Style]uint16)
	}
	clear(g.byStyle)
}

func (g *Grid) resize(w, h int) {
	g.w, g.h = w, h
	if cap(g.rows) >= h {
		g.rows, g.changed = g.rows[:h], g.changed[:h]
	} else {
		g.rows, g.changed = make([]grow, h), make([]bool, h)
	}
}

// changedIn reports whether the last load read any row of r.
func (g *Grid) changedIn(r Region) bool {
	for y := max(r.Top, 0); y <= r.Bottom() && y < g.h; y++ {
		if g.changed[y] {
			return true
		}
	}
	return false
}

// loadRow copies row y and finds its first and last non-blank columns
// from either end: the blank margins are all it looks at, and their
// default spaces are told apart inline.
func (g *Grid) loadRow(scr *vt.Screen, y int) {
	r := &g.rows[y]
	r.cells = scr.AppendRowCells(r.cells[:0], y)
	r.first, r.last = -1, -1
	// Runs of default spaces are skipped many cells at a time: most rows
	// are blank or short.
	cells := r.cells
	for x := 0; x < len(cells); x++ {
		if x += vt.LeadingSpaces(cells[x:]); x < len(cells) && !g.blankStyled(cells[x]) {
			r.first = x
			break
		}
	}
	if r.first < 0 {
		return
	}
	for x := len(cells) - 1; x >= r.first; x-- {
		if x -= vt.TrailingSpaces(cells[:x+1]); x >= r.first && !g.blankStyled(cells[x]) {
			r.last = x
			break
		}
	}
}

// sid returns the grid's style index of a loaded cell.
func (g *Grid) sid(c Cell) uint16 {
	if id := c.Style(); int(id) < len(g.ids) && g.ids[id] != 0 {
		return g.ids[id] - 1
	}
	return g.resolve(c.Style())
}

// resolve maps a handle of the screen's current style generation to the
// grid's index of its style, adding the style if it is new.
func (g *Grid) resolve(id vt.StyleID) uint16 {
	if int(id) >= len(g.ids) {
		g.ids = append(g.ids, make([]uint16, int(id)+1-len(g.ids))...)
	}
	s := g.scr.StyleOf(id)
	i, ok := g.byStyle[s]
	if !ok {
		_, bg, attr := s.Decompose()
		paints := bg != tcell.ColorDefault || attr&(tcell.AttrReverse|tcell.AttrStrikeThrough) != 0 ||
			s.GetUnderlineStyle() != tcell.UnderlineStyleNone
		g.styles = append(g.styles, styleInfo{s: s, paints: paints})
		i = uint16(len(g.styles) - 1)
		g.byStyle[s] = i
	}
	g.ids[id] = i + 1
	return i
}

// StyleOf returns the style of a loaded cell.
func (g *Grid) StyleOf(c Cell) vt.Style { return g.styles[g.sid(c)].s }

// StyleMatch tests cells against one style, comparing indexes once the
// style's index is known (a style no cell resolved to yet has none).
type StyleMatch struct {
	s    vt.Style
	want uint16
	ok   bool
}

// Match returns the matcher of cells in style s: in a loop over cells,
// Matches then compares style indexes, not Style values.
func (g *Grid) Match(s vt.Style) StyleMatch {
	want, ok := g.byStyle[s]
	return StyleMatch{s: s, want: want, ok: ok}
}

// Matches reports whether a loaded cell has m's style.
func (g *Grid) Matches(m *StyleMatch, c Cell) bool {
	i := g.sid(c)
	if !m.ok && g.styles[i].s == m.s {
		m.want, m.ok = i, true
	}
	return m.ok && i == m.want
}

// StyleSet tests cells against a set of styles by the cell's style
// index, remembering the answer for the last index: cells come in runs of
// one style, and comparing Style values is most of the cost.
type StyleSet struct {
	set  []vt.Style
	last int
	in   bool
}

// NewStyleSet returns the set of styles set, for InSet.
func NewStyleSet(set []vt.Style) StyleSet { return StyleSet{set: set, last: -1} }

// InSet reports whether a loaded cell has one of m's styles.
func (g *Grid) InSet(m *StyleSet, c Cell) bool {
	if i := int(g.sid(c)); i != m.last {
		m.last, m.in = i, slices.Contains(m.set, g.styles[i].s)
	}
	return m.in
}

// isSpaceCell reports whether a cell shows a space. A no-break space is
// one too (Claude draws one after its prompt glyph), and so is the padding
// cell of a wide character; a space with combining marks is not.
func isSpaceCell(c Cell) bool {
	if c.Multi() {
		return false
	}
	r := c.Rune()
	return r == ' ' || r == '\u00a0' || c.Width() == 0
}

// BlankCell reports whether a cell shows nothing: a space in a style that
// does not paint. Most blank cells are default spaces, told at once.
func (g *Grid) BlankCell(c Cell) bool { return c.DefaultSpace() || g.blankStyled(c) }

func (g *Grid) blankStyled(c Cell) bool {
	return isSpaceCell(c) && (c.Style() == 0 || !g.styles[g.sid(c)].paints)
}

// Cell returns the cell at x, y; outside the grid a blank cell.
func (g *Grid) Cell(x, y int) Cell {
	if y < 0 || y >= g.h || x < 0 || x >= g.w {
		return outside
	}
	return g.rows[y].cells[x]
}

var outside = vt.MakeRowCell(' ', 1, 0, false)

// SpaceAt reports whether the cell at x, y shows a space.
func (g *Grid) SpaceAt(x, y int) bool { return isSpaceCell(g.Cell(x, y)) }

// StyleAt returns the style of the cell at x, y.
func (g *Grid) StyleAt(x, y int) vt.Style {
	if y < 0 || y >= g.h || x < 0 || x >= g.w {
		return vt.DefaultStyle
	}
	return g.StyleOf(g.rows[y].cells[x])
}

// Rune returns the first character of the cell at x, y (0 for a padding
// cell).
func (g *Grid) Rune(x, y int) rune { return g.Cell(x, y).Rune() }

// Blank reports whether row y shows nothing. Blank, First and Last are
// total: a row outside the grid is blank, its first and last columns -1
// (profiles look past edges freely).
func (g *Grid) Blank(y int) bool { return y < 0 || y >= g.h || g.rows[y].first < 0 }

// First is row y's first non-blank column, or -1.
func (g *Grid) First(y int) int {
	if y < 0 || y >= g.h {
		return -1
	}
	return g.rows[y].first
}

// Last is row y's last non-blank column, or -1.
func (g *Grid) Last(y int) int {
	if y < 0 || y >= g.h {
		return -1
	}
	return g.rows[y].last
}

// LastRow returns the bottom-most non-blank row, or -1.
func (g *Grid) LastRow() int {
	for y := g.h - 1; y >= 0; y-- {
		if !g.Blank(y) {
			return y
		}
	}
	return -1
}

// Text returns the text of columns x0 to x1-1 of row y, padding cells
// skipped and no-break spaces as spaces. It allocates: callers use it to
// build labels, not to test.
func (g *Grid) Text(y, x0, x1 int) string {
	if y < 0 || y >= g.h {
		return ""
	}
	x0, x1 = max(x0, 0), min(x1, g.w)
	// A row's text fits on the stack (a cell is 1 to 3 bytes, but for
	// combining marks); string(b) copies it once.
	var buf [512]byte
	b := buf[:0]
	for x := x0; x < x1; x++ {
		switch c := g.rows[y].cells[x]; {
		case c.Multi():
			// The screen still shows what the grid read: rows are read
			// again whenever they change, and text is built while
			// recognizing, after the read.
			b = append(b, g.scr.CellText(x, y)...)
		case c.Width() == 0:
		case c.Rune() == '\u00a0':
			b = append(b, ' ')
		default:
			b = utf8.AppendRune(b, c.Rune())
		}
	}
	return string(b)
}

// Trimmed returns row y's text from its first to its last non-blank cell,
// without edge spaces (a highlight may paint them).
func (g *Grid) Trimmed(y int) string {
	if g.Blank(y) {
		return ""
	}
	return strings.TrimSpace(g.Text(y, g.rows[y].first, g.rows[y].last+1))
}

// TextFrom returns row y's text from column x to its last non-blank cell,
// without trailing spaces.
func (g *Grid) TextFrom(y, x int) string {
	if g.Blank(y) || x > g.rows[y].last {
		return ""
	}
	return strings.TrimRight(g.Text(y, x, g.rows[y].last+1), " ")
}

// HasAt reports whether row y shows s starting at column x (wide
// characters count two columns). It does not allocate.
func (g *Grid) HasAt(y, x int, s string) bool {
	ok, at, want := g.TextAt(y, x, s)
	if g.trace != nil {
		g.trace.add("hasAt", y, ok, g.textDiff(ok, y, at, want))
	}
	return ok
}

// TextAt is HasAt, untraced, with the column and character where it
// fails.
func (g *Grid) TextAt(y, x int, s string) (ok bool, at int, want rune) {
	if y < 0 || y >= g.h {
		return false, x, 0
	}
	for _, r := range s {
		if x >= g.w {
			return false, x, r
		}
		c := g.rows[y].cells[x]
		if cr := c.Rune(); c.Width() == 0 || cr != r && !(r == ' ' && cr == '\u00a0') {
			return false, x, r
		}
		x += max(c.Width(), 1)
	}
	return true, x, 0
}

// textDiff is a failed text check's first differing cell.
func (g *Grid) textDiff(ok bool, y, x int, want rune) *CellDiff {
	if ok {
		return nil
	}
	got := "(off the screen)"
	if y >= 0 && y < g.h && x < g.w {
		got = g.Text(y, x, x+1)
	}
	return &CellDiff{Col: x, Expected: string(want), Got: got}
}

// RowIs reports whether row y's non-blank text is exactly s starting at
// column x.
func (g *Grid) RowIs(y, x int, s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	ok, at, want := false, x, first
	switch {
	case g.Blank(y):
	case g.rows[y].first != x:
		// They differ first where the row starts or where s would.
		if at = min(x, g.rows[y].first); at != x {
			want = ' '
		}
	default:
		ok, at, want = g.TextAt(y, x, s)
		if ok && g.rows[y].last != x+DisplayWidth(s)-1 {
			ok, at, want = false, x+DisplayWidth(s), ' '
		}
	}
	if g.trace != nil {
		g.trace.add("rowIs", y, ok, g.textDiff(ok, y, at, want))
	}
	return ok
}

// Styled reports whether every non-blank cell of columns x0..x1-1 of row y
// has style s.
func (g *Grid) Styled(y, x0, x1 int, s vt.Style) bool {
	if y < 0 || y >= g.h {
		return true
	}
	m := g.Match(s)
	for x := max(x0, 0); x < min(x1, g.w); x++ {
		c := g.rows[y].cells[x]
		if c.DefaultSpace() {
			continue
		}
		// blankStyled and is, with the cell's style index looked up once.
		i := g.sid(c)
		if isSpaceCell(c) && (c.Style() == 0 || !g.styles[i].paints) {
			continue
		}
		if !m.ok && g.styles[i].s == m.s {
			m.want, m.ok = i, true
		}
		if !m.ok || i != m.want {
			if g.trace != nil {
				g.trace.add("styled", y, false, &CellDiff{Col: x, Expected: styleName(s), Got: styleName(g.styles[i].s)})
			}
			return false
		}
	}
	if g.trace != nil {
		g.trace.add("styled", y, true, nil)
	}
	return true
}

// Rule reports whether row y is a full-width rule of ch in style s; width
// is the length of its leading run of ch in style s.
func (g *Grid) Rule(y int, ch rune, s vt.Style) (full bool, width int) {
	if y < 0 || y >= g.h {
		return false, 0
	}
	m := g.Match(s)
	for x := 0; x < g.w; x++ {
		c := g.rows[y].cells[x]
		if c.Width() == 0 || c.Rune() != ch || !g.Matches(&m, c) {
			break
		}
		width++
	}
	if g.trace != nil {
		var d *CellDiff
		if width < g.w {
			got := g.Text(y, width, width+1) + " " + styleName(g.StyleOf(g.rows[y].cells[width]))
			d = &CellDiff{Col: width, Expected: string(ch) + " " + styleName(s), Got: got}
		}
		g.trace.add("rule", y, width == g.w, d)
	}
	return width == g.w, width
}

// DisplayWidth is the column width of s as vt lays it out.
func DisplayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += max(vt.RuneWidth(r), 0)
	}
	return n
}

// StyledLinked reports whether every non-blank cell of row y has style s,
// an OSC 8 link or not (an error's URLs are links on 2.1.332).
func (g *Grid) StyledLinked(y int, s vt.Style) bool {
	for x := 0; x < g.w; x++ {
		if c := g.Cell(x, y); !g.BlankCell(c) && g.StyleOf(c).WithoutLink() != s {
			return false
		}
	}
	return true
}

// StyledEither reports whether every non-blank cell of row y from column
// x0 has style a or b. Cells come in runs of one style handle: each run's
// style is looked up once.
func (g *Grid) StyledEither(y, x0 int, a, b vt.Style) bool {
	if y < 0 || y >= g.h {
		return true
	}
	ma, mb := g.Match(a), g.Match(b)
	var handle vt.StyleID
	in, paints, seen := false, false, false
	for x := max(x0, 0); x <= g.rows[y].last; x++ {
		c := g.rows[y].cells[x]
		if c.DefaultSpace() {
			continue
		}
		if !seen || c.Style() != handle {
			handle, seen = c.Style(), true
			in = g.Matches(&ma, c) || g.Matches(&mb, c)
			paints = handle != 0 && g.styles[g.sid(c)].paints
		}
		if !in && (paints || !isSpaceCell(c)) {
			return false
		}
	}
	return true
}

// HasReverse reports whether a cell of row y is in reverse video. Cells
// come in runs of one style handle: each run's style is looked up once.
func (g *Grid) HasReverse(y int) bool {
	if g.Blank(y) {
		return false
	}
	var handle vt.StyleID
	seen, rev := false, false
	for x := g.rows[y].first; x <= g.rows[y].last; x++ {
		c := g.rows[y].cells[x]
		if c.Style() == 0 {
			continue
		}
		if !seen || c.Style() != handle {
			handle, seen = c.Style(), true
			_, _, attr := g.StyleOf(c).Decompose()
			rev = attr&tcell.AttrReverse != 0
		}
		if rev {
			return true
		}
	}
	return false
}

// Width is the screen's width in cells.
func (g *Grid) Width() int { return g.w }

// Height is the screen's height in rows.
func (g *Grid) Height() int { return g.h }

// Cursor is the screen's cursor when it was loaded.
func (g *Grid) Cursor() vt.Cursor { return g.cursor }
