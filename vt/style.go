package vt

import "github.com/gdamore/tcell/v2"

// Style is the full rendition of a cell: a tcell.Style (colours, underline
// style and colour, bold, dim, italic, blink, reverse, strikethrough, OSC 8
// link) plus the few facts tmux keeps that tcell.Style cannot hold.
//
// Style is comparable: two cells look the same exactly when their Styles
// are ==. The zero value is the default rendition.
type Style struct {
	tcell.Style
	Ext ExtAttr
}

// ExtAttr holds what tcell.Style lacks.
type ExtAttr uint8

const (
	// Invisible is SGR 8 (hidden/concealed).
	Invisible ExtAttr = 1 << iota
	// Overline is SGR 53.
	Overline
	// FgIndexed marks a foreground palette colour 0-15 that was set in the
	// 256-colour form (38;5;n) rather than 30-37/90-97: tmux keeps the two
	// apart, and so do we. Never set for indexes >= 16.
	FgIndexed
	// BgIndexed is FgIndexed for the background (48;5;n).
	BgIndexed
)

// DefaultStyle is the rendition of an erased cell.
var DefaultStyle Style

// WithoutLink returns s with its OSC 8 link removed (address and id), for
// comparisons with tmux 3.3a, which keeps no links. tcell offers no way to
// clear a link id, so the style is rebuilt from its parts.
func (s Style) WithoutLink() Style {
	fg, bg, attrs := s.Style.Decompose()
	ts := tcell.StyleDefault.Foreground(fg).Background(bg).Attributes(attrs)
	if u := s.Style.GetUnderlineStyle(); u != tcell.UnderlineStyleNone {
		ts = ts.Underline(u)
	}
	if c := s.Style.GetUnderlineColor(); c != tcell.ColorDefault {
		ts = ts.Underline(c)
	}
	return Style{Style: ts, Ext: s.Ext}
}
