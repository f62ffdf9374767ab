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
