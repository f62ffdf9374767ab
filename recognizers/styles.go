package recognizers

import (
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// Styles are built exactly as vt builds them from SGR, so a profile's
// style compares == with a screen cell's. The agents' styles are facts of
// their recordings: a profile names each one it proves something with.

// sty is a style under construction.
type sty struct{ s vt.Style }

func plain() sty { return sty{} }

// fg256 is a foreground set with 38;5;n (n >= 16; below 16 use fgIdx).
func fg256(n int) sty {
	return sty{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(n))}}
}

// fgIdx is a palette colour below 16 set in the 256-colour form (38;5;n),
// which vt keeps apart from 30-37 (Ext FgIndexed).
func fgIdx(n int) sty {
	return sty{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(n)), Ext: vt.FgIndexed}}
}

func fgRGB(r, g, b int32) sty {
	return sty{vt.Style{Style: tcell.StyleDefault.Foreground(tcell.NewRGBColor(r, g, b))}}
}

func (s sty) bg256(n int) sty { s.s.Style = s.s.Style.Background(tcell.PaletteColor(n)); return s }
func (s sty) bgRGB(r, g, b int32) sty {
	s.s.Style = s.s.Style.Background(tcell.NewRGBColor(r, g, b))
	return s
}
func (s sty) bold() sty    { s.s.Style = s.s.Style.Bold(true); return s }
func (s sty) dim() sty     { s.s.Style = s.s.Style.Dim(true); return s }
func (s sty) italic() sty  { s.s.Style = s.s.Style.Italic(true); return s }
func (s sty) reverse() sty { s.s.Style = s.s.Style.Reverse(true); return s }
func (s sty) vt() vt.Style { return s.s }

// reversed is s in reverse video (the cell a TUI draws its cursor in).
func reversed(s vt.Style) vt.Style { s.Style = s.Style.Reverse(true); return s }
