package screen

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// openCode1x is the grammar of OpenCode 1.x's TUI (opentui on the
// alternate screen). Every fact is one of the recordings in
// recordings/testdata/opencode/<version>.
//
// Every cell is painted: the theme's background on the whole screen, so
// no row is blank in the grid's sense; the grammar reads cells by their
// colours instead. The composer is a box with a left edge "┃" in the
// agent's colour and a bottom edge "╹▀▀…▀": a pad row, its text rows,
// a pad row and the agent row ("Build · <model> <provider>"). On the
// home screen (a new session) it is centred under the logo with a
// placeholder `Ask anything… "<example>"`; in a session it spans the
// pane (two columns of margin) and is empty when nothing is typed. The
// status row under it holds the directory or the working row (a block
// spinner and "esc interrupt", "esc again to interrupt" after one Esc,
// or the retry notice) on the left and the key hints on the right. A
// permission or a question replaces the composer and the status row with
// a panel of its own (dialog.go).
type openCode1x struct {
	palettes []openCodePalette
	agent    string   // the agent row's first word ("Build")
	hint     string   // the status row's right end at rest and working
	examples []string // the home placeholder's examples
	version  string   // the home screen's footer ends with it
	// interrupted ends the reply's footer after a double Esc.
	interrupted string
	maxDraft    int // the composer's text rows at most
	// narrowBelow: a pane narrower lays a dialog's buttons over its
	// hints (recordings *-w60).
	narrowBelow int
}

// openCodePalette is one colour set of the default theme (dark): true
// colour, or the 256-colour palette.
type openCodePalette struct {
	bg      tcell.Color // the screen
	text    tcell.Color
	muted   tcell.Color
	agent   tcell.Color // Build's colour: the composer's edge, its name
	panel   tcell.Color // a dialog's and a user message's background
	element tcell.Color // the composer's background, a dialog's buttons
	warning tcell.Color // the permission panel's edge, its selected button
	accent  tcell.Color // the question panel's edge
	errorC  tcell.Color // an error's box edge
	primary tcell.Color // "esc again to interrupt"
	second  tcell.Color // the current answer's number
	// w is the main area's width, set on a copy for each screen: the
	// pane's, less the session sidebar OpenCode draws on its right when
	// the pane is wide (recordings *-w200).
	w int
}

// openCode1xBase is what OpenCode 1.18.33 shows.
var openCode1xBase = openCode1x{
	palettes: []openCodePalette{{
		bg: rgb(0x0a, 0x0a, 0x0a), text: rgb(0xee, 0xee, 0xee), muted: rgb(0x80, 0x80, 0x80),
		agent: rgb(0x5c, 0x9c, 0xf5), panel: rgb(0x14, 0x14, 0x14), element: rgb(0x1e, 0x1e, 0x1e),
		warning: rgb(0xf5, 0xa7, 0x42), accent: rgb(0x9d, 0x7c, 0xd8), errorC: rgb(0xe0, 0x6c, 0x75),
		primary: rgb(0xfa, 0xb2, 0x83), second: rgb(0x6a, 0x91, 0xc6),
	}, {
		// Without COLORTERM (recordings *-colors256): the 256-colour
		// palette. The colours of no recording there (the question's, an
		// error's, the armed interrupt's, the current answer's) are
		// tcell.ColorDefault, which no cell of OpenCode's has: those
		// screens read as unknown.
		bg: tcell.PaletteColor(232), text: tcell.PaletteColor(255), muted: tcell.PaletteColor(8),
		agent: tcell.PaletteColor(75), panel: tcell.PaletteColor(233), element: tcell.PaletteColor(234),
		warning: tcell.PaletteColor(215), accent: tcell.ColorDefault, errorC: tcell.ColorDefault,
		primary: tcell.ColorDefault, second: tcell.ColorDefault,
	}},
	agent:       "Build",
	version:     "1.18.33",
	hint:        "ctrl+p commands",
	examples:    []string{"Fix a TODO in the codebase", "What is the tech stack of this project?", "Fix broken tests"},
	interrupted: " · interrupted",
	maxDraft:    8,
	narrowBelow: 80,
}

func rgb(r, g, b int32) tcell.Color { return tcell.NewRGBColor(r, g, b) }

// colours returns the cell's foreground and background.
func colours(g *recognizers.Grid, x, y int) (tcell.Color, tcell.Color) {
	fg, bg, _ := g.StyleAt(x, y).Decompose()
	return fg, bg
}

// paintedAs reports every cell of [x0, x1) on row y in bg, each but the
// spaces in fg (a space's foreground shows nothing: OpenCode leaves the
// run's colour on the spaces inside a run, white on the others).
func (p *openCodePalette) paintedAs(g *recognizers.Grid, y, x0, x1 int, fg, bg tcell.Color) bool {
	if y < 0 || y >= g.Height() || x0 < 0 || x1 > g.Width() {
		return false
	}
	for x := x0; x < x1; x++ {
		f, b := colours(g, x, y)
		if b != bg || !g.SpaceAt(x, y) && f != fg {
			return false
		}
	}
	return true
}

// onBg reports every cell of [x0, x1) on row y on bg.
func (p *openCodePalette) onBg(g *recognizers.Grid, y, x0, x1 int, bg tcell.Color) bool {
	if y < 0 || y >= g.Height() || x0 < 0 || x1 > g.Width() {
		return false
	}
	for x := x0; x < x1; x++ {
		if _, b := colours(g, x, y); b != bg {
			return false
		}
	}
	return true
}

// empty reports [x0, x1) of row y all spaces on bg.
func (p *openCodePalette) empty(g *recognizers.Grid, y, x0, x1 int, bg tcell.Color) bool {
	if y < 0 || y >= g.Height() {
		return false
	}
	for x := max(x0, 0); x < min(x1, g.Width()); x++ {
		if !g.SpaceAt(x, y) {
			return false
		}
		if _, b := colours(g, x, y); b != bg {
			return false
		}
	}
	return true
}

// word reports s at x on row y in fg on bg.
func (p *openCodePalette) word(g *recognizers.Grid, y, x int, s string, fg, bg tcell.Color) bool {
	return g.HasAt(y, x, s) && p.paintedAs(g, y, x, x+recognizers.DisplayWidth(s), fg, bg)
}

// edge reports the cell at x, y: ch in fg on bg.
func edge(g *recognizers.Grid, x, y int, ch rune, fg, bg tcell.Color) bool {
	f, b := colours(g, x, y)
	return g.Rune(x, y) == ch && f == fg && b == bg
}

// openCodeBox is the composer as read: its columns and rows.
type openCodeBox struct {
	x0, x1 int // the left edge's column, the last painted column
	top    int // the top pad row
	bottom int // the bottom edge row
	status int // the status row
	empty  bool
}

// Recognize tries the composer at rest, then a dialog, and says why when
// neither holds.
func (c *openCode1x) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("openCode1x.recognize")()
	if g.LastRow() < 0 {
		out.ScreenState, out.Composer = contract.ScreenStarting, contract.ComposerAbsent
		return
	}
	ps := make([]openCodePalette, len(c.palettes))
	for i := range c.palettes {
		ps[i] = c.palettes[i]
		ps[i].w = ps[i].mainWidth(g)
		if b, draft, ok := c.composer(g, &ps[i]); ok {
			c.atRest(g, &ps[i], b, draft, out)
			return
		}
	}
	out.Composer = contract.ComposerAbsent
	for i := range ps {
		if c.dialog(g, &ps[i], out) {
			return
		}
	}
	out.ScreenState = contract.ScreenUnknown
	out.Reasons = append(out.Reasons, c.lookalike(g))
}

// mainWidth is the pane's width less the sidebar: a column band on the
// panel colour at the right edge of the first and the last row, a column
// of the screen's background left of it there (the rows between are
// the sidebar's own).
func (p *openCodePalette) mainWidth(g *recognizers.Grid) int {
	s := g.Width()
	for s > 0 && g.SpaceAt(s-1, 0) && bgOf(g, s-1, 0) == p.panel {
		s--
	}
	if s == g.Width() || s < 2 {
		return g.Width()
	}
	for _, y := range []int{0, g.Height() - 1} {
		if bgOf(g, s-1, y) != p.bg || !p.empty(g, y, s, g.Width(), p.panel) {
			return g.Width()
		}
	}
	return s
}

func bgOf(g *recognizers.Grid, x, y int) tcell.Color {
	_, b := colours(g, x, y)
	return b
}

// composer finds the composer's bottom edge, the lowest on the screen,
// and proves the box over it and the rows under it.
func (c *openCode1x) composer(g *recognizers.Grid, p *openCodePalette) (openCodeBox, string, bool) {
	defer g.Enter("openCode1x.composer")()
	for y := g.Height() - 1; y >= 1; y-- {
		x0, x1 := c.edgeRow(g, y, p)
		if x0 < 0 {
			continue
		}
		b := openCodeBox{x0: x0, x1: x1, bottom: y, status: y + 1}
		draft, ok := c.box(g, p, &b)
		return b, draft, ok && c.below(g, p, &b)
	}
	return openCodeBox{}, "", false
}

// edgeRow returns the columns of a bottom edge "╹▀…▀" on row y (its
// "╹", its last "▀"), spaces on the screen's background either side, or
// -1.
func (c *openCode1x) edgeRow(g *recognizers.Grid, y int, p *openCodePalette) (int, int) {
	x0 := 0
	for x0 < p.w && g.SpaceAt(x0, y) {
		x0++
	}
	if x0 < 2 || x0 >= p.w || !edge(g, x0, y, '╹', p.agent, p.bg) || !p.empty(g, y, 0, x0, p.bg) {
		return -1, -1
	}
	x1 := x0
	for x1+1 < p.w && edge(g, x1+1, y, '▀', p.element, p.bg) {
		x1++
	}
	if x1 < x0+8 || !p.empty(g, y, x1+1, p.w, p.bg) {
		return -1, -1
	}
	return x0, x1
}

// boxRow reports row y a row of the composer's box: the left edge, the
// box's background to its last column, the screen's either side.
func (c *openCode1x) boxRow(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	return y >= 0 && edge(g, b.x0, y, '┃', p.agent, p.bg) && p.empty(g, y, 0, b.x0, p.bg) && p.empty(g, y, b.x1+1, p.w, p.bg) &&
		p.onBg(g, y, b.x0+1, b.x1+1, p.element)
}

// box proves the box over the bottom edge: the agent row, a pad row, the
// text rows and the top pad row; it returns the draft ("" for empty).
func (c *openCode1x) box(g *recognizers.Grid, p *openCodePalette, b *openCodeBox) (string, bool) {
	defer g.Enter("openCode1x.box")()
	m := b.bottom - 1
	if !c.agentRow(g, m, p, b) || !c.boxRow(g, m-1, p, b) || !p.empty(g, m-1, b.x0+1, b.x1+1, p.element) {
		return "", false
	}
	b.top = m - 1
	for b.top-1 >= 0 && b.top-1 >= m-3-c.maxDraft && c.boxRow(g, b.top-1, p, b) {
		b.top--
	}
	if b.top > m-3 || !p.empty(g, b.top, b.x0+1, b.x1+1, p.element) || c.boxRow(g, b.top-1, p, b) {
		return "", false
	}
	var rows []string
	for y := b.top + 1; y < m-1; y++ {
		if !p.empty(g, y, b.x0+1, b.x0+3, p.element) {
			return "", false
		}
		rows = append(rows, strings.TrimRight(g.Text(y, b.x0+3, b.x1+1), " "))
	}
	if len(rows) == 1 && rows[0] == "" {
		b.empty = true
		return "", true
	}
	if len(rows) == 1 && c.placeholder(g, b.top+1, p, b) {
		b.empty = true
		return "", true
	}
	for y := b.top + 1; y < m-1; y++ {
		if !p.paintedAs(g, y, b.x0+3, b.x1+1, p.text, p.element) {
			return "", false
		}
	}
	draft := strings.TrimRight(strings.Join(rows, "\n"), "\n")
	return draft, draft != ""
}

// agentRow proves the row "Build · <model> <provider>": the agent's name
// in its colour, a muted "·", the rest in the text or the muted colour.
func (c *openCode1x) agentRow(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	x := b.x0 + 3
	n := x + recognizers.DisplayWidth(c.agent)
	if !c.boxRow(g, y, p, b) || !p.empty(g, y, b.x0+1, x, p.element) || !p.word(g, y, x, c.agent, p.agent, p.element) ||
		!p.empty(g, y, n, n+1, p.element) || !p.word(g, y, n+1, "·", p.muted, p.element) || !p.empty(g, y, n+2, n+3, p.element) ||
		g.SpaceAt(n+3, y) {
		return false
	}
	for x := n + 3; x <= b.x1; x++ {
		if f, _ := colours(g, x, y); !g.SpaceAt(x, y) && f != p.text && f != p.muted {
			return false
		}
	}
	return true
}

// placeholder proves the home screen's `Ask anything… "<example>"` in
// the muted colour, one of the version's examples.
func (c *openCode1x) placeholder(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	for _, ex := range c.examples {
		s := "Ask anything… \"" + ex + "\""
		end := b.x0 + 3 + recognizers.DisplayWidth(s)
		if end <= b.x1+1 && p.word(g, y, b.x0+3, s, p.muted, p.element) && p.empty(g, y, end, b.x1+1, p.element) {
			return true
		}
	}
	return false
}

// below proves the rows under the edge, all on the screen's background:
// the status row (the directory or the working row, and the key hints:
// statusHints), a second status row where a long directory wraps
// (permission-approve-cwd120), then nothing but, on the home screen, its
// footer on the second-last row.
func (c *openCode1x) below(g *recognizers.Grid, p *openCodePalette, b *openCodeBox) bool {
	s := b.status
	if s >= g.Height() || !c.statusHints(g, s, p, b) && !c.retrying(g, s, p, b) {
		return false
	}
	for y := s; y < g.Height(); y++ {
		switch {
		case p.empty(g, y, 0, p.w, p.bg):
		case y == s || y == s+1 && p.onBg(g, y, 0, p.w, p.bg) && p.empty(g, y, 0, b.x0+1, p.bg):
		case y == g.Height()-2 && c.homeFooter(g, y, p):
		default:
			return false
		}
	}
	return true
}

// statusHints proves the status row's key hints: "ctrl+p commands" at
// its right end, or "ctrl+p" there and "commands" under it where a long
// directory wraps the row.
func (c *openCode1x) statusHints(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	if !p.onBg(g, y, 0, p.w, p.bg) || !p.empty(g, y, 0, b.x0+1, p.bg) {
		return false
	}
	if c.hints(g, y, p, b) {
		return true
	}
	k := strings.Index(c.hint, " ")
	t := strings.TrimRight(g.Text(y, 0, p.w), " ")
	x := recognizers.DisplayWidth(t) - k
	return strings.HasSuffix(t, " "+c.hint[:k]) && p.word(g, y, x, c.hint[:k], p.text, p.bg) &&
		p.word(g, y+1, x, c.hint[k+1:], p.muted, p.bg) && p.empty(g, y+1, x+recognizers.DisplayWidth(c.hint[k+1:]), p.w, p.bg)
}

// homeFooter reports the home screen's last row: the directory from
// column 2 and the version at the right end, both muted.
func (c *openCode1x) homeFooter(g *recognizers.Grid, y int, p *openCodePalette) bool {
	v := p.w - 2 - recognizers.DisplayWidth(c.version)
	return v > 4 && p.empty(g, y, 0, 2, p.bg) && !g.SpaceAt(2, y) && p.word(g, y, v, c.version, p.muted, p.bg) &&
		p.empty(g, y, p.w-2, p.w, p.bg) && g.SpaceAt(v-1, y)
}

// hints reports the status row's key hints "… ctrl+p commands" ending at
// the box's last column, or one before it where the directory fills the
// row (idle-w60 after a reply).
func (c *openCode1x) hints(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	k := strings.Index(c.hint, " ")
	for _, end := range []int{b.x1 + 1, b.x1} {
		x := end - recognizers.DisplayWidth(c.hint)
		if x > b.x0 && p.word(g, y, x, c.hint[:k], p.text, p.bg) && p.word(g, y, x+k+1, c.hint[k+1:], p.muted, p.bg) &&
			p.empty(g, y, end, p.w, p.bg) {
			return true
		}
	}
	return false
}

// atRest reads the proven composer: idle or working, the draft, a
// blocked turn above it.
func (c *openCode1x) atRest(g *recognizers.Grid, p *openCodePalette, b openCodeBox, draft string, out *recognizers.Recognition) {
	defer g.Enter("openCode1x.atRest")()
	out.Region = recognizers.Region{Top: b.top, Rows: b.status - b.top + 1}
	out.ScreenState, out.Composer = contract.ScreenIdle, contract.ComposerEmpty
	if !b.empty {
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
	}
	if c.working(g, b.status, p, b, &out.Activity) {
		out.ScreenState = contract.ScreenWorking
		return
	}
	for y := 0; y < b.top; y++ {
		if c.dialogPhrase(g, y) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NotePromptInTranscript, "row "+strconv.Itoa(y)))
			break
		}
	}
	c.blocked(g, p, b, out)
}

// openCodeSpinner is the working row's spinner: eight cells of these
// glyphs from the column after the box's edge (fewer while it retries).
const openCodeSpinner = "■⬝"

// retrying reports the status rows of a turn waiting to retry a failed
// request (api-retry-429): the spinner, then the error in the error
// colour ending "[retrying in Ns attempt #N]", wrapped onto the next row
// at the same column; no key hints.
func (c *openCode1x) retrying(g *recognizers.Grid, y int, p *openCodePalette, b *openCodeBox) bool {
	x := b.x0 + 1
	n := 0
	for n < 8 && strings.ContainsRune(openCodeSpinner, g.Rune(x+n, y)) {
		n++
	}
	t := x + n
	if n == 0 || !p.empty(g, y, 0, x, p.bg) || g.SpaceAt(t, y) || !p.paintedAs(g, y, t, p.w, p.errorC, p.bg) {
		return false
	}
	text := strings.TrimRight(g.Text(y, t, p.w), " ")
	if strings.Contains(text, "attempt #") && strings.HasSuffix(text, "]") {
		return true
	}
	next := strings.TrimRight(g.Text(y+1, t, p.w), " ")
	return strings.Contains(text, "[retrying") && strings.HasPrefix(next, "attempt #") && strings.HasSuffix(next, "]") &&
		p.empty(g, y+1, 0, t, p.bg) && p.paintedAs(g, y+1, t, p.w, p.errorC, p.bg)
}

// working reads the status row's left part: the spinner, then "esc
// interrupt" or "esc again to interrupt"; or the retry notice.
func (c *openCode1x) working(g *recognizers.Grid, y int, p *openCodePalette, b openCodeBox, a *recognizers.Activity) bool {
	if c.retrying(g, y, p, &b) {
		a.Spinner = true
		return true
	}
	x := b.x0 + 1
	for i := 0; i < 8; i++ {
		if !strings.ContainsRune(openCodeSpinner, g.Rune(x+i, y)) {
			return false
		}
	}
	if !p.empty(g, y, x+8, x+10, p.bg) {
		return false
	}
	t := x + 10
	switch {
	case p.word(g, y, t, "esc ", p.text, p.bg) && p.word(g, y, t+4, "interrupt", p.muted, p.bg):
		a.InterruptHint = true
	case p.word(g, y, t, "esc again to interrupt", p.primary, p.bg):
		a.InterruptHint, a.InterruptArmed = true, true
	default:
		return false
	}
	a.Spinner = true
	return true
}

// blocked reads the transcript's last block over the composer: the
// reply's footer ending "· interrupted" (Esc twice: recording cancel),
// or a box in the error colour over a footer with no duration (an API
// error OpenCode does not retry: api-error-403).
func (c *openCode1x) blocked(g *recognizers.Grid, p *openCodePalette, b openCodeBox, out *recognizers.Recognition) {
	defer g.Enter("openCode1x.blocked")()
	y := b.top - 1
	for y >= 0 && p.empty(g, y, 0, p.w, p.bg) {
		y--
	}
	if y < 0 || !c.footer(g, y, p) {
		return
	}
	if t := g.Trimmed(y); strings.HasSuffix(t, c.interrupted) && p.word(g, y, 5, "▣", p.muted, p.bg) &&
		p.paintedAs(g, y, 8+recognizers.DisplayWidth(c.agent), 5+recognizers.DisplayWidth(t), p.muted, p.bg) {
		recognizers.BlockComposer(out, recognizers.Block{Reason: recognizers.BlockedInterrupted, Row: y})
		return
	}
	e := y - 1
	for e >= 0 && p.empty(g, e, 0, p.w, p.bg) {
		e--
	}
	if e < 0 || !edge(g, 2, e, '┃', p.errorC, p.panel) {
		return
	}
	top := e
	for top-1 >= 0 && edge(g, 2, top-1, '┃', p.errorC, p.panel) {
		top--
	}
	recognizers.BlockComposer(out, recognizers.Block{Reason: recognizers.BlockedAPIError, Row: top})
}

// footer reports a reply's footer "▣  Build · <model>…" at column 5,
// its "▣" in the agent's colour (muted when the turn was interrupted).
func (c *openCode1x) footer(g *recognizers.Grid, y int, p *openCodePalette) bool {
	return (p.word(g, y, 5, "▣", p.agent, p.bg) || p.word(g, y, 5, "▣", p.muted, p.bg)) &&
		p.word(g, y, 8, c.agent, p.text, p.bg) && p.empty(g, y, 0, 5, p.bg) && p.empty(g, y, 6, 8, p.bg)
}

// lookalike explains a screen with neither composer nor dialog.
func (c *openCode1x) lookalike(g *recognizers.Grid) recognizers.Reason {
	for y := 0; y < g.Height(); y++ {
		if c.dialogPhrase(g, y) {
			return recognizers.NewReason(recognizers.NoteUnstyledLookalike, "row "+strconv.Itoa(y))
		}
	}
	return recognizers.NewReason(recognizers.NoteUnrecognized, "")
}
