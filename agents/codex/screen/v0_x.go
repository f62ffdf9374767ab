package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// codex0x is the grammar of Codex 0.x screens (the inline TUI on the
// normal screen: history above, the bottom pane last). Every field is a
// fact of the recordings in recordings/testdata/codex/<version>.
type codex0x struct {
	// The bottom pane at rest: "› " and a dim placeholder or a draft, a
	// blank row, the status line ("gpt-5.5 default · ~/project").
	composerGlyph vt.Style
	placeholder   vt.Style // dim
	statusModel   vt.Style // the status line's first cell
	statusWraps   bool     // the status line may wrap onto a row of its own (0.171.0)
	hintsRow      bool     // a row of key hints under the status line
	hints         []string // what its segments end with
	// draftBlankRows: a draft's empty line is a blank row among the
	// composer rows (0.171.0: an async answer typed but not sent moves
	// into the composer at the turn's end as "> <question>", an empty
	// line, the text: async-working).
	draftBlankRows bool
	bullets        string // the working line's animated bullet
	interruptHint  string // "esc to interrupt)"
	// clearKeys (ctrl+u) kill from the line start to the cursor: they
	// empty the whole draft only when it is one row and the cursor is
	// right after its last cell (recordings clear-draft, clear-cursor-mid,
	// clear-multiline).
	clearKeys []byte
	// A draft typed while a turn runs turns the status line (0.155.1) or
	// the hints row (0.171.0) into "tab to queue message", drawn as
	// queueRow's runs from column 2; queueContext is the right-aligned
	// "NN% context left" ending that row ("" when none). Unset where no
	// recording shows it.
	queueRow     []styledRun
	queueContext string
	// slashPopup: a slash command typed in the composer shows its
	// completion row in place of the status line, the whole row in the
	// highlight style (0.155.1: thread-new, thread-resume).
	slashPopup bool
	// slashAbove: a slash command typed in the composer shows its
	// completion list over the composer, a blank row between (0.171.0:
	// thread-new, thread-resume); nil where not recorded.
	slashAbove *codexSlashRow
	// picker is the session picker /resume opens (nil: not recorded).
	picker *codexPicker
	// status is the card /status prints (nil: not recorded).
	status *codexStatus
	// model is the /model popups (nil: not recorded).
	model *codexModel

	// Menus: the current row entirely in the row highlight styles (one
	// colour, or reverse video in two weights), its glyph in the first;
	// highlight also marks the async editor's question and keys.
	highlight vt.Style
	rowLit    []vt.Style
	dim       vt.Style
	permMenu  recognizers.MenuLayout
	qMenu     recognizers.MenuLayout

	// Approval overlay.
	title vt.Style // bold
	// permTitles open it; which of them a version approves, with which
	// menu, is codexPermsOf's (permission.go).
	permTitles   []string
	verifySuffix string // MCP user verification: never approvable
	permFooter   string // dim, padded to the pane's last column

	// Questions (request_user_input).
	progress       string // "Question "
	qPrompt        vt.Style
	qAnswered      vt.Style // the prompt of a question answered (default colours)
	qFooterSegs    []string
	qSubmits       []string // a step's submit, the last of several steps'
	qNavigate      string   // in the footer when there are several questions
	notesLabel     string   // "None of the above"
	notesHint      string   // "Add notes"
	notesFooter    string
	derivedLabel   string // akk's free-text choice beside "None of the above"
	confirmTitle   string
	confirmFooter  string
	proceedLabel   string
	goBackLabel    string
	pasteQuietMs   int
	maxFreeText    int // below the length Codex collapses into "[Pasted Content N chars]"
	asyncSupported bool

	// request_user_input's bounds (seed 000; its tool schema: "Provide
	// 2-3 mutually exclusive choices", questions "do not exceed 3"): the
	// model's options, without "None of the above", and the questions.
	minOptions, maxOptions, maxQuestions int
	// freeTextLabels read as a free-text row's label (native, derived, or
	// the tool schema's automatic "Other"): a model option with one of
	// them is manual.
	freeTextLabels []string
	// secretMask is what Codex draws for each character typed into the
	// Notes of a question whose request set isSecret (question-secret).
	secretMask rune

	// Async questions (request_user_input_async, 0.154.0 and later).
	asyncHeader   string // "• Queued follow-up inputs"
	asyncGap      int    // blank rows between it and the open editor
	asyncOf       string // " of "
	asyncSubmit   string // the footer's first segment
	asyncKey      vt.Style
	asyncSegs     []string
	asyncOther    string
	asyncHint     string   // the editor's placeholder
	asyncPrompt   vt.Style // the open editor's question
	asyncQuestion string   // " questions" / " question" after the count
	asyncCount    vt.Style // the count and that word
	// asyncOpenRow is the collapsed summary's last row from column 4,
	// "alt + ↑ to answer"; asyncOpenKey is that key.
	asyncOpenRow []styledRun
	asyncOpenKey []byte
	// printedMark starts a question printed into the history at column 0
	// ("• " with a bullet of bullets, or "? "); printedItem its options.
	printedMark string
	printedItem string
	steerHeader string // the block of input steered into the running turn
}

// codex0xBase is what Codex 0.155.1 shows (the only recorded version so
// far), but for its working screen with a draft (codex0_155_1Grammar);
// other versions start from it and change what their recordings show
// differently.
var codex0xBase = codex0x{
	composerGlyph:  recognizers.Plain().Bold().Style(),
	placeholder:    recognizers.Plain().Dim().Style(),
	statusModel:    recognizers.FgRGB(0xf6, 0xe2, 0xb7).Style(),
	bullets:        "•◦",
	interruptHint:  "esc to interrupt)",
	clearKeys:      []byte{0x15},
	highlight:      recognizers.FgIdx(6).Bold().Style(),
	rowLit:         []vt.Style{recognizers.FgIdx(6).Bold().Style()},
	dim:            recognizers.Plain().Dim().Style(),
	permMenu:       recognizers.MenuLayout{Glyph: '›', GlyphX: 0, NumX: 2, LabelX: 5},
	qMenu:          recognizers.MenuLayout{Glyph: '›', GlyphX: 2, NumX: 4, LabelX: 7},
	title:          recognizers.Plain().Bold().Style(),
	permTitles:     []string{codexExecTitle, codexEditsTitle, codexGrantTitle},
	verifySuffix:   " needs your approval.",
	permFooter:     "Press enter to confirm or esc to cancel",
	progress:       "Question ",
	qPrompt:        recognizers.FgIdx(6).Style(),
	qAnswered:      recognizers.Plain().Style(),
	qFooterSegs:    []string{"tab to add notes", "enter to submit answer", "enter to submit all", "←/→ to navigate questions", "esc to interrupt"},
	qSubmits:       []string{"enter to submit answer", "enter to submit all"},
	qNavigate:      "←/→ to navigate questions",
	notesLabel:     "None of the above",
	notesHint:      "Add notes",
	notesFooter:    "tab or esc to clear notes | enter to submit answer",
	derivedLabel:   "None of the above, with notes",
	minOptions:     2,
	maxOptions:     3,
	maxQuestions:   3,
	freeTextLabels: []string{"None of the above", "None of the above, with notes", "Other", "Type something.", "Type your answer"},
	secretMask:     '*',
	confirmTitle:   "Submit with unanswered questions?",
	confirmFooter:  "Press enter to confirm or esc to go back",
	proceedLabel:   "Proceed",
	goBackLabel:    "Go back",
	pasteQuietMs:   codexPasteQuietMillis,
	maxFreeText:    999,
	asyncSupported: true,
	asyncHeader:    "• Queued follow-up inputs",
	asyncGap:       1,
	asyncOf:        " of ",
	asyncSubmit:    "enter submit",
	asyncKey:       recognizers.FgIdx(6).Bold().Style(),
	asyncSegs:      []string{"ctrl + ] skip", "alt + ↓ main prompt", "alt + ↑ next question", "alt + ↑ queued messages"},
	asyncOther:     "Other",
	asyncHint:      "Type your answer",
	asyncPrompt:    recognizers.FgIdx(6).Bold().Style(),
	asyncQuestion:  " question",
	asyncCount:     recognizers.FgIdx(6).Bold().Style(),
	asyncOpenRow:   []styledRun{{"alt + ↑ to answer", recognizers.Plain().Dim().Style()}},
	asyncOpenKey:   recognizers.KeyAltUp,
	printedMark:    "• ",
	printedItem:    "- ",
	steerHeader:    "• Messages to be submitted after next tool call",
}

// Recognize tries the bottom pane at rest (idle, working), then an
// overlay (approval, question, confirmation, async editor) from its
// title, then a frameless overlay, and says why when none holds.
func (c *codex0x) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("codex0x.recognize")()
	b := g.LastRow()
	if b < 0 {
		out.ScreenState, out.Composer = contract.ScreenStarting, contract.ComposerAbsent
		return
	}
	if c.composer(g, b, out) {
		c.blocked(g, out)
		if c.model != nil && out.ScreenState == contract.ScreenIdle {
			out.ModelNotice = codexNotice(g, out.Region.Top)
		}
		return
	}
	out.Composer = contract.ComposerAbsent
	if _, known := codexErrorsOf[c]; (known || !out.Exact) && c.startup(g, out) {
		return
	}
	if c.resumePicker(g, b, out) || c.modelMenu(g, b, out) {
		return
	}
	if t, kind := c.overlayTop(g, b); t >= 0 {
		c.overlay(g, t, kind, b, out)
		if r, stale := c.staleAbove(g, t); stale {
			out.Reasons = append(out.Reasons, r)
		}
		return
	}
	if c.frameless(g, b, out) {
		return
	}
	out.ScreenState = contract.ScreenUnknown
	out.Reasons = append(out.Reasons, c.lookalike(g, 0, b+1))
}

// overlay kinds, by their first row.
const (
	ovPermission = iota + 1
	ovQuestion
	ovConfirm
	ovAsync
	ovForm
)

// overlayTop finds the bottom-most overlay title at or above row b.
func (c *codex0x) overlayTop(g *recognizers.Grid, b int) (int, int) {
	defer g.Enter("codex0x.overlayTop")()
	for y := b; y >= 0; y-- {
		if k := c.overlayKind(g, y); k != 0 {
			return y, k
		}
	}
	return -1, 0
}

func (c *codex0x) overlayKind(g *recognizers.Grid, y int) int {
	defer g.Enter("codex0x.overlayKind")()
	if g.Blank(y) {
		return 0
	}
	x := g.First(y)
	switch {
	case x == 2 && g.Styled(y, 2, g.Width(), c.title) && c.isPermTitle(g.Trimmed(y)):
		return ovPermission
	case x == 2 && g.HasAt(y, 2, c.progress) && g.Styled(y, 2, g.Width(), c.dim) && recognizers.NumberAt(g, y, 2+len(c.progress)) == 0 &&
		g.Rune(2+len(c.progress), y) >= '1' && g.Rune(2+len(c.progress), y) <= '9':
		return ovQuestion // its text is proven by question's progress()
	case x == 2 && g.RowIs(y, 2, c.confirmTitle) && g.Styled(y, 2, g.Width(), c.title):
		return ovConfirm
	case c.asyncSupported && x == 0 && g.RowIs(y, 0, c.asyncHeader) && g.StyleAt(0, y) == c.dim &&
		(c.gapBelow(g, y) || g.HasAt(y+1, 2, queuedEntry)): // expanded; the collapsed summary follows at once
		return ovAsync
	case x == 2 && c.isForm(g, y):
		return ovForm
	}
	return 0
}

// gapBelow reports exactly asyncGap blank rows under row y, then a row
// that is not (the open async editor under its header).
func (c *codex0x) gapBelow(g *recognizers.Grid, y int) bool {
	for i := 1; i <= c.asyncGap; i++ {
		if !g.Blank(y + i) {
			return false
		}
	}
	return !g.Blank(y + c.asyncGap + 1)
}

func (c *codex0x) isPermTitle(t string) bool {
	for _, s := range c.permTitles {
		if t == s {
			return true
		}
	}
	return strings.HasSuffix(t, c.verifySuffix)
}

func (c *codex0x) overlay(g *recognizers.Grid, t, kind, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.overlay")()
	switch kind {
	case ovPermission:
		c.permission(g, t, b, out)
	case ovQuestion:
		c.question(g, t, b, out)
	case ovConfirm:
		c.confirm(g, t, b, out)
	case ovAsync:
		c.asyncEditor(g, t, b, out)
	case ovForm:
		c.elicitation(g, t, b, out)
	}
}

// highlightRow reports whether row y draws the glyph at x and every
// non-blank cell from it in a row highlight style.
func (c *codex0x) highlightRow(g *recognizers.Grid, y, x int) bool {
	defer g.Enter("codex0x.highlightRow")()
	if g.Rune(x, y) != '›' || g.StyleAt(x, y) != c.rowLit[0] {
		return false
	}
	m := recognizers.NewStyleSet(c.rowLit)
	for ; x < g.Width(); x++ {
		if cl := g.Cell(x, y); !g.BlankCell(cl) && !g.InSet(&m, cl) {
			return false
		}
	}
	return true
}

// frameless handles overlay rows (a highlighted option, an approval
// footer) without their title: a short pane cut the top off.
func (c *codex0x) frameless(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.frameless")()
	for y := b; y >= 0; y-- {
		if g.Blank(y) {
			continue
		}
		x := g.First(y)
		perm := x == 0 && c.highlightRow(g, y, 0) && recognizers.NumberAt(g, y, 2) > 0 ||
			x == 2 && g.HasAt(y, 2, c.permFooter) && g.StyleAt(2, y) == c.dim
		question := x == 2 && c.highlightRow(g, y, 2) && recognizers.NumberAt(g, y, 4) > 0
		if !perm && !question {
			continue
		}
		out.ScreenState, out.Prompt = contract.ScreenQuestionnaire, &recognizers.Prompt{Kind: contract.KindQuestionnaire, Highlighted: -1}
		if perm {
			out.ScreenState, out.Prompt.Kind = contract.ScreenAwaitingApproval, contract.KindPermission
		}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonClippedFrame, "no title above row "+strconv.Itoa(y)))
		return true
	}
	return false
}

// lookalike explains a screen with neither bottom pane nor overlay.
func (c *codex0x) lookalike(g *recognizers.Grid, top, end int) recognizers.Reason {
	defer g.Enter("codex0x.lookalike")()
	for y := top; y < end; y++ {
		if c.promptPhrase(g, y) {
			return recognizers.NewReason(recognizers.NoteUnstyledLookalike, "row "+strconv.Itoa(y))
		}
	}
	return recognizers.NewReason(recognizers.NoteUnrecognized, "")
}

// promptPhrase reports an overlay's phrase on row y, whatever its style.
func (c *codex0x) promptPhrase(g *recognizers.Grid, y int) bool {
	defer g.Enter("codex0x.promptPhrase")()
	if g.Blank(y) {
		return false
	}
	x := g.First(y)
	for _, s := range c.permTitles {
		if g.HasAt(y, x, s) {
			return true
		}
	}
	return g.HasAt(y, x, c.permFooter) || g.HasAt(y, x, c.confirmTitle) || g.HasAt(y, x, c.asyncSubmit+"   ") ||
		g.HasAt(y, x, c.progress) && g.Rune(x+len(c.progress), y) >= '1' && g.Rune(x+len(c.progress), y) <= '9'
}

// staleAbove reports another overlay's title or a highlighted menu row
// above the live overlay's top t.
func (c *codex0x) staleAbove(g *recognizers.Grid, t int) (recognizers.Reason, bool) {
	defer g.Enter("codex0x.staleAbove")()
	for y := 0; y < t; y++ {
		if g.Blank(y) {
			continue
		}
		x := g.First(y)
		if c.overlayKind(g, y) != 0 || (x == 0 || x == 2) && c.highlightRow(g, y, x) && recognizers.NumberAt(g, y, x+2) > 0 {
			return recognizers.NewReason(recognizers.ReasonStalePrompt, "row "+strconv.Itoa(y)), true
		}
	}
	return recognizers.Reason{}, false
}

// codexPasteQuietMillis crosses Codex's paste-burst window (Enter within
// 120 ms of typed text is a newline; seed 000 measured 121 ms).
const codexPasteQuietMillis = 121

// keyShiftLeft opens 0.171.0's async questions.
var keyShiftLeft = []byte("\x1b[1;2D")
