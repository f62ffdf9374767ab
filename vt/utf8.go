package vt

// utf8Decoder decodes UTF-8 in ground state the way tmux 3.3a does
// (utf8_open/utf8_append): a lead byte fixes the sequence length; every
// following byte >= 0x80 is taken, even one that is not a continuation byte;
// when the length is reached, a sequence holding a bad byte, an invalid code
// point (overlong, surrogate, above U+10FFFF) or a character wcwidth calls
// non-printable is dropped whole. Bytes below 0x80 (printable ASCII and C0
// controls) abandon a sequence in progress and are processed afresh, so
// `A\xffB\xc3(C` shows as `AB(C`. Escape sequences do not abandon it: tmux
// lets a character resume after them.
type utf8Decoder struct {
	buf  [4]byte
	size uint8 // 0 when no sequence is in progress
	have uint8
	bad  bool
}

func (d *utf8Decoder) reset() { d.size = 0 }

// add takes one byte >= 0x80. It returns the decoded character and its
// width when a sequence completes, and ok=false otherwise (more is needed
// or the sequence was dropped).
func (d *utf8Decoder) add(b byte) (r rune, width int, ok bool) {
	if d.size == 0 {
		d.size = uint8(leadSize(b))
		if d.size == 0 {
			return 0, 0, false // not a lead byte: dropped
		}
		d.buf[0], d.have, d.bad = b, 1, false
		return 0, 0, false
	}
	if b&0xc0 != 0x80 {
		d.bad = true
	}
	d.buf[d.have] = b
	d.have++
	if d.have < d.size {
		return 0, 0, false
	}
	d.size = 0
	if d.bad {
		return 0, 0, false
	}
	r, valid := decodeRune(d.buf[:d.have])
	if !valid {
		return 0, 0, false
	}
	width = runeWidth(r)
	if width < 0 {
		return 0, 0, false
	}
	return r, width, true
}

// leadSize is the length of the sequence a lead byte starts (tmux's
// utf8_open), or 0 for a byte that starts none.
func leadSize(b byte) int {
	switch {
	case b >= 0xc2 && b <= 0xdf:
		return 2
	case b >= 0xe0 && b <= 0xef:
		return 3
	case b >= 0xf0 && b <= 0xf4:
		return 4
	}
	return 0
}

// decodeRune decodes a complete sequence of 2-4 bytes whose continuation
// bytes are already known to be 10xxxxxx, and rejects what the C library's
// mbtowc rejects: overlong forms and values above U+10FFFF. Surrogates are
// rejected by the width table.
func decodeRune(b []byte) (rune, bool) {
	switch len(b) {
	case 2:
		return rune(b[0]&0x1f)<<6 | rune(b[1]&0x3f), true
	case 3:
		r := rune(b[0]&0x0f)<<12 | rune(b[1]&0x3f)<<6 | rune(b[2]&0x3f)
		return r, r >= 0x800
	default:
		r := rune(b[0]&0x07)<<18 | rune(b[1]&0x3f)<<12 | rune(b[2]&0x3f)<<6 | rune(b[3]&0x3f)
		return r, r >= 0x10000 && r <= 0x10ffff
	}
}

// ground handles bytes in ground state and returns how many it consumed:
// all of data, or up to the start of an escape sequence it leaves to the
// state machine. Printable ASCII is handed over in runs and whole CSI
// sequences are read in one pass, so the common case costs one call per
// run or sequence, not per byte.
func (p *parser) ground(data []byte, perf performer) int {
	i := 0
	for i < len(data) {
		b := data[i]
		switch {
		case isPrintASCII(b):
			p.utf8.reset()
			i += perf.printASCII(data[i:])
			p.last = data[i-1]
			continue
		case b == 0x1b:
			if i+1 < len(data) && data[i+1] == '[' {
				if n := p.csiWhole(data[i:], perf); n > 0 {
					i += n
					continue
				}
				p.clear()
				p.state = stCSIEntry
				return i + 2
			}
			p.clear()
			p.state = stEscape
			return i + 1
		case b < 0x20:
			p.execute(b, perf)
		case b == 0x7f:
			// DEL is ignored and does not disturb a UTF-8 sequence.
		default:
			p.last = 0
			if p.utf8.size == 0 {
				if n := p.groundRune(data[i:], perf); n > 0 {
					i += n
					continue
				}
			}
			if r, w, ok := p.utf8.add(b); ok {
				perf.printRune(r, w)
			}
		}
		i++
	}
	return i
}

// groundRune is the fast path for well-formed sequences that are whole in
// data: runs of width-1 characters go out together. It returns how many
// bytes it consumed, or 0 to leave the bytes to the byte-by-byte decoder
// (a split, bad or dropped sequence).
func (p *parser) groundRune(data []byte, perf performer) int {
	used, n := 0, 0
	for used < len(data) && n < len(p.runes) {
		// Three-byte sequences (box drawing, CJK) inline, the rest by call.
		r, w := decode3(data[used:])
		size := 3
		if w < 0 {
			r, w, size = decodeWhole(data[used:]) // size 0 for ASCII
			if size == 0 {
				break
			}
		}
		if w != 1 {
			if n == 0 {
				perf.printRune(r, w)
				return size
			}
			break
		}
		p.runes[n] = r
		n++
		used += size
	}
	if n > 0 {
		perf.printNarrow(p.runes[:n])
	}
	return used
}

// decode3 is decodeWhole for a three-byte sequence only, small enough to
// be inlined. Its width is -1 for anything else, and for a character tmux
// would drop.
func decode3(b []byte) (r rune, width int) {
	if len(b) < 3 {
		return 0, -1
	}
	// 1110xxxx 10xxxxxx 10xxxxxx, and not overlong (E0 80-9F xx).
	x := rune(b[0])<<16 | rune(b[1])<<8 | rune(b[2])
	if x&0xf0c0c0 != 0xe08080 || x < 0xe0a000 {
		return 0, -1
	}
	r = x>>4&0xf000 | x>>2&0xfc0 | x&0x3f
	return r, int(quickWidth[r>>2]>>(r&3*2)&3) - 1
}

// decodeWhole decodes one whole, valid, printable sequence at the start of
// b, or returns size 0 (for ASCII too). It is decodeRune unrolled per
// length: box drawing and CJK text are made of these.
func decodeWhole(b []byte) (r rune, width, size int) {
	const cont = 0xc0 // continuation bytes are 10xxxxxx
	switch size = leadSize(b[0]); {
	case size == 3 && len(b) >= 3:
		if b[1]&cont != 0x80 || b[2]&cont != 0x80 {
			return 0, 0, 0
		}
		r = rune(b[0]&0x0f)<<12 | rune(b[1]&0x3f)<<6 | rune(b[2]&0x3f)
		if r < 0x800 {
			return 0, 0, 0
		}
	case size == 2 && len(b) >= 2:
		if b[1]&cont != 0x80 {
			return 0, 0, 0
		}
		r = rune(b[0]&0x1f)<<6 | rune(b[1]&0x3f)
	case size == 4 && len(b) >= 4:
		if b[1]&cont != 0x80 || b[2]&cont != 0x80 || b[3]&cont != 0x80 {
			return 0, 0, 0
		}
		r = rune(b[0]&0x07)<<18 | rune(b[1]&0x3f)<<12 | rune(b[2]&0x3f)<<6 | rune(b[3]&0x3f)
		if r < 0x10000 || r > 0x10ffff {
			return 0, 0, 0
		}
	default:
		return 0, 0, 0
	}
	width = runeWidth(r)
	if width < 0 {
		return 0, 0, 0
	}
	return r, width, size
}

// execute runs a C0 control. Like tmux, any executed control abandons a
// UTF-8 sequence in progress.
func (p *parser) execute(b byte, perf performer) {
	p.utf8.reset()
	p.last = 0
	perf.execute(b)
}
