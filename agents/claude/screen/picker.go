package screen

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// claudePicker is Claude Code's session picker, opened by /resume
// (recordings thread-resume; recordings/rig/threads.go), drawn at the
// bottom of the screen under a rule of '▔': "Resume session" in the
// dialog header's style at column x, a search box one row high spanning
// the pane less x columns each side, the session rows (the current one
// with '❯' at column x in the highlight colour, everything else indented
// further), a blank row, and the key hints from column hintX, wrapped at
// the pane's width. It reads as menu_or_viewer with no interaction: akk
// only knows the agent is not at its composer.
// Its styles are its own, the dark theme's (the only one recorded): in
// another theme it does not match and stays unknown.
type claudePicker struct {
	x, hintX int
	hints    string // the hint rows joined by one space
}

// The picker's title (the dialogs' header style) and current-row glyph
// (the highlight colour), as the dark theme draws them.
var (
	claudePickerTitleStyle = recognizers.Fg256(153).Bold().Style()
	claudePickerGlyph      = recognizers.Fg256(153).Style()
	claudePickerGrey       = recognizers.Fg256(246).Style()
)

const claudePickerTitle = "Resume session"

// maxPickerRows bounds the rows between the search box and the hints.
const maxPickerRows = 32

// resumePicker proves the picker ending on row b, the screen's last
// non-blank row; a screen that matches only part of it is not read.
func (c *claude21) resumePicker(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.resumePicker")()
	p := c.picker
	if p == nil {
		return false
	}
	h := b
	for ; h > 0 && !g.Blank(h-1); h-- {
		if g.First(h) != p.hintX {
			return false
		}
	}
	if g.First(h) != p.hintX {
		return false
	}
	rows := make([]string, 0, b-h+1)
	for y := h; y <= b; y++ {
		rows = append(rows, g.Trimmed(y))
	}
	if strings.Join(rows, " ") != p.hints {
		return false
	}
	current := 0
	for y := h - 2; y >= 0 && y >= h-2-maxPickerRows; y-- {
		switch {
		case g.RowIs(y, p.x, claudePickerTitle):
			if current != 1 || y > h-6 || !g.Styled(y, p.x, g.Width(), claudePickerTitleStyle) || !c.pickerBox(g, y+1, p.x) || !pickerTopRule(g, y-1) {
				return false
			}
			out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
			out.Picker = p.rows(g, y+4, h-1)
			return true
		case g.Blank(y) || g.First(y) > p.x:
		case g.First(y) == p.x && g.Rune(p.x, y) == '❯' && g.StyleAt(p.x, y) == claudePickerGlyph && g.SpaceAt(p.x+1, y):
			current++
		case g.First(y) == p.x && (g.Rune(p.x, y) == '╰' || g.Rune(p.x, y) == '│' || g.Rune(p.x, y) == '╭'):
			// the search box, proven with the title
		default:
			return false
		}
	}
	return false
}

// rows reads the list between the search box and the blank row over the
// hints, rows top to end-1, in the one shape recorded (Recognition.Picker):
// the group's name at column x+2 in grey (the project), a blank row, the
// current session ('❯' at x and its title from x+2, both in the highlight
// colour) over its detail row at x+2 in grey ("5 seconds ago · HEAD ·
// 12.7KB"). No recording shows a session that is not current (the
// conversation in the pane is left out of the list), so a list with
// more rows, or any other, gives nil.
func (p *claudePicker) rows(g *recognizers.Grid, top, end int) *recognizers.Picker {
	defer g.Enter("claudePicker.rows")()
	x, cur, det := p.x, top+2, top+3
	if end-top != 4 || g.First(top) != x+2 || !g.Styled(top, 0, g.Width(), claudePickerGrey) || !g.Blank(top+1) ||
		g.First(cur) != x || g.Rune(x, cur) != '❯' || !g.SpaceAt(x+1, cur) || g.SpaceAt(x+2, cur) || !g.Styled(cur, 0, g.Width(), claudePickerGlyph) ||
		g.First(det) != x+2 || !g.Styled(det, 0, g.Width(), claudePickerGrey) {
		return nil
	}
	title, detail := g.TextFrom(cur, x+2), g.TextFrom(det, x+2)
	if !strings.Contains(detail, " ago · ") {
		return nil
	}
	return &recognizers.Picker{Rows: []recognizers.PickerRow{{Title: title, Detail: detail, Truncated: strings.HasSuffix(title, "…")}}, Shown: 1, Total: 1}
}

// pickerBox proves the search box from row y: three rows from column x to
// the pane's last column less x, "╭─…─╮", "│ ⌕ … │", "╰─…─╯".
func (c *claude21) pickerBox(g *recognizers.Grid, y, x int) bool {
	r := g.Width() - 1 - x
	for i, ends := range [3][2]rune{{'╭', '╮'}, {'│', '│'}, {'╰', '╯'}} {
		if g.First(y+i) != x || g.Last(y+i) != r || g.Rune(x, y+i) != ends[0] || g.Rune(r, y+i) != ends[1] {
			return false
		}
	}
	return g.HasAt(y+1, x+2, "⌕ ") && strings.Trim(g.Text(y, x+1, r), "─") == "" && strings.Trim(g.Text(y+2, x+1, r), "─") == ""
}

// pickerTopRule proves the full-width rule of '▔' over the picker.
func pickerTopRule(g *recognizers.Grid, y int) bool {
	return g.First(y) == 0 && g.Last(y) == g.Width()-1 && strings.Trim(g.Trimmed(y), "▔") == ""
}
