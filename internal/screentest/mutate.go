package screentest

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// SetText puts text in the one cell at x, y (one column wide, its style
// kept).
func SetText(s *vt.Screen, x, y int, text string) {
	c := s.Cell(x, y)
	c.Text, c.Width = text, 1
	s.SetCell(x, y, c)
}

// CopyRow copies row from over row to.
func CopyRow(s *vt.Screen, from, to int) {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		if c := s.Cell(x, from); c.Width != 0 {
			s.SetCell(x, to, c)
		}
	}
}

// BlankRow blanks row y.
func BlankRow(s *vt.Screen, y int) {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		s.SetCell(x, y, vt.Cell{Text: " ", Width: 1})
	}
}

// Restyle gives every cell of rows y0 to y1 style st and no link.
func Restyle(s *vt.Screen, y0, y1 int, st vt.Style) {
	w, _ := s.Size()
	for y := y0; y <= y1; y++ {
		for x := 0; x < w; x++ {
			if c := s.Cell(x, y); c.Width != 0 {
				c.Style, c.Link = st, ""
				s.SetCell(x, y, c)
			}
		}
	}
}

// CopyRowFrom copies row from of src to row to of dst.
func CopyRowFrom(dst, src *vt.Screen, from, to int) {
	w, _ := dst.Size()
	for x := 0; x < w; x++ {
		if c := src.Cell(x, from); c.Width != 0 {
			dst.SetCell(x, to, c)
		}
	}
}

// FindText returns the column where text starts on row y (cell by cell),
// or -1.
func FindText(s *vt.Screen, y int, text string) int {
	w, _ := s.Size()
	want := []rune(text)
	for x := 0; x < w; x++ {
		i, cx := 0, x
		for i < len(want) && cx < w && s.Cell(cx, y).Text == string(want[i]) {
			i++
			cx += max(int(s.Cell(cx, y).Width), 1)
		}
		if i == len(want) && len(want) > 0 {
			return x
		}
	}
	return -1
}

// WriteText writes text from column x of row y in style st, one cell a
// character.
func WriteText(s *vt.Screen, x, y int, text string, st vt.Style) {
	for _, ch := range text {
		s.SetCell(x, y, vt.Cell{Text: string(ch), Width: 1, Style: st})
		x++
	}
}

// ReplaceText overwrites old (found on row y) with repl, padded with
// spaces in the same style to old's length; false when old is not there
// or repl is longer.
func ReplaceText(s *vt.Screen, y int, old, repl string) bool {
	x := FindText(s, y, old)
	n := len([]rune(old))
	if x < 0 || len([]rune(repl)) > n {
		return false
	}
	st := s.Cell(x, y).Style
	WriteText(s, x, y, repl+strings.Repeat(" ", n-len([]rune(repl))), st)
	return true
}

// InsertRow makes room for a row right under row y: the rows above it,
// y included, move up one (row 0 is dropped), and the new row y is
// blank. It returns the screen.
func InsertRow(s *vt.Screen, y int) *vt.Screen {
	w, h := s.Size()
	out := CopyScreen(s, 0, w, h)
	for r := 0; r < y; r++ {
		BlankRow(out, r)
		CopyRowFrom(out, s, r+1, r)
	}
	BlankRow(out, y)
	return out
}

// Fg256 is a foreground set with 38;5;n, as vt reads it (n >= 16).
func Fg256(n int, bold bool) vt.Style {
	return vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(n)).Bold(bold)}
}

// ShiftRight moves the cells of row y from column x one column right (the
// last one drops off) and leaves a space in column x's style.
func ShiftRight(s *vt.Screen, y, x int) {
	w, _ := s.Size()
	for c := w - 1; c > x; c-- {
		s.SetCell(c, y, s.Cell(c-1, y))
	}
	c := s.Cell(x, y)
	c.Text, c.Width = " ", 1
	s.SetCell(x, y, c)
}

// RestyleCols gives columns x0..x1-1 of row y style st.
func RestyleCols(s *vt.Screen, y, x0, x1 int, st vt.Style) {
	for x := x0; x < x1; x++ {
		c := s.Cell(x, y)
		c.Style = st
		s.SetCell(x, y, c)
	}
}

// DropRow removes row y, the rows under it moving up a row.
func DropRow(s *vt.Screen, y int) *vt.Screen {
	_, h := s.Size()
	for r := y; r < h-1; r++ {
		BlankRow(s, r)
		CopyRow(s, r+1, r)
	}
	BlankRow(s, h-1)
	return s
}

// SwapRows exchanges rows a and b.
func SwapRows(s *vt.Screen, a, b int) *vt.Screen {
	w, h := s.Size()
	tmp := CopyScreen(s, 0, w, h)
	BlankRow(s, a)
	BlankRow(s, b)
	CopyRowFrom(s, tmp, b, a)
	CopyRowFrom(s, tmp, a, b)
	return s
}

// Replaced is replaceText as a change: old on row y becomes repl.
func Replaced(t *testing.T, y int, old, repl string) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen {
		if !ReplaceText(s, y, old, repl) {
			t.Fatalf("row %d has no %q", y, old)
		}
		return s
	}
}

// Column is the column where row y shows sub, -1 if it does not.
func Column(s *vt.Screen, y int, sub string) int {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		text := ""
		for cx := x; cx < w && len(text) < len(sub); cx++ {
			if c := s.Cell(cx, y); c.Width != 0 {
				text += strings.ReplaceAll(c.Text, "\u00a0", " ")
			}
		}
		if strings.HasPrefix(text, sub) {
			return x
		}
	}
	return -1
}

// Change changes one part of a recorded session picker (nil: none).
type Change struct {
	Name string
	Mut  func(s *vt.Screen) *vt.Screen
}

// Blanked is the change that blanks row y.
func Blanked(y int) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { BlankRow(s, y); return s }
}

// Written is the change that puts text in the cell at x, y (SetText).
func Written(x, y int, text string) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { SetText(s, x, y, text); return s }
}

// Restyled is the change that restyles row y in st.
func Restyled(y int, st vt.Style) func(s *vt.Screen) *vt.Screen {
	return func(s *vt.Screen) *vt.Screen { Restyle(s, y, y, st); return s }
}

// PasteRow makes row to of dst a copy of row from of src (a screen of
// the same width): a list row drawn where the recording shows none.
func PasteRow(dst, src *vt.Screen, from, to int) {
	BlankRow(dst, to)
	w, _ := src.Size()
	for x := 0; x < w; x++ {
		if c := src.Cell(x, from); c.Width != 0 {
			dst.SetCell(x, to, c)
		}
	}
}
