package vt

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
)

// Rect is a rectangle of cells: columns X to X+W-1, rows Y to Y+H-1.
type Rect struct{ X, Y, W, H int }

// Bounds is the whole visible screen.
func (s *Screen) Bounds() Rect { return Rect{0, 0, s.w, s.h} }

// clip limits r to the screen.
func (s *Screen) clip(r Rect) Rect {
	x0, y0 := max(r.X, 0), max(r.Y, 0)
	x1, y1 := min(r.X+r.W, s.w), min(r.Y+r.H, s.h)
	if x1 <= x0 || y1 <= y0 {
		return Rect{x0, y0, 0, 0}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// PlainText renders r as text: one line per row, padding cells skipped,
// trailing spaces trimmed.
func (s *Screen) PlainText(r Rect) string {
	r = s.clip(r)
	var b []byte
	for y := r.Y; y < r.Y+r.H; y++ {
		if y > r.Y {
			b = append(b, '\n')
		}
		l := s.lines[y]
		for x := r.X; x < r.X+r.W; x++ {
			b = append(b, l.text(l.cells[x])...)
		}
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	return string(b)
}

// ANSI renders r with SGR sequences in the vocabulary of tmux's
// capture-pane -e (one sequence per attribute, the pen carried across
// rows), so the result can be compared with a capture or replayed.
func (s *Screen) ANSI(r Rect) string {
	r = s.clip(r)
	var b strings.Builder
	cur := pen{}
	for y := r.Y; y < r.Y+r.H; y++ {
		if y > r.Y {
			b.WriteByte('\n')
		}
		l := s.lines[y]
		for x := r.X; x < r.X+r.W; x++ {
			c := l.cells[x]
			if c.isPad() {
				continue
			}
			if p := s.styles[c.style()]; p != cur {
				writeSGR(&b, cur, p)
				cur = p
			}
			b.WriteString(l.text(c))
		}
	}
	if cur != (pen{}) {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// writeSGR writes the sequences that turn from into to: a reset when an
// attribute must go off, then every attribute and colour that differs.
func writeSGR(b *strings.Builder, from, to pen) {
	if from.attr&^to.attr != 0 || from.link != to.link {
		b.WriteString("\x1b[0m")
		from = pen{}
	}
	sgr := func(code string) { b.WriteString("\x1b[" + code + "m") }
	for _, a := range [...]struct {
		bit  attr
		code string
	}{{attrBold, "1"}, {attrDim, "2"}, {attrItalic, "3"}, {attrBlink, "5"},
		{attrReverse, "7"}, {attrHidden, "8"}, {attrStrike, "9"}, {attrOverline, "53"}} {
		if to.attr&a.bit != 0 && from.attr&a.bit == 0 {
			sgr(a.code)
		}
	}
	if u := to.attr.underline(); u != from.attr.underline() {
		if u == 1 {
			sgr("4")
		} else {
			sgr("4:" + strconv.Itoa(int(u)))
		}
	}
	if to.fg != from.fg {
		sgr(colorSGR(to.fg, 30, 90, "38", "39"))
	}
	if to.bg != from.bg {
		sgr(colorSGR(to.bg, 40, 100, "48", "49"))
	}
	if to.us != from.us {
		sgr(colorSGR(to.us, 0, 0, "58", "59"))
	}
}

func colorSGR(c color, base, bright int, ext, def string) string {
	v := int(c & 0xffffff)
	switch c & colorKind {
	case colorPalette:
		if v < 8 {
			return strconv.Itoa(base + v)
		}
		return strconv.Itoa(bright + v - 8)
	case color256:
		return ext + ";5;" + strconv.Itoa(v)
	case colorRGB:
		return ext + ";2;" + strconv.Itoa(v>>16) + ";" + strconv.Itoa(v>>8&0xff) + ";" + strconv.Itoa(v&0xff)
	}
	return def
}

// Fingerprint is a SHA-256 over a canonical encoding of every cell of r
// (clipped to the screen): the rectangle, then per cell its width and text,
// and its full style (colours with their form, attributes, underline style
// and colour, link) whenever it differs from the previous cell's. Styles
// are encoded by value, never by table index, so the same styled region
// always gives the same digest, on any screen; any change of text or style
// gives another. It allocates nothing once the screen's scratch buffer has
// grown.
func (s *Screen) Fingerprint(r Rect) [32]byte {
	r = s.clip(r)
	b := s.fpBuf[:0]
	b = binary.LittleEndian.AppendUint32(b, uint32(r.W))
	b = binary.LittleEndian.AppendUint32(b, uint32(r.H))
	var prev pen
	var prevID uint32
	first := true
	for y := r.Y; y < r.Y+r.H; y++ {
		l := s.lines[y]
		cells := l.cells[r.X : r.X+r.W]
		// Room for a row of the common cell (4 bytes), so that its fast
		// path below is a store, not an append.
		b = slices.Grow(b, 4*len(cells))
		for _, c := range cells {
			// The common cell: the previous cell's style index and one
			// ASCII byte. Its 4 bytes are those of the general path: a 0
			// (same pen), the width, a length of 1, the byte.
			if n := len(b); !first && c.style() == prevID && c.hi&(extFlag|acsFlag|0x1f) == 0 && c.lo < 0x80 &&
				!c.isPad() && n+4 <= cap(b) {
				b = b[:n+4]
				binary.LittleEndian.PutUint32(b[n:], uint32(c.width())<<8|1<<16|uint32(c.lo)<<24)
				continue
			}
			// A cell with the previous cell's style index has its pen,
			// which is the last one written or the same rendition.
			if id := c.style(); !first && id == prevID {
				b = append(b, 0)
			} else if p := s.styles[id]; first || p != prev && !s.samePen(p, prev) {
				b = s.appendPen(append(b, 1), p)
				prev, prevID, first = p, id, false
			} else {
				b = append(b, 0)
				prevID = id
			}
			if c.hi&(extFlag|acsFlag|0x1f) == 0 && c.lo < 0x80 && !c.isPad() {
				b = append(b, byte(c.width()), 1, byte(c.lo)) // ASCII: most cells
				continue
			}
			at := len(b)
			b = append(b, byte(c.width()), 0)
			b = l.appendText(b, c)
			b[at+1] = byte(len(b) - at - 2) // at most 63 bytes: 21 raw bytes, each at most a 3-byte glyph
		}
	}
	s.fpBuf = b
	return sha256.Sum256(b)
}

// samePen reports whether two pens are the same rendition: equal, or
// differing only in link indexes that name the same link.
func (s *Screen) samePen(a, b pen) bool {
	la, lb := s.links[a.link], s.links[b.link]
	a.link, b.link = 0, 0
	return a == b && la == lb
}

func (s *Screen) appendPen(b []byte, p pen) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(p.fg))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.bg))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.us))
	b = binary.LittleEndian.AppendUint16(b, uint16(p.attr))
	lk := s.links[p.link]
	b = binary.LittleEndian.AppendUint16(b, uint16(len(lk.uri)))
	b = append(b, lk.uri...)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(lk.id)))
	return append(b, lk.id...)
}
