package popup

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/answer"
	"github.com/agent-knock-knock/akk/vt"
)

var (
	stTitle  = tcell.StyleDefault.Reverse(true).Bold(true)
	stSel    = tcell.StyleDefault.Reverse(true)
	stDim    = tcell.StyleDefault.Dim(true)
	stBad    = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	stGood   = tcell.StyleDefault.Foreground(tcell.ColorGreen)
	stChoice = tcell.StyleDefault.Foreground(tcell.ColorAqua).Bold(true)
	stFrame  = tcell.StyleDefault.Foreground(tcell.ColorGray)
)

// kindStyle colours a kind by urgency.
func kindStyle(kind string) tcell.Style {
	switch kind {
	case api.AttentionPermission, api.AttentionBlocked, api.AttentionFailed:
		return tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	case api.AttentionDone:
		return tcell.StyleDefault.Foreground(tcell.ColorGreen)
	}
	return tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
}

// maxListRows caps the list so the prompt keeps most of a 24-row popup.
const maxListRows = 5

// View draws m on s (without Show).
func View(s tcell.Screen, m *Model, now time.Time) {
	s.Clear()
	w, h := s.Size()
	if w < 20 || h < 8 {
		put(s, 0, 0, w, "akk popup: too small", stBad)
		return
	}
	y := 0
	title := " akk — nothing needs you"
	if n := len(m.Items); n > 0 {
		title = fmt.Sprintf(" akk — %d agent%s need%s you", n, plural(n, "s", ""), plural(n, "", "s"))
	} else if !m.Loaded {
		title = " akk — loading…"
	}
	fill(s, 0, y, w, stTitle)
	put(s, 0, y, w, title, stTitle)
	y++
	if d := m.Degraded; d != nil {
		put(s, 0, y, w, " akk cannot act now ("+d.State+"): "+d.Detail, stBad)
		y++
	}
	y = viewList(s, m, now, y, w)
	foot := footer(m, w)
	bottom := h - 1 - len(foot) // rows below: message, help
	if m.Detail != nil {
		y = viewDetail(s, m, y, w, bottom)
	}
	_ = y
	for i, l := range foot {
		put(s, 0, h-len(foot)+i, w, l.text, l.style)
	}
}

func plural(n int, many, one string) string {
	if n == 1 {
		return one
	}
	return many
}

func viewList(s tcell.Screen, m *Model, now time.Time, y, w int) int {
	first := 0
	if m.Sel >= maxListRows {
		first = m.Sel - maxListRows + 1
	}
	for i := first; i < len(m.Items) && i < first+maxListRows; i++ {
		it := m.Items[i]
		t := it.Terminal
		st := tcell.StyleDefault
		if i == m.Sel {
			st = stSel
			fill(s, 0, y, w, st)
		}
		x := put(s, 0, y, w, fmt.Sprintf(" %d ", i+1), st)
		x += put(s, x, y, w-x, fmt.Sprintf("%-14s", it.Kind), kindStyle(it.Kind).Reverse(i == m.Sel))
		agent := answer.AgentLabel(t)
		line := fmt.Sprintf(" %-15s %s:%s  %s  %s", agent, t.Session, t.PaneID, answer.Age(now, t.StateSince), shortPath(t.Cwd))
		put(s, x, y, w-x, line, st)
		y++
	}
	if len(m.Items) > maxListRows {
		put(s, 0, y, w, fmt.Sprintf(" … %d in all (tab: next)", len(m.Items)), stDim)
		y++
	}
	return y
}

func shortPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && len(p) > 30 {
		return "…" + p[i:]
	}
	return p
}

// viewDetail draws the selected terminal's prompt region and choices
// between rows y and bottom (exclusive).
func viewDetail(s tcell.Screen, m *Model, y, w, bottom int) int {
	d := m.Detail
	t := d.Status.Terminal
	hdr := fmt.Sprintf("─ %s %s  pane %s  %s ", t.Agent, t.ScreenState, t.PaneID, t.Cwd)
	fill(s, 0, y, w, stFrame)
	for x := 0; x < w; x++ {
		s.SetContent(x, y, '─', nil, stFrame)
	}
	put(s, 0, y, w, hdr, stFrame)
	y++
	var below []line
	if d.Manual != "" {
		below = append(below, line{"  " + d.Manual, stBad})
	}
	for i, c := range d.Choices {
		st := tcell.StyleDefault
		mark := "  "
		if i == m.Opt {
			st, mark = stChoice, "❯ "
		}
		below = append(below, line{fmt.Sprintf("%s%d. %s", mark, i+1, c.Label), st})
	}
	if m.Typing {
		below = append(below, line{"  > " + string(m.Text) + "▏", tcell.StyleDefault.Bold(true)})
	}
	room := bottom - y - len(below)
	y = viewRegion(s, d.Region, y, w, room)
	for _, l := range below {
		if y >= bottom {
			break
		}
		put(s, 0, y, w, l.text, l.style)
		y++
	}
	return y
}

// viewRegion draws the prompt region's cells with their own styles: the
// rows that hold something, from the top, as many as fit; a clipped
// right edge or bottom is marked.
func viewRegion(s tcell.Screen, region *vt.Capture, y, w, room int) int {
	if region == nil || room <= 0 {
		return y
	}
	rows := region.Rows
	lo, hi := 0, len(rows)
	for lo < hi && region.Used[lo] == 0 {
		lo++
	}
	for hi > lo && region.Used[hi-1] == 0 {
		hi--
	}
	clippedRows := hi-lo > room
	if clippedRows {
		hi = lo + room - 1
	}
	for r := lo; r < hi; r++ {
		x := 0
		for _, c := range trimBlank(rows[r][:region.Used[r]]) {
			if c.Width == 0 {
				continue
			}
			if x+int(c.Width) > w-1 {
				s.SetContent(w-1, y, '…', nil, stDim)
				break
			}
			s.Put(x, y, c.Text, c.Style.Style)
			x += int(c.Width)
		}
		y++
	}
	if clippedRows {
		put(s, 0, y, w, fmt.Sprintf("  … %d more rows (g: jump to the pane)", len(rows)-hi), stDim)
		y++
	}
	return y
}

// trimBlank drops a row's trailing blank cells (the pane's width of
// padding), so only real content counts as clipped.
func trimBlank(row []vt.Cell) []vt.Cell {
	n := len(row)
	for n > 0 && row[n-1].Text == " " && row[n-1].Style == vt.DefaultStyle {
		n--
	}
	return row[:n]
}

type line struct {
	text  string
	style tcell.Style
}

// footer is the message (up to three rows of w) and the key help.
func footer(m *Model, w int) []line {
	var out []line
	if m.Msg != "" {
		st := stGood
		if m.MsgBad {
			st = stBad
		}
		msg := []rune(m.Msg)
		for len(msg) > 0 && len(out) < 3 {
			n := min(len(msg), w-2)
			out = append(out, line{" " + string(msg[:n]), st})
			msg = msg[n:]
		}
	}
	help := " ↑↓ choose  1-9 pick  ⏎ answer  tab next agent  g jump  q close"
	switch {
	case m.Typing:
		help = " type the answer  ⏎ send  esc back"
	case !m.hasChoices():
		help = " tab next agent  ⏎/g jump to the pane  q close"
	}
	return append(out, line{help, stDim})
}

// put writes str at x, y within w cells and returns the width used.
func put(s tcell.Screen, x, y, w int, str string, st tcell.Style) int {
	used := 0
	for str != "" && used < w {
		rest, width := s.Put(x+used, y, str, st)
		if width == 0 {
			break
		}
		str = rest
		used += width
	}
	return used
}

func fill(s tcell.Screen, x, y, w int, st tcell.Style) {
	for i := x; i < x+w; i++ {
		s.SetContent(i, y, ' ', nil, st)
	}
}
