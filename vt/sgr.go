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
	for i := 0; i < ps.n; i++ {
		if ps.list[i].kind == paramString {
			p.sgrColon(ps.sub(i))
			continue
		}
		n := ps.get(i, 0, 0)
		if n == 38 || n == 48 || n == 58 {
			i++
			switch ps.get(i, 0, -1) {
			case 2:
				r, g, b := ps.get(i+1, 0, -1), ps.get(i+2, 0, -1), ps.get(i+3, 0, -1)
				if p.setRGB(n, r, g, b) {
					i += 3
				}
			case 5:
				p.set256(n, ps.get(i+1, 0, -1))
				i++
			}
			continue
		}
		p.sgrOne(n)
	}
}

func (p *pen) sgrOne(n int) {
	switch {
	case n == 0:
		*p = pen{link: p.link}
	case n == 1:
		p.attr |= attrBold
	case n == 2:
		p.attr |= attrDim
	case n == 3:
		p.attr |= attrItalic
	case n == 4:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleSolid)
	case n == 5 || n == 6:
		p.attr |= attrBlink
	case n == 7:
		p.attr |= attrReverse
	case n == 8:
		p.attr |= attrHidden
	case n == 9:
		p.attr |= attrStrike
	case n == 21:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleDouble)
	case n == 22:
		p.attr &^= attrBold | attrDim
	case n == 23:
		p.attr &^= attrItalic
	case n == 24:
		p.attr = p.attr.withUnderline(tcell.UnderlineStyleNone)
	case n == 25:
		p.attr &^= attrBlink
	case n == 27:
		p.attr &^= attrReverse
	case n == 28:
		p.attr &^= attrHidden
	case n == 29:
		p.attr &^= attrStrike
	case n >= 30 && n <= 37:
		p.fg = colorPalette | color(n-30)
	case n == 39:
		p.fg = colorDefault
	case n >= 40 && n <= 47:
		p.bg = colorPalette | color(n-40)
	case n == 49:
		p.bg = colorDefault
	case n == 53:
		p.attr |= attrOverline
	case n == 55:
		p.attr &^= attrOverline
	case n == 59:
		p.us = colorDefault
	case n >= 90 && n <= 97:
		p.fg = colorPalette | color(n-90+8)
	case n >= 100 && n <= 107:
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
