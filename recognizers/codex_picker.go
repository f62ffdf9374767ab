package recognizers

import (
	"strings"

	"github.com/agent-knock-knock/akk/vt"
)

// codexPicker is Codex's full-screen session picker, opened by /resume
// (recordings thread-resume; recordings/rig/threads.go): a title at
// column 1 of the top row, fixed rows under it, one session row per
// conversation (the current one with a glyph at column 2), and at the
// bottom a rule ending in "N / M · P% ─" and two rows of key hints, the
// pane's last row left blank. It reads as menu_or_viewer with no
// interaction: akk only knows the agent is not at its composer.
type codexPicker struct {
	title      string
	titleStyle vt.Style
	// header are the rows under the title, from row 2, each over a blank
	// row, exactly as recorded (the filters and the search box).
	header []string
	glyph  rune      // the current session row's
	hints  [2]string // the key hints, at column 1
}

// resumePicker proves the picker on a screen whose last non-blank row is
// b; a screen that matches only part of it is not read.
func (c *codex0x) resumePicker(g *grid, b int, out *Recognition) bool {
	defer g.enter("codex0x.resumePicker")()
	p := c.picker
	if p == nil || b != g.h-2 || !g.rowIs(0, 1, p.title) || !g.styled(0, 1, g.w, p.titleStyle) || !g.blank(1) {
		return false
	}
	y := 2
	for _, h := range p.header {
		if !g.rowIs(y, 1, h) || !g.blank(y+1) {
			return false
		}
		y += 2
	}
	if !g.rowIs(b-1, 1, p.hints[0]) || !g.rowIs(b, 1, p.hints[1]) || !pickerRule(g, b-2) {
		return false
	}
	current := 0
	for ; y < b-2; y++ {
		switch {
		case g.blank(y):
		case g.first(y) == 2 && g.ch(2, y) == p.glyph && g.space(3, y):
			current++
		case g.first(y) != 4:
			return false
		}
	}
	if current != 1 {
		return false
	}
	out.ScreenState, out.Composer = MenuOrViewer, ComposerAbsent
	return true
}

// pickerRule proves the picker's rule on row y: '─' from column 0, then
// " N / M · P% ─" ending at the pane's last column.
func pickerRule(g *grid, y int) bool {
	if g.first(y) != 0 || g.last(y) != g.w-1 {
		return false
	}
	t := strings.TrimLeft(g.trimmed(y), "─")
	t, ok := strings.CutSuffix(t, "% ─")
	if !ok || !strings.HasPrefix(t, " ") {
		return false
	}
	pos, pct, ok := strings.Cut(t[1:], " · ")
	n, m, ok2 := strings.Cut(pos, " / ")
	return ok && ok2 && digits(n) && digits(m) && digits(pct)
}

// digits reports a non-empty run of at most four decimal digits.
func digits(s string) bool {
	return s != "" && len(s) <= 4 && strings.Trim(s, "0123456789") == ""
}
