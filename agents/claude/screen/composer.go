package screen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// composer recognizes Claude's composer frame ending at row b: the footer
// on b, a full-width rule above it, the "❯" rows, a full-width rule. It
// sets idle or working, the composer and the activity evidence.
func (c *claude21) composer(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.composer")()
	lower := b - 1
	if full, _ := g.Rule(lower, '─', c.composerRule); !full {
		return false
	}
	upper := -1
	for y := lower - 1; y >= max(0, lower-recognizers.MaxComposerRows-1); y-- {
		if full, _ := g.Rule(y, '─', c.composerRule); full {
			upper = y
			break
		}
	}
	p := upper + 1
	if upper < 0 || p == lower || g.Rune(0, p) != '❯' || !slices.Contains(c.composerGlyphs, g.StyleAt(0, p)) ||
		!g.SpaceAt(1, p) {
		return false
	}
	for y := p + 1; y < lower; y++ {
		if !g.BlankCell(g.Cell(0, y)) || !g.BlankCell(g.Cell(1, y)) {
			return false
		}
	}
	out.Region = recognizers.Region{Top: upper, Rows: b - upper + 1}
	out.Composer = contract.ComposerEmpty
	if draft := c.draft(g, p, lower); draft != "" {
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
	}
	var unsure bool
	out.Stashed, out.DraftRestored, unsure = c.stashRow(g, upper-1)
	if out.Composer == contract.ComposerDraft && c.stashKey != nil && !out.Stashed && !unsure {
		out.Clear = &recognizers.Clear{Keys: c.stashKey, Stash: true}
	}
	interrupt, known := c.composerFooter(g, b)
	var queued bool
	out.Activity, queued = c.activity(g, upper)
	out.Activity.InterruptHint = interrupt
	switch {
	case !known:
		out.ScreenState = contract.ScreenUnknown
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteFooterUnknown, "row "+strconv.Itoa(b)))
	case interrupt || out.Activity.Spinner || queued:
		out.ScreenState = contract.ScreenWorking
	default:
		out.ScreenState = contract.ScreenIdle
	}
	if out.ScreenState == contract.ScreenIdle && out.Composer == contract.ComposerDraft && lower == p+1 && strings.HasPrefix(out.Draft, "/") {
		if recognizers.SlashCommand(out.Draft) {
			out.Completion = c.completion(g, upper, out.Draft)
		}
		out.NoCompletion = out.Completion == "" && c.noCompletion(g, upper)
	}
	for y := 0; y < upper; y++ {
		if c.promptPhrase(g, y, true) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NotePromptInTranscript, "row "+strconv.Itoa(y)))
			break
		}
	}
	return true
}

// draft returns the composer's text: rows p to lower-1 from column 2,
// right-trimmed, joined by newlines; "" when every cell is blank. A
// one-row draft showing a command's argument hint is the text typed
// before the hint, its trailing space kept (argHint).
func (c *claude21) draft(g *recognizers.Grid, p, lower int) string {
	defer g.Enter("claude21.draft")()
	blank := true
	for y := p; y < lower; y++ {
		if g.Last(y) >= 2 {
			blank = false
		}
	}
	if blank {
		return ""
	}
	if lower == p+1 {
		if x, ok := c.argHint(g, p); ok {
			return g.Text(p, 2, x)
		}
	}
	var rows []string
	for y := p; y < lower; y++ {
		rows = append(rows, strings.TrimRight(g.Text(y, 2, g.Width()), " "))
	}
	return strings.TrimRight(strings.Join(rows, "\n"), "\n")
}

// stashRow reads the end of row y, right above the composer's upper
// rule: the stash chip or the restored notice, right-aligned (past the
// row's first third) and every cell in the notice style, alone or after
// " · ". unsure: the row names a stash in another shape (a chip akk cannot
// prove absent), so no ctrl+s may be offered.
func (c *claude21) stashRow(g *recognizers.Grid, y int) (stashed, restored, unsure bool) {
	defer g.Enter("claude21.stashRow")()
	if c.stashChip == "" || g.Blank(y) {
		return false, false, false
	}
	text := g.TextFrom(y, g.First(y))
	is := func(s string) bool { return text == s || strings.HasSuffix(text, " · "+s) }
	if g.First(y) >= g.Width()/3 && g.Styled(y, 0, g.Width(), c.notice) {
		switch {
		case is(c.stashChip):
			return true, false, false
		case is(c.restoredNotice):
			return false, true, false
		}
	}
	return false, false, strings.Contains(strings.ToLower(text), "stash")
}

// composerFooter reads the footer under the composer: the mode, then
// known hints separated by " · ", all in the footer style.
func (c *claude21) composerFooter(g *recognizers.Grid, b int) (interrupt, known bool) {
	defer g.Enter("claude21.composerFooter")()
	x := c.composerFooterX
	if g.First(b) != x {
		return false, false
	}
	segs := strings.Split(g.TextFrom(b, x), " · ")
	i := slices.IndexFunc(c.footerModes, func(m footerMode) bool { return m.mode == segs[0] })
	if i < 0 {
		return false, false
	}
	lit := x + recognizers.DisplayWidth(c.footerModes[i].lit)
	if !g.Styled(b, x, lit, c.footerModes[i].accent) || !g.Styled(b, lit, g.Width(), c.footer) {
		return false, false
	}
	for _, s := range segs[1:] {
		if !slices.Contains(c.footerHints, s) {
			return false, false
		}
		interrupt = interrupt || s == c.interruptHint
	}
	return interrupt, true
}

// activity reads the line nearest above the composer (past the
// right-aligned effort line and prompts queued for the running turn):
// Claude's spinner "✻ Verbing… (4s · ↓ 7 tokens)" in the spinner colour,
// or a finished "✻ Cooked for 16s". Verbs are random: only glyph, style
// and shape are read. queued: a prompt waits for the running turn
// ("  ❯ text" on a background box, measured on 2.1.267), which only a
// working agent shows.
func (c *claude21) activity(g *recognizers.Grid, upper int) (a recognizers.Activity, queued bool) {
	defer g.Enter("claude21.activity")()
	y := upper - 1
	for ; y >= 0; y-- {
		if c.queuedPrompt(g, y) {
			queued = true
		} else if !g.Blank(y) && g.First(y) < g.Width()/3 {
			break
		}
	}
	if y < 0 || !strings.ContainsRune(c.spinnerGlyphs, g.Rune(0, y)) || !g.SpaceAt(1, y) {
		return a, queued
	}
	text := g.TextFrom(y, 2)
	switch st := g.StyleAt(0, y); {
	case st == c.spinner && strings.Contains(text, "…"):
		a.Spinner = true
		if i := strings.LastIndex(text, "("); i >= 0 && strings.HasSuffix(text, ")") {
			a.Elapsed, _, _ = strings.Cut(text[i+1:len(text)-1], " · ")
		}
	case st == c.hint:
		if _, rest, ok := strings.Cut(text, " for "); ok {
			a.Done = true
			a.DoneElapsed, _, _ = strings.Cut(rest, " · ")
		}
	}
	return a, queued
}

// queuedPrompt: row y is a prompt queued for the running turn: "❯ " at
// column 2 on a background (the transcript's own prompts start at column
// 0 on none).
func (c *claude21) queuedPrompt(g *recognizers.Grid, y int) bool {
	defer g.Enter("claude21.queuedPrompt")()
	if g.First(y) != 2 || !g.HasAt(y, 2, "❯ ") {
		return false
	}
	_, bg, _ := g.StyleAt(2, y).Decompose()
	return bg != tcell.ColorDefault
}
