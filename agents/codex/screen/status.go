package screen

import (
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// codexStatus is the card /status prints into Codex's history (recordings
// status and status-ambiguous; recordings/rig/inspect_codex.go), read
// only as the newest block right above the idle, empty composer: the
// command echoed alone at column 0 in magenta, with a blank row above and
// under it, then the card:
//
//	>_ OpenAI Codex (v0.171.0)
//
//	Model:               GPT-6-Sol (reasoning medium, summaries auto)
//	…                                          the rows (recognizers.StatusLayout)
//
// its header at the names' column (">_" in the glyph style, "OpenAI
// Codex" bold, the version dim), a blank row, the rows. 0.155.1 draws it
// in a dim rounded box ("╭─…─╮", "│ … │", "╰─…─╯") from column 0, its
// rows inside. Names and their colons are dim, values plain with dim
// parts ("(reasoning medium, summaries auto)"; Limits' "data not
// available yet" all dim). The screen stays idle: Recognition.Status is
// an extra of the composer's reading.
type codexStatus struct {
	boxed  bool
	header string   // ">_ OpenAI Codex (v<version>)"
	glyph  vt.Style // the header's ">_"
	layout recognizers.StatusLayout
}

// The echoed command and its style.
const codexStatusEcho = "/status"

var codexStatusEchoStyle = recognizers.FgIdx(5).Style()

// codexStatusRows are the rows the recorded versions show, in their
// order: the session's group, the blank row, usage. Context window is
// shown once a turn used some (status-ambiguous); 0.171.0 adds Thread
// name once the thread has a prompt (status-ambiguous). Every value is
// carried: none of them is a credential (no Account row is recorded: an
// API-key provider has none).
func codexStatusRows(threadName bool) []recognizers.StatusRow {
	rows := []recognizers.StatusRow{
		{Name: "Model"},
		{Name: "Model provider"},
		{Name: "Directory"},
		{Name: "Permissions"},
		{Name: "Agents.md"},
	}
	if threadName {
		rows = append(rows, recognizers.StatusRow{Name: "Thread name", Optional: true})
	}
	return append(rows,
		recognizers.StatusRow{Name: "Collaboration mode"},
		recognizers.StatusRow{Name: "Session"},
		recognizers.StatusRow{Name: "Token usage", Group: 1},
		recognizers.StatusRow{Name: "Context window", Group: 1, Optional: true},
		recognizers.StatusRow{Name: "Limits", Group: 1})
}

// codexStatusLayout: names dim at column x, values gap columns past the
// longest name's colon.
func codexStatusLayout(x, gap int, rows []recognizers.StatusRow) recognizers.StatusLayout {
	return recognizers.StatusLayout{Rows: rows, NameX: x, Gap: gap, Name: recognizers.Plain().Dim().Style(),
		Values: []vt.Style{recognizers.Plain().Style(), recognizers.Plain().Dim().Style()}}
}

// statusCard reads the card ending on the last non-blank row above the
// composer's first row p, or nil.
func (c *codex0x) statusCard(g *recognizers.Grid, p int) *recognizers.StatusPanel {
	defer g.Enter("codex0x.statusCard")()
	s := c.status
	if s == nil {
		return nil
	}
	end := p - 1
	for ; end >= 0 && g.Blank(end); end-- {
	}
	// The echo is the first row up from there that starts at column 0
	// and is not the box's.
	e := end
	for ; e >= 0 && e >= end-recognizers.MaxStatusRows && (g.Blank(e) || g.First(e) > 0 || s.boxed && s.boxRow(g, e)); e-- {
	}
	if e < 0 || g.First(e) != 0 || g.Last(e) != len(codexStatusEcho)-1 {
		return nil // untraced: --explain shows nothing of a screen without the echo
	}
	if echo, _, _ := g.TextAt(e, 0, codexStatusEcho); !echo || !g.Styled(e, 0, g.Width(), codexStatusEchoStyle) || !g.Blank(e-1) || !g.Blank(e+1) {
		return nil
	}
	y, left, right, limit := e+2, 0, g.Width(), g.Width()
	if s.boxed {
		r := g.Last(y)
		if !s.box(g, y, end, r) {
			return nil
		}
		// Inside the box; a value ends a column before its right side.
		y, end, left, right, limit = y+1, end-1, 1, r, r-1
	}
	x := s.layout.NameX
	if recognizers.FirstIn(g, y, left, right) != x || !g.HasAt(y, x, s.header) || recognizers.LastIn(g, y, left, right) != x+recognizers.DisplayWidth(s.header)-1 ||
		!g.Styled(y, x, x+2, s.glyph) || !g.Styled(y, x+3, x+15, recognizers.Plain().Bold().Style()) || !g.Styled(y, x+15, right, recognizers.Plain().Dim().Style()) ||
		recognizers.FirstIn(g, y+1, left, right) >= 0 {
		return nil
	}
	return s.layout.Parse(g, y+2, end+1, left, right, limit)
}

// boxRow reports whether row y starts with one of the box's left-side
// characters.
func (s *codexStatus) boxRow(g *recognizers.Grid, y int) bool {
	switch g.Rune(0, y) {
	case '╭', '│', '╰':
		return true
	}
	return false
}

// box proves the dim box from row top to row bottom, its right side on
// column r: "╭─…─╮", rows "│ … │", "╰─…─╯", nothing outside it.
func (s *codexStatus) box(g *recognizers.Grid, top, bottom, r int) bool {
	defer g.Enter("codexStatus.box")()
	dim := recognizers.Plain().Dim().Style()
	if bottom-top < 3 || r < 2 {
		return false
	}
	for y := top; y <= bottom; y++ {
		ends := [2]rune{'│', '│'}
		switch y {
		case top:
			ends = [2]rune{'╭', '╮'}
		case bottom:
			ends = [2]rune{'╰', '╯'}
		}
		if g.First(y) != 0 || g.Last(y) != r || g.Rune(0, y) != ends[0] || g.Rune(r, y) != ends[1] ||
			g.StyleAt(0, y) != dim || g.StyleAt(r, y) != dim {
			return false
		}
		if (y == top || y == bottom) && (!g.Styled(y, 0, r+1, dim) || strings.Trim(g.Text(y, 1, r), "─") != "") {
			return false
		}
	}
	return true
}
