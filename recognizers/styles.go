package recognizers

import (
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// Styles are built exactly as vt builds them from SGR, so a profile's
// style compares == with a screen cell's. The agents' styles are facts of
// their recordings: a profile names each one it proves something with.

// StyleSpec is a style under construction: Plain().Bold().Style().
type StyleSpec struct{ s vt.Style }

// Plain is the default style: no colour, no attribute.
func Plain() StyleSpec { return StyleSpec{} }

// Fg256 is a foreground set with 38;5;n (n >= 16; below 16 use FgIdx).
func Fg256(n int) StyleSpec {
	return StyleSpec{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(n))}}
}

// FgIdx is a palette colour below 16 set in the 256-colour form (38;5;n),
// which vt keeps apart from 30-37 (Ext FgIndexed).
func FgIdx(n int) StyleSpec {
	return StyleSpec{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(n)), Ext: vt.FgIndexed}}
}

// FgRGB is a 24-bit foreground (38;2;r;g;b).
func FgRGB(r, g, b int32) StyleSpec {
	return StyleSpec{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.NewRGBColor(r, g, b))}}
}

// Bg256 adds a background set with 48;5;n.
func (s StyleSpec) Bg256(n int) StyleSpec {
	s.s.Style = s.s.Style.Background(tcell.PaletteColor(n))
	return s
}

// BgRGB adds a 24-bit background (48;2;r;g;b).
func (s StyleSpec) BgRGB(r, g, b int32) StyleSpec {
	s.s.Style = s.s.Style.Background(tcell.NewRGBColor(r, g, b))
	return s
}

// Bold adds bold (SGR 1).
func (s StyleSpec) Bold() StyleSpec { s.s.Style = s.s.Style.Bold(true); return s }

// Dim adds dim (SGR 2).
func (s StyleSpec) Dim() StyleSpec { s.s.Style = s.s.Style.Dim(true); return s }

// Italic adds italics (SGR 3).
func (s StyleSpec) Italic() StyleSpec { s.s.Style = s.s.Style.Italic(true); return s }

// Reverse adds reverse video (SGR 7).
func (s StyleSpec) Reverse() StyleSpec { s.s.Style = s.s.Style.Reverse(true); return s }

// Style is the style built, as a screen cell's compares.
func (s StyleSpec) Style() vt.Style { return s.s }

// Reversed is s in reverse video (the cell a TUI draws its cursor in).
func Reversed(s vt.Style) vt.Style { s.Style = s.Style.Reverse(true); return s }
