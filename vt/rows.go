package vt

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"
)

// Compact row reading: readers that scan whole screens again and again
// (the recognizers) need a cell's character, width and "same style as that
// cell?" far more often than the style itself. A Cell builds a 72-byte
// tcell.Style and a string per cell; a RowCell is the stored 6-byte cell,
// its style a handle into the screen's style table that is resolved to a
// Style only when the reader needs one. Reading a row is then a copy.

// StyleID is a handle on a style in a screen's style table. Handles are
// cheap to compare: two cells with the same StyleID of the same generation
// have the same Style. The converse does not hold (the table may hold one
// rendition twice), so a reader that needs "same style" for cells with
// different handles resolves both. A handle is valid, and comparable with
// others, only within the StyleGeneration it was read in.
type StyleID uint32

// RowCell is a cell in compact form. Its methods unpack it.
type RowCell struct{ c cell }

// Rune is the first character the cell shows (after the DEC special
// graphics mapping), 0 for the padding cell right of a wide character.
func (r RowCell) Rune() rune {
	ch := r.c.rune()
	if r.c.hi&acsFlag != 0 && ch < 128 && acsRune[ch] != 0 {
		return acsRune[ch]
	}
	return ch
}

// Width is 1, 2, or 0 for a padding cell.
func (r RowCell) Width() int { return r.c.width() }

// Style is the cell's style handle.
func (r RowCell) Style() StyleID { return StyleID(r.c.style()) }

// Multi reports whether the cell shows several code points (a character
// with combining marks, a joined emoji): CellText returns all of them.
func (r RowCell) Multi() bool { return r.c.isExt() }

// DefaultSpace reports whether the cell is a space of width 1 in the
// default style: most of a screen, told apart at once. It is a fast test,
// not a complete one: a default space printed in the line-drawing set
// gives false.
func (r RowCell) DefaultSpace() bool {
	return r.c.lo == ' ' && r.c.slo == 0 && r.c.hi&^(clearedFlag|gridExtFlag) == 1<<6
}

// The words of four default spaces (24 bytes, three little-endian
// uint64s, lo hi slo per cell) and the mask that keeps what DefaultSpace
// tests: every bit but the cleared and grid-extended flags of each hi.
var (
	spaceWords, spaceMasks = func() (w, m [3]uint64) {
		var b, mb [24]byte
		for i := range 4 {
			binary.LittleEndian.PutUint16(b[6*i:], ' ')
			binary.LittleEndian.PutUint16(b[6*i+2:], 1<<6)
			binary.LittleEndian.PutUint16(mb[6*i:], 0xffff)
			binary.LittleEndian.PutUint16(mb[6*i+2:], 0xffff&^(clearedFlag|gridExtFlag))
			binary.LittleEndian.PutUint16(mb[6*i+4:], 0xffff)
		}
		for i := range 3 {
			w[i] = binary.LittleEndian.Uint64(b[8*i:])
			m[i] = binary.LittleEndian.Uint64(mb[8*i:])
		}
		return w, m
	}()
)

// fourSpaces reads a RowCell as 6 bytes: a compile error if that changes.
var _ = [1]struct{}{}[unsafe.Sizeof(RowCell{})-6]

// rowBytes is the memory of cells: RowCell is a struct of three uint16s,
// without padding.
func rowBytes(cells []RowCell) []byte {
	if len(cells) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&cells[0])), len(cells)*int(unsafe.Sizeof(RowCell{})))
}

// fourSpaces reports whether the 24 bytes at b are four DefaultSpace cells.
func fourSpaces(b []byte) bool {
	_ = b[23]
	return binary.LittleEndian.Uint64(b)&spaceMasks[0] == spaceWords[0] &&
		binary.LittleEndian.Uint64(b[8:])&spaceMasks[1] == spaceWords[1] &&
		binary.LittleEndian.Uint64(b[16:])&spaceMasks[2] == spaceWords[2]
}

// LeadingSpaces is how many cells at the start of cells are DefaultSpace:
// the same answer as testing each, four cells at a time (most of a screen
// is default spaces, and readers look for where a row's text starts).
func LeadingSpaces(cells []RowCell) int {
	b := rowBytes(cells)
	n := 0
	for ; n+4 <= len(cells) && fourSpaces(b[6*n:]); n += 4 {
	}
	for ; n < len(cells) && cells[n].DefaultSpace(); n++ {
	}
	return n
}

// TrailingSpaces is how many cells at the end of cells are DefaultSpace.
func TrailingSpaces(cells []RowCell) int {
	b := rowBytes(cells)
	n := len(cells)
	for ; n >= 4 && fourSpaces(b[6*(n-4):]); n -= 4 {
	}
	for ; n > 0 && cells[n-1].DefaultSpace(); n-- {
	}
	return len(cells) - n
}

// MakeRowCell returns a RowCell of one character, for readers' tests and
// for cells outside a screen. A rune outside Unicode becomes U+FFFD.
func MakeRowCell(ch rune, width int, style StyleID, multi bool) RowCell {
	if !utf8.ValidRune(ch) {
		ch = '\uFFFD'
	}
	c := mkcell(ch, min(max(width, 0), 2), uint32(min(style, maxStyleIndex)))
	if multi {
		c.hi |= extFlag
	}
	return RowCell{c}
}

// StyleGeneration changes whenever the style table is renumbered (it is
// compacted once it outgrows the styles cells still use): StyleIDs read
// before then are void. Within one generation StyleIDs only get added.
func (s *Screen) StyleGeneration() uint64 { return s.styleGen }

// StyleOf resolves a handle of the current generation to its Style (with
// its link, if any, as tcell.Style carries it). A handle out of range
// gives DefaultStyle.
func (s *Screen) StyleOf(id StyleID) Style {
	if int(id) >= len(s.styles) {
		return DefaultStyle
	}
	st, _ := s.styleView(uint32(id))
	return st
}

// AppendRowCells appends the compact cells of visible row y to dst (none
// for a row outside the screen). It allocates nothing beyond growing dst.
func (s *Screen) AppendRowCells(dst []RowCell, y int) []RowCell {
	if y < 0 || y >= s.h {
		return dst
	}
	l := s.lines[y]
	n := len(dst)
	dst = slices.Grow(dst, s.w)[:n+s.w]
	out := dst[n:]
	// A RowCell is a struct of one cell: the same memory layout, so the
	// row is read out with one copy (a loop of 6-byte struct copies costs
	// ten times as much, and the recognizers read whole screens).
	copy(out, unsafe.Slice((*RowCell)(unsafe.Pointer(&l.cells[0])), s.w))
	if len(l.ext) == 0 {
		return dst // no cell holds a grapheme of several code points
	}
	for x, c := range out {
		if c.c.isExt() {
			out[x] = RowCell{graphemeCell(l, c.c)}
		}
	}
	return dst
}

// graphemeCell is a cell holding a grapheme as a RowCell carries it: the
// character field holds the grapheme's first code point, already mapped to
// its line-drawing glyph, in place of its index in the line's table.
func graphemeCell(l *line, c cell) cell {
	r, _ := utf8.DecodeRuneInString(l.raw(c))
	if c.isACS() && r < 128 && acsRune[r] != 0 {
		r = acsRune[r]
	}
	c.hi &^= acsFlag
	c.setCh(uint32(r) & chMask)
	return c
}

// CellText returns the text of the cell at x, y as Cell would, without
// building its style; out of range it is " ".
func (s *Screen) CellText(x, y int) string {
	if y < 0 || y >= s.h || x < 0 || x >= s.w {
		return " "
	}
	l := s.lines[y]
	return s.cellText(l, l.cells[x])
}
