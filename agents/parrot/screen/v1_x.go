package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// parrot1x is the grammar of Parrot 1.x screens (the alternate screen,
// redrawn whole at each change): its header on the first row
// ("Parrot v1.0.0", bold orange), its history under it, and its bottom
// pane on the last rows. At rest the bottom pane is a grey rule, the
// composer ("parrot> " bold green, the draft in the terminal's own
// colours, the cursor right after it) and the footer ("enter to send ·
// ctrl+d to quit"). A permission replaces it with a dialog (dialog.go).
// Every field is a fact of the recordings in agents/parrot/testdata. Its
// anchors are compared as whole text (a combining mark on one is another
// text), and in their exact styles.
type parrot1x struct {
	header  string // the header's start (the version follows)
	glyph   string // the composer's prompt
	footer  string // the row under the composer
	ask     string // the dialog's title, before the command
	cancel  string // the dialog's last row
	options []parrotRow

	headerStyle vt.Style
	ruleStyle   vt.Style // the composer's rule
	glyphStyle  vt.Style
	hintStyle   vt.Style // the footer, the dialog's last row
	askRule     vt.Style // the dialog's rule
	askStyle    vt.Style // the dialog's title
	litStyle    vt.Style // the highlighted option row
}

// parrotRow is a dialog row's role and exact label.
type parrotRow struct {
	role  recognizers.Role
	label string
}

// parrot1xBase is what Parrot 1.0.0 shows.
var parrot1xBase = parrot1x{
	header: "Parrot v",
	glyph:  "parrot> ",
	footer: "enter to send · ctrl+d to quit",
	ask:    "Parrot wants to run:",
	cancel: "Esc to cancel",
	// "2. No" declines the command and ends the turn (the record's
	// turn_end "declined": recording permission-reject), a semantic no;
	// Esc declines it too (permission-escape), a cancel akk never sends.
	options: []parrotRow{{recognizers.RoleApprove, "Yes"}, {recognizers.RoleReject, "No"}},

	headerStyle: recognizers.Fg256(214).Bold().Style(),
	ruleStyle:   recognizers.Fg256(240).Style(),
	glyphStyle:  recognizers.Fg256(114).Bold().Style(),
	hintStyle:   recognizers.Fg256(244).Style(),
	askRule:     recognizers.Fg256(214).Style(),
	askStyle:    recognizers.Fg256(214).Bold().Style(),
	litStyle:    recognizers.Fg256(114).Bold().Style(),
}

// Recognize tries the composer at rest, then the permission dialog, and
// says why when neither holds.
func (c *parrot1x) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("parrot1x.recognize")()
	if g.LastRow() < 0 {
		out.ScreenState, out.Composer = contract.ScreenStarting, contract.ComposerAbsent
		return
	}
	if c.composer(g, out) || c.dialog(g, out) {
		return
	}
	out.ScreenState, out.Composer = contract.ScreenUnknown, contract.ComposerAbsent
	for y := 0; y < g.Height(); y++ {
		if strings.Contains(g.Trimmed(y), c.ask) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteUnstyledLookalike, "row "+strconv.Itoa(y)))
			return
		}
	}
	out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteUnrecognized, ""))
}

// headed reports the header on the first row: "Parrot v" and a version,
// bold orange, alone on the row.
func (c *parrot1x) headed(g *recognizers.Grid) bool {
	v, ok := strings.CutPrefix(g.Trimmed(0), c.header)
	return ok && g.First(0) == 0 && v != "" && strings.Trim(v, "0123456789.") == "" && g.Styled(0, 0, g.Width(), c.headerStyle)
}

// composer proves the bottom pane at rest on the last three rows: the
// rule, the composer with the cursor right after its draft, the footer;
// and the header. Its draft is the text after the prompt.
func (c *parrot1x) composer(g *recognizers.Grid, out *recognizers.Recognition) bool {
	defer g.Enter("parrot1x.composer")()
	f := g.Height() - 1
	y, x := f-1, recognizers.DisplayWidth(c.glyph)
	if !g.RowIs(f, 0, c.footer) || g.Trimmed(f) != c.footer || !g.Styled(f, 0, g.Width(), c.hintStyle) {
		return false
	}
	if g.Text(y, 0, x) != c.glyph || !g.Styled(y, 0, x, c.glyphStyle) || !g.Styled(y, x, g.Width(), recognizers.Plain().Style()) {
		return false
	}
	// The cursor is right after the draft, or past it by the draft's
	// trailing spaces.
	draft := g.TextFrom(y, x)
	if cur := g.Cursor(); !cur.Visible || cur.Y != y || cur.X < x+recognizers.DisplayWidth(draft) {
		return false
	}
	if full, _ := g.Rule(y-1, '─', c.ruleStyle); !full || !c.headed(g) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenIdle, contract.ComposerEmpty
	out.Region = recognizers.Region{Top: y - 1, Rows: 3}
	if draft != "" {
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
	}
	for r := 1; r < y-1; r++ {
		if strings.Contains(g.Trimmed(r), c.ask) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NotePromptInTranscript, "row "+strconv.Itoa(r)))
			break
		}
	}
	return true
}
