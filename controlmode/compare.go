package controlmode

import (
	"fmt"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// maxDiffs bounds CompareSeed's report.
const maxDiffs = 20

// CompareSeed compares a vt screen with tmux's view of the same pane at
// the same point of the stream, cell by cell (never byte by byte), and
// returns the differences (none: equal). It allows for what
// capture-pane -e -N loses (research §7): cells after a row's last
// printed cell are only checked to be blank, whatever their background
// (BCE erases are not captured), and rows tmux could not lay out
// (vt.Capture.Overflow) are compared as printed.
func CompareSeed(scr *vt.Screen, s *Seed) []string {
	var d []string
	add := func(format string, args ...any) bool {
		if len(d) < maxDiffs {
			d = append(d, fmt.Sprintf(format, args...))
		}
		return len(d) < maxDiffs
	}
	w, h := scr.Size()
	if w != s.Width || h != s.Height {
		add("size %dx%d, tmux %dx%d", w, h, s.Width, s.Height)
		return d
	}
	cp, err := vt.ParseCapture(s.Capture, s.Width, s.Height)
	if err != nil {
		add("capture: %v", err)
		return d
	}
	for y := 0; y < h; y++ {
		if !compareRow(scr, cp, y, add) {
			return d
		}
	}
	compareModes(scr, s, add)
	return d
}

func compareRow(scr *vt.Screen, cp *vt.Capture, y int, add func(string, ...any) bool) bool {
	row := scr.Row(y)
	if cp.Overflow[y] {
		i := 0
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			if i < len(cp.Printed[y]) && !sameCell(c, cp.Printed[y][i]) {
				return add("row %d (overflowed) x=%d: %s, tmux %s", y, x, cellString(c), cellString(cp.Printed[y][i]))
			}
			i++
		}
		return true
	}
	for x, c := range row {
		t := cp.Rows[y][x]
		if x < cp.Used[y] {
			if !sameCell(c, t) {
				return add("cell %d,%d: %s, tmux %s", x, y, cellString(c), cellString(t))
			}
			continue
		}
		if !blankAnyBackground(c) {
			return add("cell %d,%d: %s, tmux blank (row used %d)", x, y, cellString(c), cp.Used[y])
		}
	}
	return true
}

func sameCell(a, b vt.Cell) bool {
	if a.Width == 0 || b.Width == 0 {
		return a.Width == b.Width
	}
	return a.Text == b.Text && a.Width == b.Width && sameStyle(a.Style, b.Style)
}

// sameStyle ignores hyperlinks, address and id (tmux 3.3a captures none).
func sameStyle(a, b vt.Style) bool {
	return a.WithoutLink() == b.WithoutLink()
}

func blankAnyBackground(c vt.Cell) bool {
	if c.Text != " " && c.Text != "" {
		return false
	}
	st := c.Style.WithoutLink().Style.Background(tcell.ColorDefault)
	return st == tcell.StyleDefault && c.Style.Ext&^vt.BgIndexed == 0
}

func cellString(c vt.Cell) string {
	fg, bg, attr := c.Style.Decompose()
	return fmt.Sprintf("%q/w%d/fg=%v,bg=%v,attr=%#x,ext=%#x", c.Text, c.Width, fg, bg, attr, c.Style.Ext)
}

func compareModes(scr *vt.Screen, s *Seed, add func(string, ...any) bool) {
	cur := scr.Cursor()
	if cur.X != s.CursorX || cur.Y != s.CursorY {
		add("cursor %d,%d, tmux %d,%d", cur.X, cur.Y, s.CursorX, s.CursorY)
	}
	m := scr.Modes()
	top, bottom := scr.ScrollRegion()
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"cursor visible", m.CursorVisible, s.CursorVisible},
		{"alternate screen", scr.AltScreen(), s.Alt},
		{"scroll region", [2]int{top, bottom}, [2]int{s.ScrollTop, s.ScrollBottom}},
		{"insert", m.Insert, s.Insert},
		{"origin", m.Origin, s.Origin},
		{"wrap", m.Wrap, s.Wrap},
		{"app cursor", m.AppCursor, s.AppCursor},
		{"app keypad", m.AppKeypad, s.AppKeypad},
		{"mouse", [5]bool{m.MouseStandard, m.MouseButton, m.MouseAll, m.MouseUTF8, m.MouseSGR},
			[5]bool{s.MouseStandard, s.MouseButton, s.MouseAll, s.MouseUTF8, s.MouseSGR}},
	} {
		if f.got != f.want {
			add("%s %v, tmux %v", f.name, f.got, f.want)
		}
	}
}
