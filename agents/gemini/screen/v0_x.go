package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
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
// whole bottom pane with a framed dialog (dialog.go).
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
		{hint: recognizers.FgRGB(0xaf, 0xaf, 0xaf).Style(), rule: recognizers.FgRGB(0x87, 0x87, 0x87).Dim().Style(), box: recognizers.Plain().BgRGB(0x5f, 0x5f, 0x5f).Style(),
			glyph: recognizers.FgRGB(0xd7, 0xaf, 0xff).BgRGB(0x5f, 0x5f, 0x5f).Style(), place: recognizers.FgRGB(0xaf, 0xaf, 0xaf).BgRGB(0x5f, 0x5f, 0x5f).Style(),
			draft: recognizers.FgRGB(0xff, 0xff, 0xff).BgRGB(0x5f, 0x5f, 0x5f).Style(), halfBlocks: true, padFg: recognizers.FgRGB(0x5f, 0x5f, 0x5f).Style(),
			spin: recognizers.FgRGB(0xd7, 0xaf, 0xff).Style(), note: recognizers.FgRGB(0xff, 0xff, 0xaf).Style(), err: recognizers.FgRGB(0xff, 0x87, 0xaf).Style(), frame: recognizers.FgRGB(0x87, 0x87, 0x87).Style(),
			title: recognizers.FgRGB(0xff, 0xff, 0xaf).Bold().Style(), text: recognizers.FgRGB(0xff, 0xff, 0xff).Style(),
			lit: recognizers.FgRGB(0xd7, 0xff, 0xd7).BgRGB(0x00, 0x5f, 0x00).Style(), litPad: recognizers.Plain().BgRGB(0x00, 0x5f, 0x00).Style()},
		{hint: recognizers.Fg256(248).Style(), rule: recognizers.Fg256(244).Dim().Style(), box: recognizers.Plain().Bg256(240).Style(),
			glyph: recognizers.Fg256(183).Bg256(240).Style(), place: recognizers.Fg256(248).Bg256(240).Style(), draft: recognizers.Fg256(231).Bg256(240).Style(),
			spin: recognizers.Fg256(183).Style(), note: recognizers.Fg256(229).Style(), err: recognizers.Fg256(217).Style(), frame: recognizers.Fg256(244).Style(), title: recognizers.Fg256(229).Bold().Style(),
			text: recognizers.Fg256(231).Style(), lit: recognizers.Fg256(194).Bg256(28).Style(), litPad: recognizers.Plain().Bg256(28).Style()},
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

// Recognize tries the bottom pane at rest (idle, working), then a tool's
// confirmation dialog, and says why when neither holds.
func (c *gemini0x) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("gemini0x.recognize")()
	b := g.LastRow()
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
func (c *gemini0x) composer(g *recognizers.Grid, b int, p *geminiPalette, out *recognizers.Recognition) bool {
	defer g.Enter("gemini0x.composer")()
	if !c.footer(g, b, p) {
		return false
	}
	bottom := b - 2
	if !c.pad(g, bottom, '▀', p) {
		return false
	}
	top, draft, ok := c.box(g, bottom, p)
	narrow := g.Width() < c.narrowBelow
	hint := top - 1
	if narrow {
		if !g.Blank(hint) {
			return false
		}
		hint--
	}
	if !ok || !g.RowIs(hint, 1, c.modeHint) || !g.Styled(hint, 0, g.Width(), p.hint) {
		return false
	}
	if full, _ := g.Rule(hint-1, '─', p.rule); !full {
		return false
	}
	status := hint - 2
	working, ok := c.statusRow(g, status, p, &out.Activity)
	if !ok || !narrow && (draft != "") == c.atRest(g, status, p) || narrow && c.atRest(g, status, p) {
		return false // "? for shortcuts" shows exactly while the composer is empty, unless narrow
	}
	// The region is the pane from its rule down: the working row above it
	// animates, and is read for the activity alone.
	out.Region = recognizers.Region{Top: hint - 1, Rows: b - hint + 2}
	out.ScreenState, out.Composer = contract.ScreenIdle, contract.ComposerEmpty
	if working {
		out.ScreenState = contract.ScreenWorking
	}
	if draft != "" {
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
	}
	for y := 0; y < status; y++ {
		if c.promptPhrase(g, y) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NotePromptInTranscript, "row "+strconv.Itoa(y)))
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
func (c *gemini0x) footer(g *recognizers.Grid, b int, p *geminiPalette) bool {
	defer g.Enter("gemini0x.footer")()
	l := b - 1
	if l < 0 || g.Blank(b) || g.First(b) != 1 || !g.HasAt(l, 1, c.footerLabels[0]) || !g.Styled(l, 0, g.Width(), p.hint) {
		return false
	}
	last := c.footerLabels[len(c.footerLabels)-1]
	if g.Last(l) != g.Width()-2 || !strings.HasSuffix(g.Trimmed(l), last) {
		return false
	}
	x := 1
	for _, lab := range c.footerLabels {
		i := strings.Index(g.TextFrom(l, x), lab)
		if i < 0 {
			return false
		}
		x += i + recognizers.DisplayWidth(lab)
	}
	return true
}

// pad proves one of the composer box's pad rows: a full row of ch in the
// box colour (true colour) or of spaces painted with it.
func (c *gemini0x) pad(g *recognizers.Grid, y int, ch rune, p *geminiPalette) bool {
	if p.halfBlocks {
		full, _ := g.Rule(y, ch, p.padFg)
		return full
	}
	return c.painted(g, y, 0, g.Width(), p)
}

// painted reports every cell of row y in [x0, x1) a space painted with
// the box's background.
func (c *gemini0x) painted(g *recognizers.Grid, y, x0, x1 int, p *geminiPalette) bool {
	if y < 0 || y >= g.Height() {
		return false
	}
	for x := x0; x < x1; x++ {
		if !g.SpaceAt(x, y) || g.StyleAt(x, y) != p.box {
			return false
		}
	}
	return true
}

// box reads the composer from its bottom pad row up: its first row
// " > " and the placeholder (empty) or the draft's first line, then
// continuation rows indented under it, then the top pad row. It returns
// the top pad row and the draft ("" for empty).
func (c *gemini0x) box(g *recognizers.Grid, bottom int, p *geminiPalette) (int, string, bool) {
	defer g.Enter("gemini0x.box")()
	first := -1
	for y := bottom - 1; y >= max(0, bottom-c.maxDraftRows); y-- {
		if g.HasAt(y, 1, "> ") && g.StyleAt(1, y) == p.glyph && g.StyleAt(2, y) == p.glyph && g.SpaceAt(0, y) && g.StyleAt(0, y) == p.box {
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
		rows = append(rows, strings.TrimRight(g.Text(y, 3, g.Width()), " "))
	}
	draft := strings.TrimRight(strings.Join(rows, "\n"), "\n")
	return first - 1, draft, draft != ""
}

// placeholderRow: the cursor's cell (reverse video) at column 3, then
// the placeholder in its colour, the rest painted.
func (c *gemini0x) placeholderRow(g *recognizers.Grid, y int, p *geminiPalette) bool {
	x := 4 + recognizers.DisplayWidth(" "+c.placeholder)
	return g.SpaceAt(3, y) && g.StyleAt(3, y) == recognizers.Reversed(p.box) && g.HasAt(y, 4, " "+c.placeholder) &&
		g.Styled(y, 4, x, p.place) && c.painted(g, y, x, g.Width(), p)
}

// draftRow: text in the draft colour from column 3 on the box, the
// cursor's cell in reverse video anywhere in it.
func (c *gemini0x) draftRow(g *recognizers.Grid, y int, p *geminiPalette) bool {
	for x := 3; x < g.Width(); x++ {
		s := g.StyleAt(x, y)
		if s != p.draft && s != p.box && s != recognizers.Reversed(p.box) && s != recognizers.Reversed(p.draft) {
			return false
		}
	}
	return true
}

// statusRow reads the row over the rule: blank, "? for shortcuts" at its
// right end, or the working row from column 1 (a spinner glyph, a phrase,
// "(esc to cancel, Ns)"), which may share the row with the hint.
func (c *gemini0x) statusRow(g *recognizers.Grid, y int, p *geminiPalette, a *recognizers.Activity) (working, ok bool) {
	defer g.Enter("gemini0x.statusRow")()
	if y < 0 {
		return false, false
	}
	end := g.Width()
	if c.atRest(g, y, p) {
		end = g.Width() - 1 - recognizers.DisplayWidth(c.shortcuts)
	}
	if g.Blank(y) || g.First(y) >= end {
		return false, true
	}
	if g.First(y) != 1 || !strings.ContainsRune(c.spinner, g.Rune(1, y)) || g.StyleAt(1, y) != p.spin || !g.SpaceAt(2, y) {
		return false, false
	}
	row := strings.TrimRight(g.Text(y, 3, end), " ")
	i := strings.LastIndex(row, c.busyHint)
	if i < 0 || !strings.HasSuffix(row, ")") {
		return false, false
	}
	hx := 3 + recognizers.DisplayWidth(row[:i])
	if !g.Styled(y, hx, hx+recognizers.DisplayWidth(row[i:]), p.hint) {
		return false, false
	}
	a.Spinner, a.InterruptHint, a.Elapsed = true, true, strings.TrimSuffix(row[i+len(c.busyHint):], ")")
	return true, true
}

// atRest reports "? for shortcuts" in the hint colour ending one column
// before the pane's edge on row y.
func (c *gemini0x) atRest(g *recognizers.Grid, y int, p *geminiPalette) bool {
	x := g.Width() - 1 - recognizers.DisplayWidth(c.shortcuts)
	return y >= 0 && x > 0 && g.HasAt(y, x, c.shortcuts) && g.Last(y) == g.Width()-2 && g.Styled(y, x, g.Width(), p.hint)
}

// blocked reads an idle screen whose history ends in the interruption
// note (Esc in the turn, or a refused tool) as blocked, interrupted; one
// that ends in the failure note under an API error row (the error its
// retries could not get past, or one it does not retry) as blocked,
// api_error.
func (c *gemini0x) blocked(g *recognizers.Grid, status int, p *geminiPalette, out *recognizers.Recognition) {
	defer g.Enter("gemini0x.blocked")()
	y := c.above(g, status)
	switch {
	case y < 0:
	case g.First(y) == 0 && g.RowIs(y, 0, c.interrupted) && g.Styled(y, 0, g.Width(), p.note):
		recognizers.BlockComposer(out, recognizers.Block{Reason: recognizers.BlockedInterrupted, Row: y})
	default:
		// The failure note wraps: its later rows are indented by two.
		for y > 0 && g.First(y) == 2 && g.Styled(y, 2, g.Width(), p.note) {
			y--
		}
		if g.First(y) != 0 || !g.HasAt(y, 0, c.failed) || !g.Styled(y, 0, g.Width(), p.note) {
			return
		}
		e := c.above(g, y)
		for e > 0 && g.First(e) == 2 && g.Styled(e, 2, g.Width(), p.err) {
			e--
		}
		if e >= 0 && g.First(e) == 0 && g.HasAt(e, 0, c.apiError) && g.Styled(e, 0, g.Width(), p.err) {
			recognizers.BlockComposer(out, recognizers.Block{Reason: recognizers.BlockedAPIError, Row: e})
		}
	}
}

// above is the last row with text above row y (-1: none).
func (c *gemini0x) above(g *recognizers.Grid, y int) int {
	y--
	for y >= 0 && g.Blank(y) {
		y--
	}
	return y
}

// lookalike explains a screen with neither bottom pane nor dialog.
func (c *gemini0x) lookalike(g *recognizers.Grid, top, end int) recognizers.Reason {
	defer g.Enter("gemini0x.lookalike")()
	for y := top; y < end; y++ {
		if c.promptPhrase(g, y) {
			return recognizers.NewReason(recognizers.NoteUnstyledLookalike, "row "+strconv.Itoa(y))
		}
	}
	return recognizers.NewReason(recognizers.NoteUnrecognized, "")
}

// promptPhrase reports a dialog's question on row y, whatever its style.
func (c *gemini0x) promptPhrase(g *recognizers.Grid, y int) bool {
	if g.Blank(y) {
		return false
	}
	t := g.Trimmed(y)
	for _, d := range c.dialogs {
		if strings.Contains(t, d.question) {
			return true
		}
	}
	return false
}
