package vt

import "unicode/utf8"

// Printing follows tmux 3.3a's two paths: runs of plain ASCII are written
// as a block (screen_write_collect_add/_end) while autowrap is on, insert
// mode is off and the DEC graphics set is not selected; everything else is
// written cell by cell (screen_write_cell), with wide-character padding,
// combining characters and the zero width joiner.

const (
	zwj          = '\u200d'
	maxCellBytes = 21 // tmux's UTF8_SIZE: a cell's text, combining marks included
)

var acsRune [128]rune

func init() {
	for i, g := range acsGlyph {
		if g != "" {
			acsRune[i], _ = utf8.DecodeRuneInString(g)
		}
	}
}

func (s *Screen) printASCII(data []byte) int {
	if s.charset.active() || s.mode&modeWrap == 0 || s.mode&modeInsert != 0 {
		n := asciiRun(data)
		acs := s.charset.active()
		for _, b := range data[:n] {
			s.printCell(rune(b), 1, acs)
		}
		return n
	}
	n := 0
	for {
		if s.cx > s.w-1 {
			s.lineFeed(true, colorDefault)
			s.setCursor(0, -1)
		}
		n += s.writeRun(data[n:])
		if n == len(data) || !isPrintASCII(data[n]) {
			return n
		}
	}
}

// writeRun is screen_write_collect_end for the printable ASCII data starts
// with, up to the end of the cursor's row; it returns how many bytes it
// wrote. The run's end is found as it is written, in one pass. This is
// the hottest path of the package: the rare cases (wide characters under
// the run's ends) are out of line, the common ones are not.
func (s *Screen) writeRun(data []byte) int {
	l := s.lines[s.cy]
	cx, w := s.cx, s.w
	cells := l.cells[:w]
	if cells[cx].width() != 1 {
		s.cutWideAt(l, cx)
	}
	if !s.penOK {
		s.refreshPen()
	}
	proto := s.penASCII
	dst := cells[cx:]
	if len(data) < len(dst) {
		dst = dst[:len(data)]
	}
	src := data[:len(dst)]
	n := 0
	for n < len(dst) && isPrintASCII(src[n]) {
		c := proto
		c.lo = uint16(src[n])
		c.hi |= dst[n].hi & gridExtFlag
		dst[n] = c
		n++
	}
	l.wrote(cx, n)
	end := cx + n
	s.cx = end
	if end < w && cells[end].isPad() {
		s.erasePadding(l, end)
	}
	s.markDirty(s.cy)
	return n
}

// writeRunes writes width-1 characters beyond ASCII that fit on the
// cursor's row. tmux writes each through screen_write_cell, so each gets
// its own overwrite check: a wide character cut in half is blanked, but
// padding left over from an earlier erase is kept (unlike the ASCII run's
// end, see writeRun).
func (s *Screen) writeRunes(run []rune) {
	l := s.lines[s.cy]
	dst := l.cells[s.cx : s.cx+len(run)]
	for _, c := range dst {
		if c.width() != 1 {
			// A wide character or padding under the run: each character's
			// overwrite check matters.
			for _, r := range run {
				s.overwrite(1)
				l.set(s.cx, s.penCell(r, 1))
				s.cx++
			}
			s.markDirty(s.cy)
			return
		}
	}
	// Only narrow cells under the run: no overwrite check has work to do.
	proto := s.penCell(0, 1)
	for i, r := range run {
		c := proto
		c.lo, c.hi = uint16(r), c.hi|uint16(r>>16&0x1f)|dst[i].hi&gridExtFlag
		dst[i] = c
	}
	l.wrote(s.cx, len(run))
	s.cx += len(run)
	s.markDirty(s.cy)
}

// cutWideAt erases a wide character whose padding a run starts on, or
// that the run starts on.
func (s *Screen) cutWideAt(l *line, cx int) {
	if cx == 0 {
		return
	}
	xx := cx
	c := l.cells[xx]
	for ; xx > 0; xx-- {
		c = l.cells[xx]
		if !c.isPad() {
			break
		}
		l.set(xx, blankCell)
	}
	if c.isWide() {
		l.set(xx, blankCell)
	}
}

// erasePadding erases the padding from x on, left over from a wide
// character a run ended inside.
func (s *Screen) erasePadding(l *line, x int) {
	for ; x < s.w && l.cells[x].isPad(); x++ {
		l.set(x, blankCell)
	}
}

// printNarrow prints decoded non-ASCII characters of width 1. They take
// tmux's cell-by-cell path; while nothing makes that path differ from a
// run (a pending zero width joiner, insert mode, no autowrap), they are
// written as a run.
func (s *Screen) printNarrow(run []rune) {
	if s.zwj || s.mode&modeWrap == 0 || s.mode&modeInsert != 0 {
		for _, r := range run {
			s.printCell(r, 1, false)
		}
		return
	}
	for len(run) > 0 {
		if s.cx > s.w-1 {
			s.lineFeed(true, colorDefault)
			s.setCursor(0, -1)
		}
		n := min(len(run), s.w-s.cx)
		s.writeRunes(run[:n])
		run = run[n:]
	}
}

// printRune prints a decoded non-ASCII character.
func (s *Screen) printRune(r rune, width int) {
	if width == 2 && s.printWide(r) {
		return
	}
	s.printCell(r, width, false)
}

// printWide is printCell for a wide character in the common case, where
// most of its steps have nothing to do: no joiner pending, autowrap on,
// insert mode off, room left on the row, and no wide character cut in
// half at either end. It reports whether it printed r.
func (s *Screen) printWide(r rune) bool {
	cx, w := s.cx, s.w
	if s.zwj || s.mode&(modeWrap|modeInsert) != modeWrap || cx+2 > w {
		return false
	}
	l := s.lines[s.cy]
	cells := l.cells[:w]
	if cells[cx].isPad() || (cx+2 < w && cells[cx+2].isPad()) {
		return false
	}
	l.set(cx+1, padCell)
	l.set(cx, s.penCell(r, 2))
	s.markDirty(s.cy)
	s.cx = cx + 2
	return true
}

// printCell is screen_write_cell.
func (s *Screen) printCell(r rune, width int, acs bool) {
	if r == zwj {
		s.zwj = true
		return
	}
	if s.zwj {
		s.combine(zwj)
	}
	if width == 0 || s.zwj {
		s.zwj = false
		s.combine(r)
		return
	}
	w := s.w
	wrap := s.mode&modeWrap != 0
	if !wrap && width > 1 && (width > w || (s.cx != w && s.cx > w-width)) {
		return // does not fit and may not wrap
	}
	if s.mode&modeInsert != 0 {
		if s.cx >= w-1 {
			s.clear(s.cx, s.cy, 1, 1, colorDefault)
		} else {
			s.moveCells(s.cy, s.cx+width, s.cx, w-s.cx-width, colorDefault)
		}
	}
	// tmux compares against sx - width in unsigned arithmetic: on a
	// one-column screen a wide character neither wraps nor is refused.
	fits := w - width
	if wrap && fits >= 0 && s.cx > fits {
		s.lineFeed(true, colorDefault)
		s.setCursor(0, -1)
	}
	if (fits >= 0 && s.cx > fits) || s.cy > s.h-1 {
		return
	}
	// On a one-column screen a wide character may land past the edge (see
	// cellsFor); the cursor then comes back to the last column.
	l := s.lines[s.cy]
	changed := s.overwrite(width) || s.mode&modeInsert != 0
	for xx := s.cx + 1; xx < s.cx+width; xx++ {
		l.set(xx, padCell)
		changed = true
	}
	c := s.penCell(r, width)
	if acs {
		c.hi |= acsFlag
	}
	if changed || !s.unchanged(l, s.cx, c) {
		l.set(s.cx, c)
	}
	s.markDirty(s.cy)
	last := 0
	if !wrap {
		last = 1
	}
	if lim := w - last - width; lim < 0 || s.cx <= lim {
		s.setCursor(s.cx+width, -1) // setCursor clamps past the width to w-1
	} else {
		s.setCursor(w-last, -1)
	}
}

// unchanged is screen_write_cell's "no change, do not draw" check: a
// single-byte cell equal to what is stored is not written (nor counted as
// used). Like tmux, it compares data, attributes and colours but neither
// the underline colour nor, past the row's allocated cells, anything but
// the default cell; an erased or extended cell is never equal.
func (s *Screen) unchanged(l *line, x int, c cell) bool {
	if c.width() != 1 || c.isExt() || c.rune() >= 0x80 {
		return false
	}
	p := s.styles[c.style()]
	if int32(x) >= l.size {
		return c.rune() == ' ' && !c.isACS() && p.fg == colorDefault && p.bg == colorDefault && p.attr == 0
	}
	old := l.cells[x]
	if old.cleared() || old.gridExt() || old.isPad() || old.isExt() || old.rune() != c.rune() || old.isACS() != c.isACS() {
		return false
	}
	q := s.styles[old.style()]
	return p.fg == q.fg && p.bg == q.bg && p.attr == q.attr
}

// overwrite is screen_write_overwrite: before a character of the given
// width lands at the cursor, erase the wide characters it cuts in half. It
// reports whether it erased anything.
func (s *Screen) overwrite(width int) bool {
	l := s.lines[s.cy]
	now := l.cells[s.cx]
	done := false
	if now.isPad() {
		xx := s.cx + 1
		for xx--; xx > 0; xx-- {
			if !l.cells[xx].isPad() {
				break
			}
			l.set(xx, blankCell)
		}
		l.set(xx, blankCell)
		done = true
	}
	if width != 1 || now.width() != 1 {
		for xx := s.cx + width; xx < s.w && l.cells[xx].isPad(); xx++ {
			l.set(xx, blankCell)
			done = true
		}
	}
	return done
}

// combine is screen_write_combine: append r to the character left of the
// cursor (skipping padding), keeping that cell's width and style.
func (s *Screen) combine(r rune) {
	if s.cx == 0 {
		return
	}
	l := s.lines[s.cy]
	x := s.cx - 1
	for x >= 0 && l.cells[x].isPad() {
		x--
	}
	if x < 0 {
		return
	}
	var buf [maxCellBytes + utf8.UTFMax]byte
	text := rawText(buf[:0], l, l.cells[x])
	if len(text)+utf8.RuneLen(r) > maxCellBytes {
		return
	}
	text = utf8.AppendRune(text, r)
	l.setText(x, string(text))
	l.wrote(x, 1)
	s.markDirty(s.cy)
}

// rawText appends a cell's text as tmux stores it: DEC graphics cells
// keep their ASCII byte.
func rawText(dst []byte, l *line, c cell) []byte {
	if c.isExt() {
		return append(dst, l.raw(c)...)
	}
	return utf8.AppendRune(dst, c.rune())
}

// repeat is REP: print the last ASCII character n more times, at most to
// the end of the row.
func (s *Screen) repeat(n int) {
	n = min(n, s.w-s.cx)
	ch := s.parser.last
	if ch == 0 || n <= 0 {
		return
	}
	s.parser.utf8.reset()
	one := [1]byte{ch}
	for i := 0; i < n; i++ {
		s.printASCII(one[:])
	}
}
