package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// frame draws the whole screen: the header on the first row, the history
// under it, and the bottom pane on the last rows (the composer over its
// footer, or the permission dialog). The cursor shows only in the
// composer, right after the draft.
func (a *app) frame() string {
	var b strings.Builder
	b.WriteString("\x1b[?25l\x1b[H\x1b[2J")
	if a.w < 20 || a.h < 10 {
		b.WriteString(fit("parrot: the terminal is too small", a.w))
		return b.String()
	}
	put(&b, 0, line{style: sgrHeader, text: header}, a.w)
	var pane []line
	if a.asking != "" {
		pane = a.dialog()
	} else {
		pane = []line{{style: sgrRule, text: strings.Repeat("─", a.w)}, {style: sgrGlyph, text: glyph}, {style: sgrHint, text: footer}}
	}
	top := a.h - len(pane)
	room := top - 3 // the header, a blank row, the history, a blank row
	hist := a.lines[max(0, len(a.lines)-room):]
	for i, l := range hist {
		put(&b, 2+i, l, a.w)
	}
	for i, l := range pane {
		put(&b, top+i, l, a.w)
	}
	if a.asking != "" {
		return b.String()
	}
	shown := a.draft
	if room := a.w - utf8.RuneCountInString(glyph) - 1; len(shown) > room {
		shown = shown[len(shown)-room:] // the draft's end, where the cursor is
	}
	y := top + 1
	b.WriteString("\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(utf8.RuneCountInString(glyph)+1) + "H" + string(shown) + "\x1b[?25h")
	return b.String()
}

// dialog is the permission dialog's rows, top to bottom.
func (a *app) dialog() []line {
	rows := []string{"❯ 1. Yes", "  2. No"}
	if a.lit == 1 {
		rows = []string{"  1. Yes", "❯ 2. No"}
	}
	style := [2]string{"", ""}
	style[a.lit] = sgrLit
	return []line{
		{style: sgrAskRule, text: strings.Repeat("─", a.w)},
		{style: sgrAsk, text: askText, rest: " " + a.asking},
		{},
		{style: style[0], text: rows[0]},
		{style: style[1], text: rows[1]},
		{},
		{style: sgrHint, text: cancel},
	}
}

// put writes l at the start of row y, cut to w columns.
func put(b *strings.Builder, y int, l line, w int) {
	text := fit(l.text, w)
	rest := fit(l.rest, w-utf8.RuneCountInString(text))
	b.WriteString("\x1b[" + strconv.Itoa(y+1) + ";1H" + l.style + text + sgrReset + rest)
}

// fit cuts text to w columns (its characters are one column wide).
func fit(text string, w int) string {
	if w <= 0 {
		return ""
	}
	if utf8.RuneCountInString(text) <= w {
		return text
	}
	return string([]rune(text)[:w])
}
