// Package shot renders terminal cells to a PNG: screenshots for the
// README of what a person sees (the popup over an agent's prompt), made
// from a tmux capture (capture-pane -e) or from a vt screen that a tmux
// client's output fed. It draws with a fixed 7x13 bitmap font
// (golang.org/x/image/font/basicfont), so pictures are reproducible and
// need no font on the machine; characters outside the font's range (box
// drawing, symbols) are drawn as simple shapes or left blank.
//
// It does not aim at fidelity beyond colours, bold, reverse and
// underline: it is documentation, not an oracle.
package shot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/agent-knock-knock/akk/vt"
)

// Cell size of the font.
const (
	cellW = 7
	cellH = 13
)

var (
	defaultFG = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBG = color.RGBA{0x1c, 0x1c, 0x1c, 0xff}
)

// FromCapture parses `tmux capture-pane -p -e -N` output of a pane of the
// given size.
func FromCapture(data []byte, width, height int) ([][]vt.Cell, error) {
	c, err := vt.ParseCapture(data, width, height)
	if err != nil {
		return nil, fmt.Errorf("shot: %w", err)
	}
	return c.Rows, nil
}

// FromScreen is every row of a vt screen.
func FromScreen(s *vt.Screen) [][]vt.Cell {
	_, h := s.Size()
	rows := make([][]vt.Cell, h)
	for y := range rows {
		rows[y] = s.Row(y)
	}
	return rows
}

// Render draws rows of cells as an image.
func Render(rows [][]vt.Cell) *image.RGBA {
	w := 0
	for _, r := range rows {
		w = max(w, len(r))
	}
	img := image.NewRGBA(image.Rect(0, 0, w*cellW, len(rows)*cellH))
	draw.Draw(img, img.Bounds(), image.NewUniform(defaultBG), image.Point{}, draw.Src)
	d := &font.Drawer{Dst: img, Face: basicfont.Face7x13}
	for y, row := range rows {
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			fg, bg := colours(c.Style.Style)
			cw := int(c.Width) * cellW
			r := image.Rect(x*cellW, y*cellH, x*cellW+cw, (y+1)*cellH)
			draw.Draw(img, r, image.NewUniform(bg), image.Point{}, draw.Src)
			_, _, attrs := c.Style.Style.Decompose()
			glyph(img, d, r, c.Text, fg, attrs&tcell.AttrBold != 0)
			if attrs&tcell.AttrUnderline != 0 || c.Style.Style.GetUnderlineStyle() != tcell.UnderlineStyleNone {
				draw.Draw(img, image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), image.NewUniform(fg), image.Point{}, draw.Src)
			}
		}
	}
	return img
}

// WritePNG renders rows and encodes them as PNG.
func WritePNG(w io.Writer, rows [][]vt.Cell) error {
	if err := png.Encode(w, Render(rows)); err != nil {
		return fmt.Errorf("shot: %w", err)
	}
	return nil
}

func colours(st tcell.Style) (color.Color, color.Color) {
	fg, bg, attrs := st.Decompose()
	f, b := toRGBA(fg, defaultFG), toRGBA(bg, defaultBG)
	if attrs&tcell.AttrDim != 0 {
		f = color.RGBA{f.R / 2, f.G / 2, f.B / 2, 0xff}
	}
	if attrs&tcell.AttrReverse != 0 {
		f, b = b, f
	}
	return f, b
}

func toRGBA(c tcell.Color, def color.RGBA) color.RGBA {
	if c == tcell.ColorDefault || !c.Valid() {
		return def
	}
	r, g, b := c.RGB()
	if r < 0 {
		return def
	}
	return color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
}

// glyph draws one cell's text: the font's own glyph when it has one,
// lines for box drawing, a block otherwise (a visible stand-in).
func glyph(img *image.RGBA, d *font.Drawer, r image.Rectangle, text string, fg color.Color, bold bool) {
	if text == "" || text == " " {
		return
	}
	ru := []rune(text)[0]
	if ru >= 0x2500 && ru <= 0x257f {
		box(img, r, ru, fg)
		return
	}
	if _, ok := basicfont.Face7x13.GlyphAdvance(ru); !ok || ru > 0x7e {
		switch ru {
		case '❯', '›', '▶', '▸':
			ru = '>'
		case '●', '•', '⏺', '✳', '✻', '✶', '✢', '·':
			ru = '*'
		case '…':
			ru = '~'
		case '⎿':
			ru = 'L'
		default:
			ru = '?'
		}
	}
	d.Src = image.NewUniform(fg)
	for i := 0; i < 1+b2i(bold); i++ {
		d.Dot = fixed.P(r.Min.X+i, r.Min.Y+11)
		d.DrawString(string(ru))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// box draws the common box-drawing characters as lines through the
// cell's middle.
func box(img *image.RGBA, r image.Rectangle, ru rune, fg color.Color) {
	midX, midY := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
	u := image.NewUniform(fg)
	left, right, up, down := false, false, false, false
	switch ru {
	case '─', '━', '┄', '┈', '╌':
		left, right = true, true
	case '│', '┃', '┆', '┊', '╎':
		up, down = true, true
	case '┌', '╭', '┏':
		right, down = true, true
	case '┐', '╮', '┓':
		left, down = true, true
	case '└', '╰', '┗':
		right, up = true, true
	case '┘', '╯', '┛':
		left, up = true, true
	case '├':
		up, down, right = true, true, true
	case '┤':
		up, down, left = true, true, true
	case '┬':
		left, right, down = true, true, true
	case '┴':
		left, right, up = true, true, true
	default:
		left, right, up, down = true, true, true, true
	}
	if left {
		draw.Draw(img, image.Rect(r.Min.X, midY, midX+1, midY+1), u, image.Point{}, draw.Src)
	}
	if right {
		draw.Draw(img, image.Rect(midX, midY, r.Max.X, midY+1), u, image.Point{}, draw.Src)
	}
	if up {
		draw.Draw(img, image.Rect(midX, r.Min.Y, midX+1, midY+1), u, image.Point{}, draw.Src)
	}
	if down {
		draw.Draw(img, image.Rect(midX, midY, midX+1, r.Max.Y), u, image.Point{}, draw.Src)
	}
}
