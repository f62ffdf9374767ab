package vt

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Readable renderings of cells and styles for test failures.

// styleString renders a Style as space-separated facts, "default" for the
// zero Style. Colours: "1" is palette 1 from 31/41, "i1" the same entry from
// 38;5;1 (FgIndexed/BgIndexed), "200" a 256-colour index, "#0a141e" RGB.
func styleString(s Style) string {
	var parts []string
	fg, bg, attrs := s.Style.Decompose()
	if fg != tcell.ColorDefault {
		parts = append(parts, "fg="+colourString(fg, s.Ext&FgIndexed != 0))
	}
	if bg != tcell.ColorDefault {
		parts = append(parts, "bg="+colourString(bg, s.Ext&BgIndexed != 0))
	}
	if u := s.Style.GetUnderlineStyle(); u != tcell.UnderlineStyleNone {
		parts = append(parts, "ul="+underlineName(u))
	}
	if c := s.Style.GetUnderlineColor(); c != tcell.ColorDefault {
		parts = append(parts, "ulc="+colourString(c, false))
	}
	for _, a := range []struct {
		mask tcell.AttrMask
		name string
	}{
		{tcell.AttrBold, "bold"}, {tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"},
		{tcell.AttrBlink, "blink"}, {tcell.AttrReverse, "reverse"},
		{tcell.AttrStrikeThrough, "strike"},
	} {
		if attrs&a.mask != 0 {
			parts = append(parts, a.name)
		}
	}
	if s.Ext&Invisible != 0 {
		parts = append(parts, "invisible")
	}
	if s.Ext&Overline != 0 {
		parts = append(parts, "overline")
	}
	if s != s.WithoutLink() {
		parts = append(parts, "link")
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, " ")
}

func colourString(c tcell.Color, indexed bool) string {
	switch {
	case c.IsRGB():
		return fmt.Sprintf("#%06x", c.Hex())
	case indexed:
		return fmt.Sprintf("i%d", c-tcell.ColorValid)
	default:
		return fmt.Sprintf("%d", c-tcell.ColorValid)
	}
}

func underlineName(u tcell.UnderlineStyle) string {
	switch u {
	case tcell.UnderlineStyleSolid:
		return "solid"
	case tcell.UnderlineStyleDouble:
		return "double"
	case tcell.UnderlineStyleCurly:
		return "curly"
	case tcell.UnderlineStyleDotted:
		return "dotted"
	case tcell.UnderlineStyleDashed:
		return "dashed"
	}
	return fmt.Sprintf("ul%d", int(u))
}

// cellString renders one cell: its text quoted, the width when not 1, the
// style when not default.
func cellString(c Cell) string {
	s := fmt.Sprintf("%+q", c.Text)
	if c.Width != 1 {
		s += fmt.Sprintf(" w%d", c.Width)
	}
	if c.Style != DefaultStyle {
		s += " {" + styleString(c.Style) + "}"
	}
	return s
}

// dumpRows renders rows as a framed text picture, then the runs of
// non-default style per row, e.g. "  1: x0-3 fg=1 bold".
func dumpRows(rows [][]Cell) string {
	var b strings.Builder
	for y, row := range rows {
		fmt.Fprintf(&b, "%3d |", y)
		for _, c := range row {
			if c.Width != 0 {
				b.WriteString(c.Text)
			}
		}
		b.WriteString("|\n")
	}
	for y, row := range rows {
		if runs := styleRuns(row); runs != "" {
			fmt.Fprintf(&b, "%3d: %s\n", y, runs)
		}
	}
	return b.String()
}

// styleRuns lists the runs of equal non-default style in a row.
func styleRuns(row []Cell) string {
	var runs []string
	for x := 0; x < len(row); {
		end := x + 1
		for end < len(row) && row[end].Style == row[x].Style {
			end++
		}
		if row[x].Style != DefaultStyle {
			runs = append(runs, fmt.Sprintf("x%d-%d %s", x, end-1, styleString(row[x].Style)))
		}
		x = end
	}
	return strings.Join(runs, "; ")
}
