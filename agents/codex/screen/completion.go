package screen

import (
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
)

// Codex's two-row completion list, as /status draws it (status,
// status-completion: "/status" typed shows /status and /statusline;
// "/statu" the same two rows):
//
//	0.155.1, in the status line's place under the composer and a blank row:
//	  /status      show current session configuration and token usage
//	  /statusline  configure which items appear in the status line
//	0.171.0, over the composer, a blank row between:
//	› /status      show current session configuration and token usage
//	  /statusline  configure which items appear in the status line
//
// Both commands at column 2, both descriptions at the column two after
// the longer command. The highlighted row is 0.155.1's single completion
// row's style (the whole row in highlight) or 0.171.0's (slashAbove: "› "
// and the padded command bold reverse, the description reverse, bold
// reverse to the pane's last column). The other row: "/" plain, the
// draft's name bold (the typed prefix the list matched), the rest of the
// command plain, the description dim, nothing after it. Only this shape
// is read: exactly two rows, one of them highlighted, both commands
// starting with the draft.

// slashPair proves the two-row completion list of the one-row slash
// command draft on rows y and y+1 and returns the index of its
// highlighted row (0 or 1) and its commands.
func (c *codex0x) slashPair(g *recognizers.Grid, y int, draft string) (lit int, cmds [2]string, ok bool) {
	defer g.Enter("codex0x.slashPair")()
	if !recognizers.SlashCommand(draft) || !c.slashPopup && c.slashAbove == nil {
		return 0, cmds, false
	}
	var desc [2]int
	for i := range 2 {
		cmd, rest, found := strings.Cut(g.TextFrom(y+i, 2), "  ")
		if !found || !recognizers.SlashCommand(cmd) || !strings.HasPrefix(cmd, draft) || strings.TrimSpace(rest) == "" {
			return 0, cmds, false
		}
		cmds[i] = cmd
		desc[i] = 2 + recognizers.DisplayWidth(cmd) + 2 + len(rest) - len(strings.TrimLeft(rest, " "))
	}
	descX := 2 + max(recognizers.DisplayWidth(cmds[0]), recognizers.DisplayWidth(cmds[1])) + 2
	if cmds[0] == cmds[1] || desc[0] != descX || desc[1] != descX {
		return 0, cmds, false
	}
	lits := 0
	for i := range 2 {
		switch {
		case c.pairLit(g, y+i, cmds[i], descX):
			lit = i
			lits++
		case !c.pairPlain(g, y+i, draft, descX):
			return 0, cmds, false
		}
	}
	return lit, cmds, lits == 1
}

// pairLit proves the highlighted row of the two-row list on row y.
func (c *codex0x) pairLit(g *recognizers.Grid, y int, cmd string, descX int) bool {
	defer g.Enter("codex0x.pairLit")()
	if c.slashAbove != nil {
		return c.slashAbove.rowAt(g, y, cmd, descX)
	}
	return g.First(y) == 2 && g.HasAt(y, 2, cmd) && !g.SpaceAt(descX, y) && g.Styled(y, 2, g.Width(), c.highlight)
}

// pairPlain proves the other row of the two-row list on row y: "/" plain,
// the draft's name bold, the rest plain, the description dim from descX.
func (c *codex0x) pairPlain(g *recognizers.Grid, y int, draft string, descX int) bool {
	defer g.Enter("codex0x.pairPlain")()
	x := 2 + recognizers.DisplayWidth(draft)
	bold := recognizers.Plain().Bold().Style()
	return g.First(y) == 2 && g.Rune(2, y) == '/' && !g.SpaceAt(descX, y) &&
		g.StyleAt(2, y) == recognizers.Plain().Style() && g.Styled(y, 3, x, bold) && !g.SpaceAt(x-1, y) && g.StyleAt(x-1, y) == bold &&
		g.Styled(y, x, descX, recognizers.Plain().Style()) && g.Styled(y, descX, g.Width(), c.dim)
}
