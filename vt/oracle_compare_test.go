package vt

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// The comparison of a model screen with tmux's view of the same stream.
//
// Cells are compared in the order tmux prints them (Capture.Printed),
// skipping padding cells on both sides: for rows whose wide characters
// have their padding, as every normal row does, that is a column-exact
// comparison; for rows where tmux's grid lost a padding cell or kept an
// orphan one, the capture cannot show columns and the order is all there
// is to compare. Everything else the capture shows is compared exactly.
//
// What the capture cannot show, and is therefore skipped (nothing else):
//   - Whether a character after a zero width joiner shares the joiner's
//     cell, when both are in one style (see joinerSplit).
//   - Where tmux's reads from the pty fell, which changes what it makes of
//     a joiner (see joinerRetries).
//   - OSC 8 links: tmux 3.3a drops them; the model's link is ignored.
//   - Cells after the last printed cell of a row: tmux omits cells that
//     were cleared with a background colour there (BCE), so those model
//     cells must be blank with default attributes, in any background.
//   - The style of padding cells, which tmux never prints.

// maxDiffs bounds how many differences one comparison reports.
const maxDiffs = 30

// compareScreen returns the differences between model m and tmux's view v
// (whose capture, history and screen, parsed as c), each as one readable
// line; initialTitle is the title tmux gives a new pane, which the model
// knows as "".
func compareScreen(m *Screen, v *tmuxView, c *Capture, initialTitle string) []string {
	var diffs []string
	add := func(format string, args ...any) {
		if len(diffs) < maxDiffs {
			diffs = append(diffs, fmt.Sprintf(format, args...))
		}
	}
	cur := m.Cursor()
	if cur.X != v.CursorX || cur.Y != v.CursorY || cur.Visible != v.CursorVisible {
		add("cursor: model x=%d y=%d visible=%v, tmux x=%d y=%d visible=%v",
			cur.X, cur.Y, cur.Visible, v.CursorX, v.CursorY, v.CursorVisible)
	}
	if m.AltScreen() != v.Alternate {
		add("alternate screen: model %v, tmux %v", m.AltScreen(), v.Alternate)
	}
	if top, bottom := m.ScrollRegion(); top != v.ScrollTop || bottom != v.ScrollBottom {
		add("scroll region: model %d-%d, tmux %d-%d", top, bottom, v.ScrollTop, v.ScrollBottom)
	}
	md := m.Modes()
	if md.Insert != v.Insert || md.Origin != v.Origin || md.Wrap != v.Wrap {
		add("modes: model insert=%v origin=%v wrap=%v, tmux insert=%v origin=%v wrap=%v",
			md.Insert, md.Origin, md.Wrap, v.Insert, v.Origin, v.Wrap)
	}
	if title := m.Title(); title != v.Title && !(title == "" && v.Title == initialTitle) {
		add("title: model %q, tmux %q", title, v.Title)
	}
	screen := c.Printed[v.History:]
	for y := range screen {
		compareRow(m.Row(y), screen[y], "row", y, add)
	}
	if n := m.ScrollbackLen(); n != v.History {
		add("history: model %d lines, tmux %d", n, v.History)
	}
	for i := range min(m.ScrollbackLen(), v.History) {
		compareRow(m.ScrollbackRow(i), c.Printed[i], "history line", i, add)
	}
	return diffs
}

// compareRow compares one row in print order; see the top of this file.
// what names the row in messages ("row", "history line").
func compareRow(model []Cell, printed []Cell, what string, y int, add func(string, ...any)) {
	var mx []int // columns of the model's printed (non-padding) cells
	for x, cl := range model {
		if cl.Width != 0 {
			mx = append(mx, x)
		}
	}
	tx := 0 // column of the capture's cell, laid out by width
	for i, j := 0, 0; i < len(mx) || j < len(printed); {
		switch {
		case i >= len(mx):
			add("%s %d: tmux has %s at x=%d, model has no cell left", what, y, cellString(printed[j]), tx)
			return
		case j >= len(printed):
			if got := model[mx[i]]; !blankAnyBackground(got) {
				add("%s %d x=%d: model %s, tmux printed nothing (cells past tmux's last used cell must be blank, any background)",
					what, y, mx[i], cellString(got))
			}
			i++
			continue
		}
		got, want := comparable(model[mx[i]]), printed[j]
		if got == want {
			tx += int(want.Width)
			i, j = i+1, j+1
			continue
		}
		if n, m := joinerSplit(model, mx, i, printed, j); n > 0 {
			// The capture cannot tell one cell from two here; both agree
			// on everything it shows.
			for _, p := range printed[j : j+m] {
				tx += int(p.Width)
			}
			i, j = i+n, j+m
			continue
		}
		at := fmt.Sprintf("x=%d", mx[i])
		if mx[i] != tx {
			at = fmt.Sprintf("model x=%d, tmux x=%d", mx[i], tx)
		}
		add("%s %d %s: model %s, tmux %s", what, y, at, cellString(got), cellString(want))
		tx += int(want.Width)
		i, j = i+1, j+1
	}
}

// joinerSplit handles the one place where a capture does not show cell
// boundaries: after a zero width joiner, tmux may or may not have put the
// next character in the same cell (see capturePen.row). When the model's
// cell i holds exactly the text of the capture's cells j, j+1, ... split
// after joiners, or the other way round, all in one style and the single
// cell with the first one's width, it returns how many model and capture
// cells that covers; otherwise 0, 0.
func joinerSplit(model []Cell, mx []int, i int, printed []Cell, j int) (n, m int) {
	a, b := comparable(model[mx[i]]), printed[j]
	if a.Width != b.Width || a.Style != b.Style {
		return 0, 0
	}
	modelAt := func(k int) (Cell, bool) {
		if i+k >= len(mx) {
			return Cell{}, false
		}
		return comparable(model[mx[i+k]]), true
	}
	printedAt := func(k int) (Cell, bool) {
		if j+k >= len(printed) {
			return Cell{}, false
		}
		return printed[j+k], true
	}
	if k := joinedRun(b.Text, b.Style, modelAt); k > 1 {
		return k, 1
	}
	if k := joinedRun(a.Text, a.Style, printedAt); k > 1 {
		return 1, k
	}
	return 0, 0
}

// joinedRun returns how many cells from at(0) on, in style st and each but
// the last ending in a joiner, make up text; 0 if they do not.
func joinedRun(text string, st Style, at func(int) (Cell, bool)) int {
	acc := ""
	for k := 0; ; k++ {
		c, ok := at(k)
		if !ok || c.Style != st || k > 0 && !strings.HasSuffix(acc, string(zeroWidthJoiner)) {
			return 0
		}
		acc += c.Text
		if acc == text {
			return k + 1
		}
		if !strings.HasPrefix(text, acc) {
			return 0
		}
	}
}

// comparable drops what the capture cannot show: the link.
func comparable(c Cell) Cell {
	return Cell{Text: c.Text, Width: c.Width, Style: c.Style.WithoutLink()}
}

// blankAnyBackground reports whether c is an erased cell: a space with
// default attributes except, perhaps, its background.
func blankAnyBackground(c Cell) bool {
	s := c.Style.WithoutLink()
	s.Style = s.Style.Background(tcell.ColorDefault)
	s.Ext &^= BgIndexed
	return c.Text == " " && c.Width == 1 && s == DefaultStyle
}

// modelRows returns the model's visible rows.
func modelRows(m *Screen) [][]Cell {
	_, h := m.Size()
	rows := make([][]Cell, h)
	for y := range rows {
		rows[y] = m.Row(y)
	}
	return rows
}

// report renders a failure: the differences, both screens, the stream.
func report(diffs []string, m *Screen, v *tmuxView, c *Capture, stream []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d differences (at most %d shown):\n", len(diffs), maxDiffs)
	for _, d := range diffs {
		b.WriteString("  " + d + "\n")
	}
	cur := m.Cursor()
	fmt.Fprintf(&b, "tmux (cursor x=%d y=%d visible=%v, %d lines of history):\n%s",
		v.CursorX, v.CursorY, v.CursorVisible, v.History, dumpRows(c.Rows[v.History:]))
	fmt.Fprintf(&b, "model (cursor x=%d y=%d visible=%v, %d lines of history):\n%s",
		cur.X, cur.Y, cur.Visible, m.ScrollbackLen(), dumpRows(modelRows(m)))
	fmt.Fprintf(&b, "stream (%d bytes): %s\n", len(stream), clipQuote(stream, 3000))
	return b.String()
}

func clipQuote(b []byte, n int) string {
	if len(b) <= n {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q...(%d more bytes)", b[:n], len(b)-n)
}
