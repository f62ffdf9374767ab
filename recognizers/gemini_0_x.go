package recognizers

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
)

// gemini0x is the grammar of Gemini CLI 0.x screens (an Ink app on the
// normal screen: history above, the bottom pane last). Every field is a
// fact of the recordings in recordings/testdata/gemini/<version>.
//
// The bottom pane at rest, bottom up: the footer (a row of labels
// "workspace (/directory)  sandbox  /model" in the hint colour over their
// values), the composer in a box of its own background ("> " and the
// placeholder or the draft), the mode hint ("Shift+Tab to accept edits"),
// a dim rule, and the status row: "? for shortcuts" right-aligned while
// the composer is empty, the working row (a spinner, a phrase and "(esc
// to cancel, Ns)") while a turn runs. A tool confirmation replaces the
// whole bottom pane with a framed dialog (gemini_dialog.go).
type gemini0x struct {
	// palettes: the colours it draws with in a terminal that says it has
	// true colour (COLORTERM), and in one that does not (256 colours,
	// recordings *-colors256).
	palettes []geminiPalette

	placeholder   string   // the empty composer's hint
	shortcuts     string   // the status row's right end at rest
	modeHint      string   // the row over the composer (default approval mode)
	footerLabels  []string // the footer's labels, left to right
	busyHint      string   // "(esc to cancel, " before the elapsed time
	spinner       string   // the working row's animated glyphs
	interrupted   string   // the history's note after Esc or a cancelled tool
	failed        string   // the history's note after a request failed
	apiError      string   // the error row above it
	dialogs       []geminiDialog
	maxDraftRows  int
	maxDialogRows int
	// narrowBelow: a pane narrower is narrow (Gemini's isNarrowWidth,
	// recordings *-w60 and *-w80): no "? for shortcuts", and a blank row
	// between the mode hint and the composer.
	narrowBelow int
}

// geminiPalette is one colour set of the screens.
type geminiPalette struct {
	hint  vt.Style // labels, the shortcuts hint, the busy hint
	rule  vt.Style // the dim rule over the mode hint
	box   vt.Style // the composer's background (its pad rows, its cells)
	glyph vt.Style // the composer's "> " on the box
	place vt.Style // the placeholder on the box
	draft vt.Style // typed text on the box
	// halfBlocks: the box's pad rows are ▄ and ▀ in the box colour (true
	// colour); else rows of spaces painted with it.
	halfBlocks bool
	padFg      vt.Style // the half blocks' style
	spin       vt.Style // the spinner glyph
	note       vt.Style // the interruption note
	err        vt.Style // an error row
	frame      vt.Style // a dialog's frame
	title      vt.Style // a dialog's "? Tool  " and its "[Tool]"
	text       vt.Style // a dialog's plain text
	lit        vt.Style // the highlighted option row's text
	litPad     vt.Style // its spaces (the background alone)
}

// gemini0xBase is what Gemini CLI 0.61.0 shows.
var gemini0xBase = gemini0x{
	palettes: []geminiPalette{
		{hint: fgRGB(0xaf, 0xaf, 0xaf).vt(), rule: fgRGB(0x87, 0x87, 0x87).dim().vt(), box: plain().bgRGB(0x5f, 0x5f, 0x5f).vt(),
			glyph: fgRGB(0xd7, 0xaf, 0xff).bgRGB(0x5f, 0x5f, 0x5f).vt(), place: fgRGB(0xaf, 0xaf, 0xaf).bgRGB(0x5f, 0x5f, 0x5f).vt(),
			draft: fgRGB(0xff, 0xff, 0xff).bgRGB(0x5f, 0x5f, 0x5f).vt(), halfBlocks: true, padFg: fgRGB(0x5f, 0x5f, 0x5f).vt(),
			spin: fgRGB(0xd7, 0xaf, 0xff).vt(), note: fgRGB(0xff, 0xff, 0xaf).vt(), err: fgRGB(0xff, 0x87, 0xaf).vt(), frame: fgRGB(0x87, 0x87, 0x87).vt(),
			title: fgRGB(0xff, 0xff, 0xaf).bold().vt(), text: fgRGB(0xff, 0xff, 0xff).vt(),
			lit: fgRGB(0xd7, 0xff, 0xd7).bgRGB(0x00, 0x5f, 0x00).vt(), litPad: plain().bgRGB(0x00, 0x5f, 0x00).vt()},
		{hint: fg256(248).vt(), rule: fg256(244).dim().vt(), box: plain().bg256(240).vt(),
			glyph: fg256(183).bg256(240).vt(), place: fg256(248).bg256(240).vt(), draft: fg256(231).bg256(240).vt(),
			spin: fg256(183).vt(), note: fg256(229).vt(), err: fg256(217).vt(), frame: fg256(244).vt(), title: fg256(229).bold().vt(),
			text: fg256(231).vt(), lit: fg256(194).bg256(28).vt(), litPad: plain().bg256(28).vt()},
	},
	placeholder:   "Type your message or @path/to/file",
	shortcuts:     "? for shortcuts",
	modeHint:      "Shift+Tab to accept edits",
	footerLabels:  []string{"workspace (/directory)", "sandbox", "/model"},
	busyHint:      "(esc to cancel, ",
	spinner:       "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏",
	interrupted:   "ℹ Request cancelled.",
	failed:        "ℹ This request failed.",
	apiError:      "✕ [API Error: ",
	dialogs:       geminiDialogs0_61,
	maxDraftRows:  8,
	maxDialogRows: 60,
	narrowBelow:   80,
}

// recognize tries the bottom pane at rest (idle, working), then a tool's
// confirmation dialog, and says why when neither holds.
func (c *gemini0x) recognize(g *grid, out *Recognition) {
	defer g.enter("gemini0x.recognize")()
	b := g.lastRow()
	if b < 0 {
		out.ScreenState, out.Composer = contract.ScreenStarting, contract.ComposerAbsent
		return
	}
	for i := range c.palettes {
		if c.composer(g, b, &c.palettes[i], out) {
			return
		}
	}
	out.Composer = contract.ComposerAbsent
	for i := range c.palettes {
		if c.dialog(g, b, &c.palettes[i], out) {
			if r, stale := c.staleAbove(g, out.Region.Top); stale {
				out.Reasons = append(out.Reasons, r)
			}
			return
		}
	}
	for i := range c.palettes {
		if c.brokenDialog(g, b, &c.palettes[i], out) {
			return
		}
	}
	out.ScreenState = contract.ScreenUnknown
	out.Reasons = append(out.Reasons, c.lookalike(g, 0, b+1))
}

// composer proves the bottom pane at rest in palette p from the footer
// on rows b-1 and b up, and reads the state: idle or working, the
// composer empty or its draft, an interruption note above.
func (c *gemini0x) composer(g *grid, b int, p *geminiPalette, out *Recognition) bool {
	defer g.enter("gemini0x.composer")()
	if !c.footer(g, b, p) {
		return false
	}
	bottom := b - 2
	if !c.pad(g, bottom, '▀', p) {
		return false
	}
	top, draft, ok := c.box(g, bottom, p)
	narrow := g.w < c.narrowBelow
	hint := top - 1
	if narrow {
		if !g.blank(hint) {
			return false
		}
		hint--
	}
	if !ok || !g.rowIs(hint, 1, c.modeHint) || !g.styled(hint, 0, g.w, p.hint) {
		return false
	}
	if full, _ := g.rule(hint-1, '─', p.rule); !full {
		return false
	}
	status := hint - 2
	working, ok := c.statusRow(g, status, p, &out.Activity)
	if !ok || !narrow && (draft != "") == c.atRest(g, status, p) || narrow && c.atRest(g, status, p) {
		return false // "? for shortcuts" shows exactly while the composer is empty, unless narrow
	}
	// The region is the pane from its rule down: the working row above it
	// animates, and is read for the activity alone.
	out.Region = Region{Top: hint - 1, Rows: b - hint + 2}
	out.ScreenState, out.Composer = contract.ScreenIdle, contract.ComposerEmpty
	if working {
		out.ScreenState = contract.ScreenWorking
	}
	if draft != "" {
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
	}
	for y := 0; y < status; y++ {
		if c.promptPhrase(g, y) {
			out.Reasons = append(out.Reasons, reason(NotePromptInTranscript, "row "+itoa(y)))
			break
		}
	}
	if !working {
		c.blocked(g, status, p, out)
	}
	return true
}

// footer proves the footer: its labels row (each label in the hint
// colour, "/model" ending one column before the pane's edge) over a row
// of values.
func (c *gemini0x) footer(g *grid, b int, p *geminiPalette) bool {
	defer g.enter("gemini0x.footer")()
	l := b - 1
	if l < 0 || g.blank(b) || g.first(b) != 1 || !g.hasAt(l, 1, c.footerLabels[0]) || !g.styled(l, 0, g.w, p.hint) {
		return false
	}
	last := c.footerLabels[len(c.footerLabels)-1]
	if g.last(l) != g.w-2 || !strings.HasSuffix(g.trimmed(l), last) {
		return false
	}
	x := 1
	for _, lab := range c.footerLabels {
		i := strings.Index(g.textFrom(l, x), lab)
		if i < 0 {
			return false
		}
		x += i + displayWidth(lab)
	}
	return true
}

// pad proves one of the composer box's pad rows: a full row of ch in the
// box colour (true colour) or of spaces painted with it.
func (c *gemini0x) pad(g *grid, y int, ch rune, p *geminiPalette) bool {
	if p.halfBlocks {
		full, _ := g.rule(y, ch, p.padFg)
		return full
	}
	return c.painted(g, y, 0, g.w, p)
}

// painted reports every cell of row y in [x0, x1) a space painted with
// the box's background.
func (c *gemini0x) painted(g *grid, y, x0, x1 int, p *geminiPalette) bool {
	if y < 0 || y >= g.h {
		return false
	}
	for x := x0; x < x1; x++ {
		if !g.space(x, y) || g.style(x, y) != p.box {
			return false
		}
	}
	return true
}

// box reads the composer from its bottom pad row up: its first row
// " > " and the placeholder (empty) or the draft's first line, then
// continuation rows indented under it, then the top pad row. It returns
// the top pad row and the draft ("" for empty).
func (c *gemini0x) box(g *grid, bottom int, p *geminiPalette) (int, string, bool) {
	defer g.enter("gemini0x.box")()
	first := -1
	for y := bottom - 1; y >= max(0, bottom-c.maxDraftRows); y-- {
		if g.hasAt(y, 1, "> ") && g.style(1, y) == p.glyph && g.style(2, y) == p.glyph && g.space(0, y) && g.style(0, y) == p.box {
			first = y
			break
		}
		if !c.painted(g, y, 0, 3, p) {
			return 0, "", false
		}
	}
	if first < 0 || !c.pad(g, first-1, '▄', p) {
		return 0, "", false
	}
	if first == bottom-1 && c.placeholderRow(g, first, p) {
		return first - 1, "", true
	}
	rows := make([]string, 0, bottom-first)
	for y := first; y < bottom; y++ {
		if !c.draftRow(g, y, p) {
			return 0, "", false
		}
		rows = append(rows, strings.TrimRight(g.text(y, 3, g.w), " "))
	}
	draft := strings.TrimRight(strings.Join(rows, "\n"), "\n")
	return first - 1, draft, draft != ""
}

// placeholderRow: the cursor's cell (reverse video) at column 3, then
// the placeholder in its colour, the rest painted.
func (c *gemini0x) placeholderRow(g *grid, y int, p *geminiPalette) bool {
	x := 4 + displayWidth(" "+c.placeholder)
	return g.space(3, y) && g.style(3, y) == reversed(p.box) && g.hasAt(y, 4, " "+c.placeholder) &&
		g.styled(y, 4, x, p.place) && c.painted(g, y, x, g.w, p)
}

// draftRow: text in the draft colour from column 3 on the box, the
// cursor's cell in reverse video anywhere in it.
func (c *gemini0x) draftRow(g *grid, y int, p *geminiPalette) bool {
	for x := 3; x < g.w; x++ {
		s := g.style(x, y)
		if s != p.draft && s != p.box && s != reversed(p.box) && s != reversed(p.draft) {
			return false
		}
	}
	return true
}

// statusRow reads the row over the rule: blank, "? for shortcuts" at its
// right end, or the working row from column 1 (a spinner glyph, a phrase,
// "(esc to cancel, Ns)"), which may share the row with the hint.
func (c *gemini0x) statusRow(g *grid, y int, p *geminiPalette, a *Activity) (working, ok bool) {
	defer g.enter("gemini0x.statusRow")()
	if y < 0 {
		return false, false
	}
	end := g.w
	if c.atRest(g, y, p) {
		end = g.w - 1 - displayWidth(c.shortcuts)
	}
	if g.blank(y) || g.first(y) >= end {
		return false, true
	}
	if g.first(y) != 1 || !strings.ContainsRune(c.spinner, g.ch(1, y)) || g.style(1, y) != p.spin || !g.space(2, y) {
		return false, false
	}
	row := strings.TrimRight(g.text(y, 3, end), " ")
	i := strings.LastIndex(row, c.busyHint)
	if i < 0 || !strings.HasSuffix(row, ")") {
		return false, false
	}
	hx := 3 + displayWidth(row[:i])
	if !g.styled(y, hx, hx+displayWidth(row[i:]), p.hint) {
		return false, false
	}
	a.Spinner, a.InterruptHint, a.Elapsed = true, true, strings.TrimSuffix(row[i+len(c.busyHint):], ")")
	return true, true
}

// atRest reports "? for shortcuts" in the hint colour ending one column
// before the pane's edge on row y.
func (c *gemini0x) atRest(g *grid, y int, p *geminiPalette) bool {
	x := g.w - 1 - displayWidth(c.shortcuts)
	return y >= 0 && x > 0 && g.hasAt(y, x, c.shortcuts) && g.last(y) == g.w-2 && g.styled(y, x, g.w, p.hint)
}

// blocked reads an idle screen whose history ends in the interruption
// note (Esc in the turn, or a refused tool) as blocked, interrupted; one
// that ends in the failure note under an API error row (the error its
// retries could not get past, or one it does not retry) as blocked,
// api_error.
func (c *gemini0x) blocked(g *grid, status int, p *geminiPalette, out *Recognition) {
	defer g.enter("gemini0x.blocked")()
	y := c.above(g, status)
	switch {
	case y < 0:
	case g.first(y) == 0 && g.rowIs(y, 0, c.interrupted) && g.styled(y, 0, g.w, p.note):
		block(out, Block{Reason: BlockedInterrupted, Row: y})
	default:
		// The failure note wraps: its later rows are indented by two.
		for y > 0 && g.first(y) == 2 && g.styled(y, 2, g.w, p.note) {
			y--
		}
		if g.first(y) != 0 || !g.hasAt(y, 0, c.failed) || !g.styled(y, 0, g.w, p.note) {
			return
		}
		e := c.above(g, y)
		for e > 0 && g.first(e) == 2 && g.styled(e, 2, g.w, p.err) {
			e--
		}
		if e >= 0 && g.first(e) == 0 && g.hasAt(e, 0, c.apiError) && g.styled(e, 0, g.w, p.err) {
			block(out, Block{Reason: BlockedAPIError, Row: e})
		}
	}
}

// above is the last row with text above row y (-1: none).
func (c *gemini0x) above(g *grid, y int) int {
	y--
	for y >= 0 && g.blank(y) {
		y--
	}
	return y
}

// lookalike explains a screen with neither bottom pane nor dialog.
func (c *gemini0x) lookalike(g *grid, top, end int) Reason {
	defer g.enter("gemini0x.lookalike")()
	for y := top; y < end; y++ {
		if c.promptPhrase(g, y) {
			return reason(NoteUnstyledLookalike, "row "+itoa(y))
		}
	}
	return reason(NoteUnrecognized, "")
}

// promptPhrase reports a dialog's question on row y, whatever its style.
func (c *gemini0x) promptPhrase(g *grid, y int) bool {
	if g.blank(y) {
		return false
	}
	t := g.trimmed(y)
	for _, d := range c.dialogs {
		if strings.Contains(t, d.question) {
			return true
		}
	}
	return false
}
