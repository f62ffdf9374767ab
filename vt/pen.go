package vt

import "github.com/gdamore/tcell/v2"

// color is a colour as tmux stores it, kept compact for interning: the
// kind in the top byte, the value below. The zero value is the default.
type color uint32

const (
	colorDefault color = 0
	colorPalette color = 1 << 24 // 0-15, from SGR 30-37/90-97 (40-47/100-107)
	color256     color = 2 << 24 // 0-255, from 38;5;n (48;5;n, 58;5;n)
	colorRGB     color = 3 << 24 // 0xRRGGBB, from 38;2;r;g;b
	colorKind    color = 0xff << 24
)

func (c color) tcell() tcell.Color {
	switch c & colorKind {
	case colorPalette, color256:
		return tcell.PaletteColor(int(c & 0xff))
	case colorRGB:
		return tcell.NewRGBColor(int32(c>>16&0xff), int32(c>>8&0xff), int32(c&0xff))
	}
	return tcell.ColorDefault
}

// attr bits of a pen (tmux's GRID_ATTR_*, with the underline style as a
// 3-bit field).
type attr uint16

const (
	attrBold attr = 1 << iota
	attrDim
	attrItalic
	attrBlink
	attrReverse
	attrHidden
	attrStrike
	attrOverline
	attrUnderShift      = iota // underline style in bits 8-10: tcell.UnderlineStyle
	attrUnderMask  attr = 7 << attrUnderShift
)

func (a attr) underline() tcell.UnderlineStyle {
	return tcell.UnderlineStyle(a & attrUnderMask >> attrUnderShift)
}

func (a attr) withUnderline(u tcell.UnderlineStyle) attr {
	return a&^attrUnderMask | attr(u)<<attrUnderShift
}

// pen is the rendition that new cells get: tmux's grid_cell without the
// character. It is small and comparable so that interning it is cheap.
type pen struct {
	fg, bg, us color
	attr       attr
	link       uint16 // index into Screen.links; 0 is none
}

// isDefault is p == pen{}, which the compiler makes five comparisons
// with memory.
func (p *pen) isDefault() bool {
	return p.fg|p.bg|p.us == 0 && p.attr == 0 && p.link == 0
}

// needsGridExt is grid_need_extended_cell's test on the pen: attributes
// above tmux's 8 bits (strikethrough, underline styles past single,
// overline), truecolour, or an underline colour.
func (p pen) needsGridExt() bool {
	return p.attr&(attrStrike|attrOverline) != 0 || p.attr.underline() > tcell.UnderlineStyleSolid ||
		p.fg&colorKind == colorRGB || p.bg&colorKind == colorRGB || p.us != colorDefault
}

// link is an OSC 8 hyperlink target.
type link struct {
	uri, id string
}

// style converts a pen to the public Style.
func (p pen) style(links []link) Style {
	ts := tcell.StyleDefault.Foreground(p.fg.tcell()).Background(p.bg.tcell())
	a := p.attr
	if a&attrBold != 0 {
		ts = ts.Bold(true)
	}
	if a&attrDim != 0 {
		ts = ts.Dim(true)
	}
	if a&attrItalic != 0 {
		ts = ts.Italic(true)
	}
	if a&attrBlink != 0 {
		ts = ts.Blink(true)
	}
	if a&attrReverse != 0 {
		ts = ts.Reverse(true)
	}
	if a&attrStrike != 0 {
		ts = ts.StrikeThrough(true)
	}
	if u := a.underline(); u != tcell.UnderlineStyleNone {
		ts = ts.Underline(u)
	}
	if p.us != colorDefault {
		ts = ts.Underline(p.us.tcell())
	}
	if p.link != 0 && int(p.link) < len(links) {
		l := links[p.link]
		ts = ts.Url(l.uri)
		if l.id != "" {
			ts = ts.UrlId(l.id)
		}
	}
	var ext ExtAttr
	if a&attrHidden != 0 {
		ext |= Invisible
	}
	if a&attrOverline != 0 {
		ext |= Overline
	}
	if p.fg&colorKind == color256 && p.fg&0xff < 16 {
		ext |= FgIndexed
	}
	if p.bg&colorKind == color256 && p.bg&0xff < 16 {
		ext |= BgIndexed
	}
	return Style{Style: ts, Ext: ext}
}
