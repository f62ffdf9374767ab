package screen

import (
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// composer recognizes Codex's bottom pane at rest, ending at row b: the
// status line on b (with the hints row under it on 0.171.0), a blank
// row, the "›" composer rows (with draftBlankRows, single blank rows
// among them: the empty lines of a draft). Above it may sit the working
// line and a collapsed async question summary. A draft typed while a
// turn runs shows the queue row in place of the status line or the hints
// row: only under the working line.
func (c *codex0x) composer(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.composer")()
	end := b
	queueing, bare := false, false
	if c.hintsRow {
		queueing = c.queueRowAt(g, b)
		bare = !queueing && c.bareHints(g, b)
		if !queueing && !bare && !c.hintRow(g, b) {
			return false
		}
		if bare {
			end++
		} else {
			b--
		}
	}
	if c.statusWraps && c.statusWrapped(g, b) {
		b-- // a long status line's last segment on a row of its own
	}
	command, pair := "", false
	if !c.hintsRow && c.queueRowAt(g, b) {
		queueing = true
	} else if cmd, ok := c.completionRow(g, b); ok {
		command = cmd
	} else if c.slashPopup && b == g.LastRow() && g.First(b-1) == 2 && g.Rune(2, b-1) == '/' && g.Rune(2, b) == '/' {
		pair, b = true, b-1 // the two-row list (completion.go), proven once the draft is read
	} else if g.First(b) != 2 || g.StyleAt(2, b) != c.statusModel {
		return false
	}
	if !g.Blank(b - 1) {
		return false
	}
	p := -1
	for y := b - 2; y >= max(0, b-2-recognizers.MaxComposerRows); y-- {
		if g.Blank(y) && c.draftBlankRows && y < b-2 && !g.Blank(y+1) {
			continue // an empty line of the draft
		}
		if g.Blank(y) || g.First(y) < 2 && g.Rune(0, y) != '›' {
			break
		}
		if g.Rune(0, y) == '›' {
			p = y
			break
		}
	}
	if p < 0 || g.StyleAt(0, p) != c.composerGlyph || !g.SpaceAt(1, p) || p > 0 && !g.Blank(p-1) {
		return false
	}
	empty := c.placeholderOnly(g, p, b-1)
	if (queueing || bare) && empty || command != "" && (p != b-2 || g.TextFrom(p, 2) != command) {
		return false // a completion row completes the one-row draft it names
	}
	if pair {
		if _, _, ok := c.slashPair(g, b, g.TextFrom(p, 2)); empty || p != b-2 || !ok {
			return false // the two-row list completes the one-row draft both its commands start with
		}
	}
	saved := *out
	working := c.above(g, p, out) || out.Activity.Spinner
	if queueing && !out.Activity.Spinner || (bare || command != "" || pair) && working {
		*out = saved
		return false
	}
	out.Region = recognizers.Region{Top: p, Rows: end - p + 1}
	out.Composer = contract.ComposerEmpty
	if !empty {
		rows := make([]string, 0, b-1-p)
		for y := p; y < b-1; y++ {
			rows = append(rows, strings.TrimRight(g.Text(y, 2, g.Width()), " "))
		}
		draft := strings.TrimRight(strings.Join(rows, "\n"), "\n")
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
		if command == "" && !pair {
			out.Clear = c.clear(g, p, b-1) // unproven with the completion row open
		}
	}
	out.ScreenState = contract.ScreenIdle
	if working {
		out.ScreenState = contract.ScreenWorking
	}
	if out.Composer == contract.ComposerEmpty && !working {
		out.Status = c.statusCard(g, p)
	}
	if out.Composer == contract.ComposerDraft && !working && p == b-2 && strings.HasPrefix(out.Draft, "/") {
		if recognizers.SlashCommand(out.Draft) {
			out.Completion = c.completion(g, p, b, command, pair, out.Draft)
		}
		out.NoCompletion = out.Completion == "" && !queueing && !pair && c.noCompletion(g, p, b, command)
	}
	for y := 0; y < p; y++ {
		if c.promptPhrase(g, y) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NotePromptInTranscript, "row "+strconv.Itoa(y)))
			break
		}
	}
	return true
}

// completionRow proves the completion row of a slash command typed in
// the composer on row y (slashPopup): "/<command>", two spaces and its
// description from column 2, the whole row in the highlight style, and
// returns the command. Only the single row recorded is read: a draft that
// several commands complete stays unknown.
func (c *codex0x) completionRow(g *recognizers.Grid, y int) (string, bool) {
	defer g.Enter("codex0x.completionRow")()
	if !c.slashPopup || g.First(y) != 2 || g.Rune(2, y) != '/' || !g.Styled(y, 2, g.Width(), c.highlight) || g.First(y-2) != 0 {
		return "", false
	}
	cmd, desc, ok := strings.Cut(g.TextFrom(y, 2), "  ")
	if !ok || len(cmd) < 2 || strings.ContainsRune(cmd, ' ') || strings.TrimSpace(desc) == "" {
		return "", false
	}
	return cmd, true
}

// completion returns the command the completion list highlights for the
// one-row slash command draft on row p, or "": on 0.155.1 the row in
// place of the status line on row b that composer proved (command), its
// description from the column two spaces after the command; on 0.171.0
// the row two above the composer (slashAbove). Both recorded lists have
// that one row, naming the draft. The two-row list /status draws (pair on
// 0.155.1, rows b and b+1; rows p-3 and p-2 on 0.171.0, blank rows around
// them: completion.go) names the draft only with its first row
// highlighted, that row's command being the draft.
func (c *codex0x) completion(g *recognizers.Grid, p, b int, command string, pair bool, draft string) string {
	defer g.Enter("codex0x.completion")()
	switch {
	case pair:
		if lit, cmds, ok := c.slashPair(g, b, draft); ok && lit == 0 && cmds[0] == draft {
			return draft
		}
	case command != "":
		if command == draft && g.HasAt(b, 2, command+"  ") && !g.SpaceAt(2+recognizers.DisplayWidth(command)+2, b) {
			return command
		}
	case c.slashAbove != nil:
		if c.slashAbove.row(g, p-2, draft) && g.Blank(p-1) && g.Blank(p-3) {
			return draft
		}
		if lit, cmds, ok := c.slashPair(g, p-3, draft); ok && lit == 0 && cmds[0] == draft && g.Blank(p-1) && g.Blank(p-4) {
			return draft
		}
	}
	return ""
}

// noCompletion proves that no completion list is drawn over the one-row
// draft on row p, the status line on row b:
//   - 0.155.1 (slashPopup): its completion row takes the status line's
//     place; here the status line is there as composer proved it (the
//     model at column 2 in statusModel, no completion row read), on the
//     screen's last row;
//   - 0.171.0 (slashAbove): its list sits over the composer, its last
//     row two above it, the highlighted entry in reverse video; here the
//     rows from p-2 up, maxCompletionRows of them, hold no cell in
//     reverse video.
//
// Any other version has no recorded list, and nothing is proven.
func (c *codex0x) noCompletion(g *recognizers.Grid, p, b int, command string) bool {
	defer g.Enter("codex0x.noCompletion")()
	switch {
	case c.slashPopup:
		return command == "" && b == g.LastRow() && g.First(b) == 2 && g.StyleAt(2, b) == c.statusModel
	case c.slashAbove != nil:
		for y := p - 2; y >= max(0, p-1-recognizers.MaxCompletionRows); y-- {
			if g.HasReverse(y) {
				return false
			}
		}
		return true
	}
	return false
}

// codexSlashRow is Codex 0.171.0's completion row over the composer:
// "› ", the command and two spaces in head, its description in desc,
// the rest of the row in head to the pane's last column.
type codexSlashRow struct {
	head, desc vt.Style
}

// row proves the completion row of command on row y.
func (r *codexSlashRow) row(g *recognizers.Grid, y int, command string) bool {
	return r.rowAt(g, y, command, 2+recognizers.DisplayWidth(command)+2)
}

// rowAt proves the completion row of command on row y, its description
// at column x0 (the command padded with spaces up to it).
func (r *codexSlashRow) rowAt(g *recognizers.Grid, y int, command string, x0 int) bool {
	defer g.Enter("codexSlashRow.row")()
	lead := "› " + command
	if x0 < recognizers.DisplayWidth(lead)+2 || g.First(y) != 0 || g.Last(y) != g.Width()-1 || !g.HasAt(y, 0, lead) ||
		strings.TrimSpace(g.Text(y, recognizers.DisplayWidth(lead), x0)) != "" || !g.Styled(y, 0, x0, r.head) || g.SpaceAt(x0, y) {
		return false
	}
	x, m := x0, g.Match(r.desc)
	for x < g.Width() && g.Matches(&m, g.Cell(x, y)) {
		x++
	}
	return x > x0 && !g.SpaceAt(x-1, y) && g.Styled(y, x, g.Width(), r.head) && strings.TrimSpace(g.Text(y, x, g.Width())) == ""
}

// statusWrapped reports whether row b continues the status line above it:
// the status line's own row (the model in its colour at column 2), then
// "· <segment>" at column 2 (permission-approve-cwd120: the thread's
// title after a 120-character cwd).
func (c *codex0x) statusWrapped(g *recognizers.Grid, b int) bool {
	defer g.Enter("codex0x.statusWrapped")()
	return g.First(b) == 2 && g.HasAt(b, 2, "· ") && g.Styled(b, 0, 4, recognizers.Plain().Style()) &&
		g.First(b-1) == 2 && g.StyleAt(2, b-1) == c.statusModel
}

// clear returns the clearing step of the draft on composer rows p to
// end-1, or nil: clearKeys kill to the line start, so the draft must be
// the "›" row alone with the visible cursor right after its last cell.
func (c *codex0x) clear(g *recognizers.Grid, p, end int) *recognizers.Clear {
	defer g.Enter("codex0x.clear")()
	if c.clearKeys == nil {
		return nil
	}
	for y := p + 1; y < end; y++ {
		if !g.Blank(y) {
			return nil
		}
	}
	x := g.Last(p)
	if x < 2 || !g.Cursor().Visible || g.Cursor().Y != p || g.Cursor().X != x+max(g.Cell(x, p).Width(), 1) {
		return nil
	}
	return &recognizers.Clear{Keys: c.clearKeys}
}

// styledRun is a text drawn in one style.
type styledRun struct {
	text  string
	style vt.Style
}

// LogValue of a profile's styled run: its length (the text is the
// profile's own, but a run is compared with screen text).
func (r styledRun) LogValue() slog.Value { return slog.IntValue(len(r.text)) }

// String is LogValue as text.
func (r styledRun) String() string { return r.LogValue().String() }

// queueRowAt proves the queue row on row y: the runs of queueRow from
// column 2, then nothing, or with queueContext only "NN% context left"
// dim, right-aligned at the row's end.
func (c *codex0x) queueRowAt(g *recognizers.Grid, y int) bool {
	defer g.Enter("codex0x.queueRowAt")()
	if len(c.queueRow) == 0 || g.First(y) != 2 {
		return false
	}
	if !runsAt(g, y, 2, c.queueRow, c.queueContext == "") {
		return false
	}
	if c.queueContext == "" {
		return true
	}
	x := 2
	for _, r := range c.queueRow {
		x += recognizers.DisplayWidth(r.text)
	}
	rest := g.TextFrom(y, x)
	n := len(rest) - len(strings.TrimLeft(rest, " "))
	if n < 3 || !g.Styled(y, x, g.Width(), c.dim) {
		return false
	}
	digits, ok := strings.CutSuffix(rest[n:], c.queueContext)
	return ok && len(digits) >= 1 && len(digits) <= 3 && strings.Trim(digits, "0123456789") == ""
}

// hintRow proves the key hints under the status line (Codex 0.171.0):
// segments, three or more spaces apart, each ending in a known hint.
func (c *codex0x) hintRow(g *recognizers.Grid, y int) bool {
	defer g.Enter("codex0x.hintRow")()
	if g.Blank(y) || g.First(y) < 2 {
		return false
	}
	for _, seg := range strings.Split(g.Trimmed(y), "   ") {
		if seg = strings.TrimSpace(seg); seg != "" && !slices.ContainsFunc(c.hints, func(h string) bool { return strings.HasSuffix(seg, h) }) {
			return false
		}
	}
	return true
}

// bareHints reports the hints row blank under the status line on row b,
// the pane's last row: Codex 0.171.0 drops its hints under a draft, and
// with no warning to show there (bubblewrap on PATH) the row is empty
// (permission-bwrap, while "run-ls" is typed). composer takes it only
// under a draft and no running turn, as recorded.
func (c *codex0x) bareHints(g *recognizers.Grid, b int) bool {
	defer g.Enter("codex0x.bareHints")()
	return b == g.Height()-2 && g.First(b) == 2 && g.StyleAt(2, b) == c.statusModel
}

// placeholderOnly proves an empty composer by style: every non-blank cell
// after "› " is the dim placeholder (typed text never is), on the first
// row only.
func (c *codex0x) placeholderOnly(g *recognizers.Grid, p, end int) bool {
	defer g.Enter("codex0x.placeholderOnly")()
	if g.Last(p) < 2 || !g.Styled(p, 2, g.Width(), c.placeholder) {
		return false
	}
	for y := p + 1; y < end; y++ {
		if !g.Blank(y) {
			return false
		}
	}
	return true
}

// above reads the rows over the composer (past blank rows, at most a few):
// the working line "• Working (4s • esc to interrupt)", a collapsed async
// summary "• Queued follow-up inputs / ? 2 questions / alt + ↑ to
// answer", and the blocks of input waiting for the running turn (steered
// or queued answers and messages), which it passes over. pending: such a
// block is there, which only a running turn shows.
func (c *codex0x) above(g *recognizers.Grid, p int, out *recognizers.Recognition) (pending bool) {
	defer g.Enter("codex0x.above")()
	for y, seen := p-1, 0; y >= 0 && seen < 2; y-- {
		if g.Blank(y) {
			continue
		}
		if top, ok := c.pendingBlock(g, y); ok {
			y, pending = top, true
			continue
		}
		seen++
		switch {
		case c.workingLine(g, y, &out.Activity):
		case c.asyncSupported && c.asyncSummary(g, y, out):
			y -= 2
		default:
			c.doneLine(g, y, &out.Activity)
			return pending
		}
	}
	return pending
}

// maxPendingRows bounds a pending-input block (its entries wrap).
const maxPendingRows = 24

// pendingBlock reads a block of input waiting for the running turn whose
// last row is y: under a header at column 0 ("• Messages to be submitted
// after next tool call (…)" for steered input, "• Queued follow-up
// inputs" for input queued for the next turn), indented rows with at
// least one "↳ " entry. It returns the header's row. The collapsed async
// summary (no entry, a "? N questions" row) is not one.
func (c *codex0x) pendingBlock(g *recognizers.Grid, y int) (int, bool) {
	defer g.Enter("codex0x.pendingBlock")()
	entries := 0
	for r := y; r >= 0 && y-r <= maxPendingRows; r-- {
		switch {
		case g.Blank(r):
		case g.First(r) == 0:
			ok := entries > 0 && g.StyleAt(0, r) == c.dim && (g.HasAt(r, 0, c.steerHeader) || g.RowIs(r, 0, c.asyncHeader))
			return r, ok
		case g.First(r) < 2:
			return 0, false
		case g.HasAt(r, 2, "↳ "):
			entries++
		}
	}
	return 0, false
}

// doneLine reads the dim line closing a finished turn: "done 3:48 AM"
// (0.15x) or "Worked for 1s • 04:12" (0.171.0).
func (c *codex0x) doneLine(g *recognizers.Grid, y int, a *recognizers.Activity) {
	defer g.Enter("codex0x.doneLine")()
	if g.First(y) != 2 || !g.Styled(y, 2, g.Width(), c.dim) {
		return
	}
	text := g.TextFrom(y, 2)
	if rest, ok := strings.CutPrefix(text, "Worked for "); ok {
		a.Done = true
		a.DoneElapsed, _, _ = strings.Cut(rest, " • ")
	} else if strings.HasPrefix(text, "done ") {
		a.Done = true
	}
}

// workingLine reads the status line of a running turn. Its header text
// varies (reasoning summaries replace "Working"): only the bullet, the
// timer and the interrupt hint are read.
func (c *codex0x) workingLine(g *recognizers.Grid, y int, a *recognizers.Activity) bool {
	defer g.Enter("codex0x.workingLine")()
	if g.First(y) != 0 || !strings.ContainsRune(c.bullets, g.Rune(0, y)) || !g.SpaceAt(1, y) {
		return false
	}
	text := g.TextFrom(y, 2)
	if !strings.HasSuffix(text, c.interruptHint) {
		return false
	}
	i := strings.LastIndex(text, "(")
	if i < 0 {
		return false
	}
	a.Spinner, a.InterruptHint = true, true
	a.Elapsed, _, _ = strings.Cut(text[i+1:], " • ")
	return true
}

// asyncSummary reads a collapsed summary whose last row is y. The
// questions themselves are not in it: the prompt shown is the nearest
// printed question above (presentation only; answering first expands
// the editor, whose question is parsed exactly).
func (c *codex0x) asyncSummary(g *recognizers.Grid, y int, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.asyncSummary")()
	s := y - 2
	if s < 0 || g.First(y) != 4 || !runsAt(g, y, 4, c.asyncOpenRow, true) ||
		!g.RowIs(s, 0, c.asyncHeader) || g.StyleAt(0, s) != c.dim || !g.HasAt(s+1, 2, "? ") || g.First(s+1) != 2 {
		return false
	}
	count, _, ok := strings.Cut(g.TextFrom(s+1, 4), c.asyncQuestion)
	n := 0
	for _, d := range count {
		if d < '0' || d > '9' {
			ok = false
			break
		}
		n = n*10 + int(d-'0')
	}
	if !ok || n == 0 || g.StyleAt(4, s+1) != c.asyncCount {
		return false
	}
	q := recognizers.Question{Prompt: c.printedQuestion(g, s)}
	out.Prompt = &recognizers.Prompt{Kind: contract.KindAsyncQuestion, Highlighted: -1, Pending: n, Questions: []recognizers.Question{q}}
	out.Specs = []recognizers.ChoiceSpec{{Option: -1, Derived: "open", Steps: []recognizers.PlanStep{{Keys: c.asyncOpenKey, Expect: recognizers.NewExpect(-1, contract.ScreenAsyncQuestion)}}}}
	return true
}

// runsAt proves the runs of rs from column x of row y, each in its style;
// alone: nothing after them.
func runsAt(g *recognizers.Grid, y, x int, rs []styledRun, alone bool) bool {
	for _, r := range rs {
		w := recognizers.DisplayWidth(r.text)
		if !g.HasAt(y, x, r.text) || !g.Styled(y, x, x+w, r.style) {
			return false
		}
		x += w
	}
	return !alone || g.Last(y) < x
}

// printedQuestion finds the async question Codex printed into the history
// above row s: printedMark and the question at column 0 ("• <question>"
// with a bullet of bullets on 0.15x, "? <question>" on 0.171.0), a blank
// row and "  <printedItem><option>" rows.
func (c *codex0x) printedQuestion(g *recognizers.Grid, s int) string {
	defer g.Enter("codex0x.printedQuestion")()
	mark := func(y int) bool {
		if c.printedMark == "• " {
			return strings.ContainsRune(c.bullets, g.Rune(0, y)) && g.SpaceAt(1, y)
		}
		return g.HasAt(y, 0, c.printedMark)
	}
	for y := s - 1; y >= 1; y-- {
		if g.First(y) == 0 && mark(y) && g.Blank(y+1) && g.HasAt(y+2, 2, c.printedItem) {
			return g.TextFrom(y, 2)
		}
	}
	return ""
}
