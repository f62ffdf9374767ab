package web

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/vt"
)

// The page's terminal colours where a cell has none of its own: the same
// dark theme as the README's screenshots (internal/shot).
const (
	defaultFG int32 = 0xd0d0d0
	defaultBG int32 = 0x1c1c1c
)

// RegionHTML renders a prompt region's cells as HTML: one <div> per row
// that holds something, runs of cells with one style as a <span> whose
// inline style carries the cell's real colours and attributes (palette
// colours as tcell's xterm values, so a computed style equals the vt
// cell). Text is escaped; style values are built from numbers only, so
// nothing of the pane's bytes reaches an attribute.
func RegionHTML(c *vt.Capture) template.HTML {
	if c == nil {
		return ""
	}
	rows := make([][]vt.Cell, len(c.Rows))
	for i, row := range c.Rows {
		rows[i] = trimBlank(row[:c.Used[i]])
	}
	lo, hi := 0, len(rows)
	for lo < hi && len(rows[lo]) == 0 {
		lo++
	}
	for hi > lo && len(rows[hi-1]) == 0 {
		hi--
	}
	var b strings.Builder
	for _, row := range rows[lo:hi] {
		b.WriteString(`<div class="row">`)
		writeRow(&b, row)
		b.WriteString("</div>")
	}
	return template.HTML(b.String()) //nolint:gosec // built from escaped text and numeric styles only
}

func writeRow(b *strings.Builder, row []vt.Cell) {
	if len(row) == 0 {
		b.WriteString(" ") // keeps an empty row's height
		return
	}
	var run strings.Builder
	var runStyle vt.Style
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if css := CellCSS(runStyle); css != "" {
			fmt.Fprintf(b, `<span style="%s">%s</span>`, css, template.HTMLEscapeString(run.String()))
		} else {
			b.WriteString(template.HTMLEscapeString(run.String()))
		}
		run.Reset()
	}
	for _, cell := range row {
		if cell.Width == 0 {
			continue // the padding right of a wide character
		}
		st := cell.Style.WithoutLink()
		if st != runStyle {
			flush()
			runStyle = st
		}
		text := cell.Text
		if text == "" {
			text = " "
		}
		run.WriteString(text)
	}
	flush()
}

// trimBlank drops a row's trailing blank cells (the pane's padding).
func trimBlank(row []vt.Cell) []vt.Cell {
	n := len(row)
	for n > 0 && row[n-1].Text == " " && row[n-1].Style.WithoutLink() == vt.DefaultStyle {
		n--
	}
	return row[:n]
}

// CellCSS is the inline style of a cell ("" for the default style).
func CellCSS(st vt.Style) string {
	f, bk, attr := colours(st)
	var parts []string
	if f != defaultFG {
		parts = append(parts, fmt.Sprintf("color:#%06x", f))
	}
	if bk != defaultBG {
		parts = append(parts, fmt.Sprintf("background-color:#%06x", bk))
	}
	if attr&tcell.AttrBold != 0 {
		parts = append(parts, "font-weight:bold")
	}
	if attr&tcell.AttrItalic != 0 {
		parts = append(parts, "font-style:italic")
	}
	var deco []string
	if st.Style.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		deco = append(deco, "underline")
	}
	if attr&tcell.AttrStrikeThrough != 0 {
		deco = append(deco, "line-through")
	}
	if st.Ext&vt.Overline != 0 {
		deco = append(deco, "overline")
	}
	if len(deco) > 0 {
		parts = append(parts, "text-decoration:"+strings.Join(deco, " "))
	}
	if st.Ext&vt.Invisible != 0 {
		parts = append(parts, "visibility:hidden")
	}
	return strings.Join(parts, ";")
}

// rgb is c as 0xRRGGBB, def when the cell has no colour of its own.
func rgb(c tcell.Color, def int32) int32 {
	if c == tcell.ColorDefault || !c.Valid() {
		return def
	}
	if v := c.Hex(); v >= 0 {
		return v
	}
	return def
}

// colours are the cell's text and background as 0xRRGGBB after reverse
// video and dim (halved, as internal/shot draws it), and its attributes.
func colours(st vt.Style) (fg, bg int32, attr tcell.AttrMask) {
	f, b, attr := st.Style.Decompose()
	fg, bg = rgb(f, defaultFG), rgb(b, defaultBG)
	if attr&tcell.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if attr&tcell.AttrDim != 0 {
		fg = (fg >> 1) & 0x7f7f7f
	}
	return fg, bg, attr
}

// ColorOf is the CSS colour a browser computes for a cell's text and
// background, as "rgb(r, g, b)" (the tests compare it with the page).
func ColorOf(st vt.Style) (fg, bg string) {
	f, b, _ := colours(st)
	css := func(v int32) string { return fmt.Sprintf("rgb(%d, %d, %d)", v>>16&0xff, v>>8&0xff, v&0xff) }
	return css(f), css(b)
}
