package screen

import (
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
)

// claudeCompletion is Claude Code's completion list for a slash command
// typed in the composer (recordings thread-new, thread-resume;
// recordings/rig/threads.go), drawn right above the composer's upper
// rule under a blank row: one entry per command, the command at column
// cmdX on the entry's first row, its description from column descX,
// wrapped onto at most one more row at descX. The highlighted entry is
// drawn in the highlight colour, its command's name after the "/" in
// bold, with glyph its "❯" at column 2 (2.1.332); the others in grey,
// the words matching the draft in bold default colour. The recordings
// show the typed command highlighted first, over one or two others.
// Its styles are the dark theme's (the only one recorded): in another
// theme it does not match and nothing is read.
type claudeCompletion struct {
	cmdX, descX int
	glyph       bool
}

// The completion list's styles, as the dark theme draws them.
var (
	claudeCompletionLit  = recognizers.Fg256(153).Style()
	claudeCompletionName = recognizers.Fg256(153).Bold().Style()
	claudeCompletionGrey = recognizers.Fg256(246).Style()
	claudeCompletionWord = recognizers.Plain().Bold().Style()
)

// completion returns the command the list ending on row upper-1
// highlights for draft, a one-row slash command, or "" unless the whole
// list is proven: the entries one under the other up to a blank row,
// exactly one highlighted, the first, naming draft.
func (c *claude21) completion(g *recognizers.Grid, upper int, draft string) string {
	defer g.Enter("claude21.completion")()
	l := c.completionList
	if l == nil {
		return ""
	}
	top := upper - 1
	for ; top >= 0 && !g.Blank(top); top-- {
		if upper-top > recognizers.MaxCompletionRows {
			return ""
		}
	}
	top++
	if top >= upper {
		return ""
	}
	found := ""
	for y, n := top, 0; y < upper; n++ {
		cmd, lit, ok := l.entryHead(g, y)
		if !ok || lit != (n == 0) {
			return ""
		}
		if lit {
			found = cmd
		}
		rows := 1
		if y+1 < upper && g.First(y+1) == l.descX {
			rows = 2
		}
		if !l.entryStyled(g, y, rows, recognizers.DisplayWidth(cmd), lit) {
			return ""
		}
		y += rows
	}
	if found != draft {
		return ""
	}
	return found
}

// noCompletion proves that no completion list is drawn over the composer
// whose upper rule is row upper. The recorded list always ends on row
// upper-1, under a blank row, each entry's first row starting at column
// 2 (its command at cmdX, or 2.1.332's glyph at 2), its description's
// second row at descX: a list there holds a row starting at or left of
// descX among the rows from upper-1 up to the first blank one. Proven
// absent: row upper-1 blank, or it and each row above it up to the first
// blank one (at most maxCompletionRows) starting right of descX (the
// right-aligned "● high · /effort" line, the stash chip, a notice),
// whatever their styles (a list's columns are the same in every theme).
func (c *claude21) noCompletion(g *recognizers.Grid, upper int) bool {
	defer g.Enter("claude21.noCompletion")()
	l := c.completionList
	if l == nil {
		return false
	}
	for y := upper - 1; !g.Blank(y); y-- {
		if upper-y > recognizers.MaxCompletionRows || g.First(y) <= l.descX {
			return false
		}
	}
	return true
}

// claudeArgHint is the style of the argument hint Claude Code draws after
// a slash command typed with a space (thread-resume-id: "/resume " shows
// "[conversation id or search term]" on 2.1.267, "[session ID or search
// term]" on 2.1.332), as the dark theme draws it.
var claudeArgHint = recognizers.Fg256(246).Style()

// argHint reads a command's argument hint on the one-row draft y, in its
// recorded shape: the typed text from column 2, a slash command and one
// space; the drawn cursor (a space in editorCursor) right after it at
// column x; then "[...]" in claudeArgHint, the row's last cells. It
// returns x, where the typed text ends. Only versions whose completion
// list is recorded read it; any other shape is not a hint.
func (c *claude21) argHint(g *recognizers.Grid, y int) (x int, ok bool) {
	defer g.Enter("claude21.argHint")()
	last := g.Last(y)
	if c.completionList == nil || last < 4 || g.Rune(last, y) != ']' || g.StyleAt(last, y) != claudeArgHint {
		return 0, false
	}
	h := last
	for h > 3 && g.StyleAt(h-1, y) == claudeArgHint {
		h--
	}
	x = h - 1
	if g.Rune(h, y) != '[' || !g.SpaceAt(x, y) || g.StyleAt(x, y) != c.editorCursor {
		return 0, false
	}
	cmd, ok := strings.CutSuffix(g.Text(y, 2, x), " ")
	if !ok || !recognizers.SlashCommand(cmd) {
		return 0, false
	}
	return x, true
}

// entryHead reads an entry's first row y: the command at cmdX (after the
// glyph at column 2 when lit and glyph), then spaces to descX and the
// description there. lit: the entry is in the highlight colour (its
// first cell).
func (l *claudeCompletion) entryHead(g *recognizers.Grid, y int) (cmd string, lit, ok bool) {
	defer g.Enter("claudeCompletion.entryHead")()
	first, glyph := l.cmdX, l.glyph && g.First(y) == 2
	if glyph {
		if g.Rune(2, y) != '❯' || !g.SpaceAt(3, y) {
			return "", false, false
		}
		first = 2
	}
	if g.First(y) != first || g.Rune(l.cmdX, y) != '/' || g.SpaceAt(l.descX, y) || !g.SpaceAt(l.descX-1, y) {
		return "", false, false
	}
	head := g.Text(y, l.cmdX, l.descX)
	end := 0
	for end < len(head) && head[end] != ' ' {
		end++
	}
	cmd = head[:end]
	if len(cmd) < 2 || strings.Trim(head[end:], " ") != "" {
		return "", false, false
	}
	lit = g.StyleAt(first, y) == claudeCompletionLit
	if glyph != (l.glyph && lit) {
		return "", false, false // with glyph, drawn on the highlighted entry alone
	}
	return cmd, lit, true
}

// entryStyled proves the styles of an entry of rows rows from row y whose
// command is width columns wide: lit, the glyph and "/" in the highlight
// colour, the command's name in bold highlight, the description in
// either; otherwise every cell grey or bold default.
func (l *claudeCompletion) entryStyled(g *recognizers.Grid, y, rows, width int, lit bool) bool {
	defer g.Enter("claudeCompletion.entryStyled")()
	a, b, from := claudeCompletionGrey, claudeCompletionWord, 0
	if lit {
		end := l.cmdX + width
		if !g.Styled(y, 0, l.cmdX+1, claudeCompletionLit) || !g.Styled(y, l.cmdX+1, end, claudeCompletionName) ||
			!g.Styled(y, end, l.descX, claudeCompletionLit) {
			return false
		}
		a, b, from = claudeCompletionLit, claudeCompletionName, l.descX
	}
	return g.StyledEither(y, from, a, b) && (rows == 1 || g.StyledEither(y+1, 0, a, b))
}
