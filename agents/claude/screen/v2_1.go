package screen

import (
	"strconv"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// claude21 is the grammar of Claude Code 2.1.x screens (the full-screen
// Ink UI on the alternate screen). Every field is a fact of the recordings
// in recordings/testdata/claude/<version>: a text, a style or a layout.
type claude21 struct {
	// The composer frame: a rule, "❯ " and the draft, a rule, a footer.
	composerRule   vt.Style
	composerGlyphs []vt.Style   // "❯" idle (default) and while working (grey)
	footer         vt.Style     // the footer's style
	footerModes    []footerMode // the footer's first segment
	footerHints    []string     // its other segments
	interruptHint  string
	spinnerGlyphs  string
	spinner        vt.Style
	hint           vt.Style // grey: numbers, descriptions, dialog footers
	// The row right above the composer's upper rule ends, right-aligned
	// and all in the notice style (after the effort indicator "● high ·
	// /effort · " when shown), with the stash chip while a draft stashed
	// with stashKey waits to come back, or with restoredNotice when it came
	// back after a submit. Unset where no recording shows them.
	stashKey       []byte
	stashChip      string
	restoredNotice string
	notice         vt.Style

	// Menus: "❯" and the current row's label in the highlight colour.
	highlight vt.Style
	permMenu  recognizers.MenuLayout
	qMenu     recognizers.MenuLayout
	// wrapProven: labels (by prefix) whose wrap onto one continuation row
	// a recording of the version shows; any other wrap is wrapped_label.
	wrapProven []string
	maxWraps   int // continuation rows a proven wrap may take (0: 1)

	// The permission dialog.
	permRule    vt.Style
	permHeader  vt.Style
	permDialogs []permDialog // the tools whose dialog is proven
	plan        *planFrame   // plan mode's dialogs, where recorded
	permFooter  string
	tip         vt.Style
	tipPrefix   string
	amendLabel  string

	// Questionnaires.
	qRule           vt.Style
	chip            vt.Style
	question        vt.Style
	qFooters        []string // the select footer, one and several questions
	editorFooters   []string // the same with the text editor on
	freeTextLabel   string   // single-select "Type something." row
	multiFreeText   string   // multi-select "[ ] Type something"
	chatLabel       string
	editorCursor    vt.Style // the editor's drawn cursor cell
	editorHint      vt.Style // its placeholder
	multiSubmit     string
	multiSubmitSty  vt.Style
	tick            vt.Style // a ticked multi-select box "[✔]"
	reviewTitle     string
	reviewPrompt    string // "" when the version has none
	reviewSubmit    string
	reviewCancel    string
	maxFreeText     int
	composerFooterX int
	// qSingleOnly: the questionnaire is proven only as one single-select
	// question with an answer row current (a theme whose recordings show
	// nothing else of it): tabs, the review, check boxes and the open
	// editor are unsupported_prompt_shape, and "Type something", which
	// opens the editor, is listed but not offered.
	qSingleOnly bool

	// freeTextLabels read as a native row's label ("Type something.",
	// "Chat about this", or the tool schema's automatic "Other"): a model
	// option with one of them is manual.
	freeTextLabels []string

	// picker is the session picker /resume opens (nil: not recorded).
	picker *claudePicker
	// completionList is the completion list a slash command typed in the
	// composer opens (nil: not recorded).
	completionList *claudeCompletion
	// status is the settings panel's Status tab /status opens (nil: not
	// recorded).
	status *claudeStatus
	// model is the model picker /model opens (nil: not recorded).
	model *claudeModel
}

// footerMode is a mode the footer names first: its text and, for a mode
// with its own colour, the leading part drawn in that colour ("⏸ plan
// mode on" of "⏸ plan mode on (shift+tab to cycle)").
type footerMode struct {
	mode   string
	lit    string
	accent vt.Style
}

// claudePersistent are the prefixes of the Bash dialog's persistent
// grants.
var claudePersistent = []string{"Yes, and always allow access to ", "Yes, and don't ask again", "Yes, and don’t ask again"}

// claude21Base is what Claude Code 2.1.263, 2.1.266 and 2.1.267 agree on
// (their recordings differ only in the logo's animation frame). Each
// version still gets its own Profile value in registry.go.
var claude21Base = claude21{
	composerRule:    recognizers.Fg256(244).Style(),
	composerGlyphs:  []vt.Style{recognizers.Plain().Style(), recognizers.Fg256(246).Style()},
	footer:          recognizers.Fg256(246).Style(),
	footerModes:     []footerMode{{mode: "⏸ manual mode on"}},
	footerHints:     []string{"? for shortcuts", "← for agents", "esc to interrupt"},
	interruptHint:   "esc to interrupt",
	spinnerGlyphs:   "✻✽✢✶✳*·",
	spinner:         recognizers.Fg256(174).Style(),
	hint:            recognizers.Fg256(246).Style(),
	highlight:       recognizers.Fg256(153).Style(),
	permMenu:        recognizers.MenuLayout{Glyph: '❯', GlyphX: 1, NumX: 3, LabelX: 6},
	qMenu:           recognizers.MenuLayout{Glyph: '❯', GlyphX: 0, NumX: 2, LabelX: 5},
	permRule:        recognizers.Fg256(153).Style(),
	permHeader:      recognizers.Fg256(153).Bold().Style(),
	permDialogs:     []permDialog{bashDialog(claudePersistent, "Yes, and switch to auto mode")},
	permFooter:      "Esc to cancel · Tab to amend",
	tip:             recognizers.Plain().Bold().Style(),
	tipPrefix:       "Tip: ",
	amendLabel:      "Yes, and tell Claude what to do next",
	qRule:           recognizers.Fg256(246).Style(),
	chip:            recognizers.Fg256(16).Bg256(153).Style(),
	question:        recognizers.Fg256(231).Bold().Style(),
	qFooters:        []string{"Enter to select · ↑/↓ to navigate · Esc to cancel", "Enter to select · Tab/Arrow keys to navigate · Esc to cancel"},
	editorFooters:   []string{"Enter to select · ↑/↓ to navigate · ctrl+g to edit in Vim · Esc to cancel", "Enter to select · Tab/Arrow keys to navigate · ctrl+g to edit in Vim · Esc to cancel"},
	freeTextLabel:   "Type something.",
	multiFreeText:   "Type something",
	chatLabel:       "Chat about this",
	freeTextLabels:  []string{"Type something.", "Chat about this", "Other"},
	editorCursor:    recognizers.Plain().Reverse().Style(),
	editorHint:      recognizers.Plain().Dim().Style(),
	multiSubmit:     "Submit",
	multiSubmitSty:  recognizers.Plain().Bold().Style(),
	tick:            recognizers.Fg256(114).Style(),
	reviewTitle:     "Review your answers",
	reviewPrompt:    "Ready to submit your answers?",
	reviewSubmit:    "Submit answers",
	reviewCancel:    "Cancel",
	maxFreeText:     799,
	composerFooterX: 2,
}

// Recognize tries the composer frame (idle, working), then a dialog, and
// says why when neither holds.
func (c *claude21) Recognize(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("claude21.recognize")()
	b := g.LastRow()
	if b < 0 {
		out.ScreenState, out.Composer = contract.ScreenStarting, contract.ComposerAbsent
		return
	}
	if c.composer(g, b, out) {
		c.blocked(g, out)
		if c.model != nil && out.ScreenState == contract.ScreenIdle {
			out.ModelNotice = claudeNotice(g, out.Region.Top)
		}
		return
	}
	out.Composer = contract.ComposerAbsent
	if claudeErrorsOf[c] != nil || !out.Exact {
		// Startup screens are recorded on the versions whose errors are.
		if c.startup(g, out) {
			return
		}
	}
	if c.statusPanel(g, b, out) || c.modelMenu(g, b, out) || c.resumePicker(g, b, out) || c.planDialog(g, b, out) || c.dialog(g, b, out) {
		return
	}
	out.ScreenState = contract.ScreenUnknown
	out.Reasons = append(out.Reasons, c.lookalike(g, 0, b+1))
}

// lookalike explains a screen with neither composer nor dialog: prompt
// text without the profile's styles, or nothing known.
func (c *claude21) lookalike(g *recognizers.Grid, top, end int) recognizers.Reason {
	defer g.Enter("claude21.lookalike")()
	for y := top; y < end; y++ {
		if c.promptPhrase(g, y, true) {
			return recognizers.NewReason(recognizers.NoteUnstyledLookalike, "row "+strconv.Itoa(y))
		}
	}
	return recognizers.NewReason(recognizers.NoteUnrecognized, "")
}

// promptPhrase reports whether row y shows one of the dialogs' phrases,
// whatever its style, or with menuRows a "❯ 1." menu row.
func (c *claude21) promptPhrase(g *recognizers.Grid, y int, menuRows bool) bool {
	defer g.Enter("claude21.promptPhrase")()
	if g.Blank(y) {
		return false
	}
	x := g.First(y)
	for i := range c.permDialogs {
		if g.HasAt(y, x, c.permDialogs[i].prefix) {
			return true
		}
	}
	if c.plan != nil && c.plan.phrase(g, y, x) {
		return true
	}
	if g.HasAt(y, x, c.permFooter) || g.HasAt(y, x, "Enter to select ·") ||
		c.reviewPrompt != "" && g.HasAt(y, x, c.reviewPrompt) {
		return true
	}
	// "❯ 1." in either menu layout. Not for stale prompts: a person's
	// earlier message "❯ 1. fix it" looks the same in the transcript.
	return menuRows && (x == 0 || x == 1) && g.Rune(x, y) == '❯' && recognizers.NumberAt(g, y, x+2) > 0
}

// staleAbove reports a prompt above row top: a dialog's phrase, a
// highlighted menu row, or another dialog frame.
func (c *claude21) staleAbove(g *recognizers.Grid, top int) (recognizers.Reason, bool) {
	defer g.Enter("claude21.staleAbove")()
	for y := 0; y < top; y++ {
		if g.Blank(y) {
			continue
		}
		x := g.First(y)
		if (x == 0 || x == 1 || c.plan != nil && (x == 3 || x == 4)) && g.Rune(x, y) == '❯' && g.StyleAt(x, y) == c.highlight ||
			c.promptPhrase(g, y, false) || c.dialogTop(g, y) || c.plan != nil && c.planTop(g, y) {
			return recognizers.NewReason(recognizers.ReasonStalePrompt, "row "+strconv.Itoa(y)), true
		}
	}
	return recognizers.Reason{}, false
}
