package vt

import "github.com/gdamore/tcell/v2"

// sgr applies Select Graphic Rendition to the pen exactly as tmux 3.3a's
// input_csi_dispatch_sgr does, including its quirks: a missing parameter
// resets (";1m" is reset then bold), "38;5" with no index resets the
// colour, and a bad "38;2;r;g;b" consumes only the "2" so that r, g and b are
// read as attributes of their own.
func (p *pen) sgr(ps *params) {
	if ps.n == 0 {
		*p = pen{link: p.link}
		return
	}
	// The list is read directly rather than through ps.get: SGR is most
	// of an agent TUI's sequences.
	list := ps.list[:ps.n]
	for i := 0; i < len(list); i++ {
		var n int
		switch f := &list[i]; f.kind {
		case paramString:
			p.sgrColon(ps.sub(i))
			continue
		case paramNumber:
			n = int(f.num)
		}
		switch n {
		case 38, 48, 58:
			i++
			switch sgrArg(list, i) {
			case 2:
				r, g, b := sgrArg(list, i+1), sgrArg(list, i+2), sgrArg(list, i+3)
				if p.setRGB(n, r, g, b) {
					i += 3
				}
			case 5:
				p.set256(n, sgrArg(list, i+1))
				i++
			}
		default:
			p.sgrOne(n)
		}
	}
}

// sgrArg is ps.get(i, 0, -1) on the list: -1 when absent, missing or a
// colon parameter (numbers are never negative).
func sgrArg(list []param, i int) int {
	if i >= len(list) || list[i].kind != paramNumber {
		return -1
	}
	return int(list[i].num)
}

// sgrOne applies one parameter. The cases are constants so that the
// switch compiles to a jump table.
func (p *pen) sgrOne(n int) {
	switch n {
	case 0:
		*p = pen{link: p.link}
	case 1:
		p.attr |= attrBold
	case 2:
		p.attr |= attrDim
	case 3:
		p.attr |= attrItalic
	case 4:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleSolid)
	case 5, 6:
		p.attr |= attrBlink
	case 7:
		p.attr |= attrReverse
	case 8:
		p.attr |= attrHidden
	case 9:
		p.attr |= attrStrike
	case 21:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleDouble)
	case 22:
		p.attr &^= attrBold | attrDim
	case 23:
		p.attr &^= attrItalic
	case 24:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleNone)
	case 25:
		p.attr &^= attrBlink
	case 27:
		p.attr &^= attrReverse
	case 28:
		p.attr &^= attrHidden
	case 29:
		p.attr &^= attrStrike
	case 30, 31, 32, 33, 34, 35, 36, 37:
		p.fg = colorPalette | color(n-30)
	case 39:
		p.fg = colorDefault
	case 40, 41, 42, 43, 44, 45, 46, 47:
		p.bg = colorPalette | color(n-40)
	case 49:
		p.bg = colorDefault
	case 53:
		p.attr |= attrOverline
	case 55:
		p.attr &^= attrOverline
	case 59:
		p.us = colorDefault
	case 90, 91, 92, 93, 94, 95, 96, 97:
		p.fg = colorPalette | color(n-90+8)
	case 100, 101, 102, 103, 104, 105, 106, 107:
		p.bg = colorPalette | color(n-100+8)
	}
}

// set256 is input_csi_dispatch_sgr_256_do: an absent or out-of-range index
// resets a foreground or background (not an underline colour).
func (p *pen) set256(which, c int) {
	if c == -1 || c > 255 {
		switch which {
		case 38:
			p.fg = colorDefault
		case 48:
			p.bg = colorDefault
		}
		return
	}
	v := color256 | color(c)
	switch which {
	case 38:
		p.fg = v
	case 48:
		p.bg = v
	case 58:
		p.us = v
	}
}

// setRGB is input_csi_dispatch_sgr_rgb_do; it reports whether the colour
// was valid (and its parameters consumed).
func (p *pen) setRGB(which, r, g, b int) bool {
	if r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255 {
		return false
	}
	v := colorRGB | color(r)<<16 | color(g)<<8 | color(b)
	switch which {
	case 38:
		p.fg = v
	case 48:
		p.bg = v
	case 58:
		p.us = v
	}
	return true
}

// sgrColon handles one colon parameter ("4:3", "38:2::r:g:b", "38:5:n") as
// input_csi_dispatch_sgr_colon does: at most seven fields, each missing
// field is -1, anything malformed is ignored.
func (p *pen) sgrColon(sub []byte) {
	var f [8]int
	n := 0
	start := 0
	for i := 0; i <= len(sub); i++ {
		if i < len(sub) && sub[i] != ':' {
			continue
		}
		field := sub[start:i]
		start = i + 1
		f[n] = -1
		if len(field) != 0 {
			v, ok := atoi(field)
			if !ok {
				return
			}
			f[n] = v
		}
		n++
		if n == len(f) {
			return
		}
	}
	if f[0] == 4 {
		if n != 2 {
			return
		}
		if f[1] >= 0 && f[1] <= 5 {
			p.attr = p.attr.withUnderline(tcell.UnderlineStyle(f[1]))
		}
		return
	}
	if n < 2 || (f[0] != 38 && f[0] != 48 && f[0] != 58) {
		return
	}
	switch f[1] {
	case 2:
		if n < 3 {
			return
		}
		i := 3
		if n == 5 {
			i = 2
		}
		if n < i+3 {
			return
		}
		p.setRGB(f[0], f[i], f[i+1], f[i+2])
	case 5:
		if n < 3 {
			return
		}
		p.set256(f[0], f[2])
	}
}
