package recognizers

import (
	"fmt"
	"testing"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// gridRowsMatch compares everything the grid answers about every cell with
// what vt.Screen.Cell says.
func gridRowsMatch(t *testing.T, g *Grid, scr *vt.Screen) {
	t.Helper()
	w, h := scr.Size()
	for y := range h {
		first, last := -1, -1
		for x := range w {
			c := scr.Cell(x, y)
			if got := g.StyleAt(x, y); got != c.Style {
				t.Fatalf("%d,%d: grid style %+v, screen %+v", x, y, got, c.Style)
			}
			if got := g.Text(y, x, x+1); got != c.Text && !(c.Text == "\u00a0" && got == " ") {
				t.Fatalf("%d,%d: grid text %q, screen %q", x, y, got, c.Text)
			}
			if !blankText(c) {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if g.First(y) != first || g.Last(y) != last {
			t.Fatalf("row %d: grid first/last %d/%d, want %d/%d", y, g.First(y), g.Last(y), first, last)
		}
	}
}

// blankText is the grid's blank rule restated on a vt.Cell: a space that
// its style does not paint.
func blankText(c vt.Cell) bool {
	space := c.Text == " " || c.Text == "\u00a0" || c.Text == ""
	_, bg, attr := c.Style.Decompose()
	return space && bg == tcell.ColorDefault && attr&(tcell.AttrReverse|tcell.AttrStrikeThrough) == 0 &&
		c.Style.GetUnderlineStyle() == tcell.UnderlineStyleNone
}

func TestGridReadsCells(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"styled", "\x1b[1;38;5;174m❯\x1b[0m 1. Yes  \x1b[2mdim\x1b[0m"},
		{"painted spaces", "   \x1b[48;5;237m   \x1b[0m  x  \x1b[7m \x1b[0m"},
		{"underlined space", "\x1b[4m \x1b[0m"},
		{"wide and graphemes", " 中 e\u0301 👍🏽 \u00a0x"},
		{"line drawing", "\x1b(0lqqk x\u0301\x1b(B"},
		{"blank", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scr := vt.New(16, 2, vt.Options{})
			fmt.Fprint(scr, tc.in)
			var g Grid
			g.load(scr, true)
			gridRowsMatch(t, &g, scr)
		})
	}
}

// TestGridAcrossStyleCompaction: rows the grid keeps from an earlier read
// hold handles of the screen's earlier style generation, which the grid
// resolves only when asked; after the screen compacts its table (and
// renumbers the kept styles) the grid must not resolve them in the new
// one.
func TestGridAcrossStyleCompaction(t *testing.T) {
	scr := vt.New(20, 4, vt.Options{})
	// Styles that no cell keeps come first, so the kept ones move down
	// when the table is compacted.
	fmt.Fprint(scr, "\x1b[3;1H\x1b[31ma\x1b[32mb\x1b[33mc\x1b[0m\x1b[2K\x1b[1;1H")
	fmt.Fprint(scr, "\x1b[38;2;1;2;3mkept\x1b[0m \x1b[38;5;100mtoo\x1b[0m")
	var g Grid
	g.load(scr, true)
	scr.ClearDirty()
	gen := scr.StyleGeneration()
	// Thousands of styles on the last row, erased again: only that row
	// is dirty, and the table outgrows its limit and is compacted.
	for i := 0; scr.StyleGeneration() == gen; i++ {
		if i > 1<<16 {
			t.Fatal("the screen never compacted its style table")
		}
		fmt.Fprintf(scr, "\x1b[4;1H\x1b[38;2;%d;%d;9mx", i>>8&0xff, i&0xff)
	}
	fmt.Fprint(scr, "\x1b[0m\x1b[4;1H\x1b[2K")
	if scr.Dirty(0) {
		t.Fatal("row 0 dirty: the test no longer exercises kept rows")
	}
	g.load(scr, false)
	gridRowsMatch(t, &g, scr)
}

// TestGridStyleTableRebuilt: a long-lived grid's own table is bounded.
func TestGridStyleTableRebuilt(t *testing.T) {
	scr := vt.New(8, 2, vt.Options{})
	var g Grid
	for i := range maxStyles + 50 {
		fmt.Fprintf(scr, "\x1b[1;1H\x1b[38;2;%d;%d;7mx\x1b[0m", i>>8&0xff, i&0xff)
		g.load(scr, false)
		g.StyleAt(0, 0)
		scr.ClearDirty()
		if len(g.styles) > maxStyles+1 {
			t.Fatalf("after %d styles the grid holds %d", i, len(g.styles))
		}
	}
	gridRowsMatch(t, &g, scr)
}
