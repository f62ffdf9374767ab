package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// claudeErrors is what a Claude Code profile knows of the API errors it
// prints when it gives up on a request: an assistant block "● API Error:
// ..." whose bullet and text are all in the error colour, wrapped to
// column 2, as the transcript's last block (below it only the finished
// line "✻ Churned for 0s · done 5:40 AM" and right-aligned notices).
// Only the shapes its recordings show are read: an "API Error" block of
// another text is Unknown; one without the error colour is text (a
// quotation), not an error.
type claudeErrors struct {
	bullet rune
	indent int // the column the text starts at, on every row
	style  vt.Style
	prefix string // every API error's text starts with it
	shapes []recognizers.APIErrorShape
	// placeholder is the composer's hint under a transient error, its
	// first letter under the drawn cursor and the rest dim: the composer
	// is empty ("" where no recording shows one).
	placeholder string
}

// claudeErrors2_1 is what Claude Code 2.1.267 and 2.1.332 print
// (recordings api-error-429, api-error-overloaded, api-error-500). With a
// custom ANTHROPIC_BASE_URL the overload text ends "If it persists, check
// your inference gateway (host:port)."; the shapes read only what comes
// before.
var claudeErrors2_1 = claudeErrors{
	bullet: '●',
	indent: 2,
	style:  recognizers.Fg256(220).Style(),
	prefix: "API Error: ",
	shapes: []recognizers.APIErrorShape{
		{Prefix: "API Error: Request rejected (429) · ", Reason: recognizers.BlockedRateLimited, Status: 429},
		{Prefix: "API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary. Try again in a moment.",
			Reason: recognizers.BlockedOverloaded, Status: 529},
		{Prefix: "API Error: 500 ", Has: []string{"This is a server-side issue, usually temporary — try again in a moment."},
			Reason: recognizers.BlockedAPIError, Status: 500},
	},
}

// claudeErrors2_1_332: Claude Code 2.1.332 prints the same errors, its
// links as OSC 8 hyperlinks, and after an overload (not after a 429)
// hints "Resend your message to try again" in the empty composer.
var claudeErrors2_1_332 = func() claudeErrors {
	e := claudeErrors2_1
	e.placeholder = "Resend your message to try again"
	return e
}()

// claudeErrorsOf are the profiles whose error shapes are recorded (by
// grammar value, so the generic profile reading with one of them knows
// them too).
var claudeErrorsOf = map[*claude21]*claudeErrors{
	&claude2_1_267: &claudeErrors2_1,
	&claude2_1_332: &claudeErrors2_1_332,
}

// blocked reads an idle composer screen whose transcript ends in an API
// error (Blocked with the error's reason, or Unknown when the error is
// of a shape the profile does not know), in a person's interruption
// (interrupted), or that says it is not logged in (login_required).
func (c *claude21) blocked(g *recognizers.Grid, out *recognizers.Recognition) {
	e := claudeErrorsOf[c]
	if !out.Exact {
		// The generic profile: the newest recorded version's errors.
		e = &claudeErrors2_1_332
	}
	if out.ScreenState != contract.ScreenIdle || out.Stashed || out.DraftRestored {
		return
	}
	// Every recorded version (2.1.263 to 2.1.332) draws the interruption
	// note the same way, after Esc and after a rejected tool.
	if b, ok := c.interrupted(g, c.lastBlockEnd(g, out.Region.Top-1)); ok && out.Composer == contract.ComposerEmpty {
		recognizers.BlockComposer(out, b)
		return
	}
	if c.usageLimitUnread(g, out) {
		return
	}
	if e == nil {
		return
	}
	if p := out.Region.Top + 1; out.Composer == contract.ComposerDraft && e.placeholder != "" && out.Draft == e.placeholder &&
		g.StyleAt(2, p) == c.editorCursor && g.Styled(p, 3, g.Width(), c.editorHint) && c.lastBlockEnd(g, out.Region.Top-1) >= 0 {
		defer func() {
			if out.ScreenState == contract.ScreenBlocked {
				out.Composer, out.Draft, out.DraftLen = contract.ComposerEmpty, "", 0
			}
		}()
	}
	if y := out.Region.Top - 1; c.notLoggedIn(g, y) {
		recognizers.BlockComposer(out, recognizers.Block{Reason: recognizers.BlockedLogin, Row: y})
		return
	}
	end := c.lastBlockEnd(g, out.Region.Top-1)
	top := end
	for top >= 0 && !g.Blank(top) && g.First(top) == e.indent {
		top--
	}
	if top < 0 || g.Blank(top) || g.First(top) != 0 || g.Rune(0, top) != e.bullet || !g.SpaceAt(1, top) ||
		!g.HasAt(top, e.indent, e.prefix) {
		return
	}
	rows := make([]string, 0, end-top+1)
	for y := top; y <= end; y++ {
		if !g.StyledLinked(y, e.style) {
			return // not in the error colour: text that reads like an error
		}
		rows = append(rows, g.TextFrom(y, e.indent))
	}
	if b, found := recognizers.MatchShapes(e.shapes, strings.Join(rows, " ")); found {
		b.Row = top
		recognizers.BlockComposer(out, b)
		return
	}
	out.ScreenState = contract.ScreenUnknown
	out.Clear = nil
	out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteUnknownAPIError, "row "+strconv.Itoa(top)))
}

// lastBlockEnd is the last row of the transcript's last block at or
// above y: past blank rows, right-aligned notices (the effort chip) and
// the finished line ("✻ Churned for 0s · done 5:40 AM", in the hint
// colour).
func (c *claude21) lastBlockEnd(g *recognizers.Grid, y int) int {
	done := false
	for ; y >= 0; y-- {
		switch {
		case g.Blank(y) || g.First(y) >= g.Width()/3:
		case !done && strings.ContainsRune(c.spinnerGlyphs, g.Rune(0, y)) && g.SpaceAt(1, y) && g.StyleAt(0, y) == c.hint:
			done = true
		default:
			return y
		}
	}
	return -1
}
