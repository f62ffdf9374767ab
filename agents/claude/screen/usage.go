package screen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Claude Code's subscription usage-limit screen (issue 20; recordings
// usage-limit and usage-limit-hour on 2.1.267 and 2.1.332, made with a
// fake CLAUDE_CODE_OAUTH_TOKEN: with an API key the same 429 is "API
// Error: Request rejected (429)"). It prints when the limit resets and
// that Claude continues by itself then. At 120 columns, one line each:
//
// 2.1.267, under the prompt:
//
//	  ⎿  You've hit your session limit · resets 9:36pm (UTC)     (⎿ grey, text 211)
//	     Continuing automatically at 9:36pm · esc to cancel     (grey)
//
//	● Usage limit reached · continuing automatically at 9:36pm · esc or type to cancel  (grey)
//
// then the finished line, the empty composer, and between its lower rule
// and its footer "  ⚠ Usage limit reached · continuing automatically at
// 9:36pm · esc to cancel" (231).
//
// 2.1.332:
//
//	  ⎿  You've hit your 5-hour limit · resets 9:36pm (UTC)
//
//	● Usage limit reached · set to continue automatically at 9:36pm
//
// then the empty composer, and between its lower rule and its footer
// "  ⚠ Usage limit reached · limit resets 9:36pm" and "    Continuing
// automatically at 9:36pm · Esc to cancel" (231).
//
// A reset on the whole hour drops the minutes ("10pm"). The screen is
// blocked usage_limit with the reset time as printed ("9:36pm (UTC)")
// and AutoContinue: a send there is typing, and typing cancels the
// automatic continuation ("esc or type to cancel"), so it is not a
// resumable block; nothing is offered. Only these rows, texts and styles
// are read: a transcript changed under the notices is Unknown
// (api_error_unknown_shape), and so is a transcript ending in "● Usage
// limit reached" above a plain composer (no notices: not recorded),
// never idle.

// usageRow is one row of the usage-limit screen: at column x the text
// before, the reset time, after. The first lead cells are in leadStyle,
// the rest in style. zone: the time is followed by " (<time zone>)".
type usageRow struct {
	x             int
	before, after string
	lead          int
	leadStyle     vt.Style
	style         vt.Style
	zone          bool
}

// slot reads row y as r: the text between before and after ("" when the
// row is not r).
func (r *usageRow) slot(g *recognizers.Grid, y int) string {
	if g.Blank(y) || g.First(y) != r.x {
		return ""
	}
	text := g.TextFrom(y, r.x)
	if !strings.HasPrefix(text, r.before) || !strings.HasSuffix(text, r.after) ||
		len(text) <= len(r.before)+len(r.after) {
		return ""
	}
	if !g.Styled(y, 0, r.x+r.lead, r.leadStyle) || !g.Styled(y, r.x+r.lead, g.Width(), r.style) {
		return ""
	}
	return text[len(r.before) : len(text)-len(r.after)]
}

// claudeUsageLimit is what a profile knows of the usage-limit screen.
type claudeUsageLimit struct {
	// transcript are the transcript's last rows, top to bottom, the last
	// one the transcript's last block (lastBlockEnd); nil entries are
	// blank rows. The first row is the block's Row.
	transcript []*usageRow
	// notices are the rows between the composer's lower rule and the
	// footer, top to bottom.
	notices []usageRow
	// reached is how the last transcript row starts ("● Usage limit
	// reached"), in the hint colour: the guard under a plain composer.
	reached string
}

var (
	claudeUsageLimit2_1_267 = claudeUsageLimit{
		transcript: []*usageRow{
			{x: 2, before: "⎿  You've hit your session limit · resets ", lead: 3, leadStyle: recognizers.Fg256(246).Style(), style: recognizers.Fg256(211).Style(), zone: true},
			{x: 5, before: "Continuing automatically at ", after: " · esc to cancel", style: recognizers.Fg256(246).Style()},
			nil,
			{x: 0, before: "● Usage limit reached · continuing automatically at ", after: " · esc or type to cancel", style: recognizers.Fg256(246).Style()},
		},
		notices: []usageRow{
			{x: 2, before: "⚠ Usage limit reached · continuing automatically at ", after: " · esc to cancel", style: recognizers.Fg256(231).Style()},
		},
		reached: "● Usage limit reached",
	}
	claudeUsageLimit2_1_332 = claudeUsageLimit{
		transcript: []*usageRow{
			{x: 2, before: "⎿  You've hit your 5-hour limit · resets ", lead: 3, leadStyle: recognizers.Fg256(246).Style(), style: recognizers.Fg256(211).Style(), zone: true},
			nil,
			{x: 0, before: "● Usage limit reached · set to continue automatically at ", style: recognizers.Fg256(246).Style()},
		},
		notices: []usageRow{
			{x: 2, before: "⚠ Usage limit reached · limit resets ", style: recognizers.Fg256(231).Style()},
			{x: 4, before: "Continuing automatically at ", after: " · Esc to cancel", style: recognizers.Fg256(231).Style()},
		},
		reached: "● Usage limit reached",
	}
)

// claudeUsageLimitsOf are the profiles whose usage-limit screen is
// recorded.
var claudeUsageLimitsOf = map[*claude21]*claudeUsageLimit{
	&claude2_1_267: &claudeUsageLimit2_1_267,
	&claude2_1_332: &claudeUsageLimit2_1_332,
}

// usageLimitsOf are the usage-limit screens c knows: its version's, or
// for the generic profile every recorded version's, newest first.
func (c *claude21) usageLimitsOf(out *recognizers.Recognition) []*claudeUsageLimit {
	if !out.Exact {
		return []*claudeUsageLimit{&claudeUsageLimit2_1_332, &claudeUsageLimit2_1_267}
	}
	if u := claudeUsageLimitsOf[c]; u != nil {
		return []*claudeUsageLimit{u}
	}
	return nil
}

// usageLimit reads the usage-limit screen of one of the versions c knows.
func (c *claude21) usageLimit(g *recognizers.Grid, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.usageLimit")()
	for _, u := range c.usageLimitsOf(out) {
		if c.usageLimitAs(g, u, out) {
			return true
		}
	}
	return false
}

// usageLimitAs reads the screen as u: the footer on the last row, the
// notice rows above it, the composer frame above them (empty), the
// transcript ending in the limit's rows. false when the notices or the
// frame are not there (out untouched); Unknown when they are and the
// transcript is not the limit's.
func (c *claude21) usageLimitAs(g *recognizers.Grid, u *claudeUsageLimit, out *recognizers.Recognition) bool {
	b := g.LastRow()
	if b < len(u.notices)+2 {
		return false
	}
	top := b - len(u.notices)
	var at []string
	for i := range u.notices {
		s := u.notices[i].slot(g, top+i)
		if s == "" {
			return false
		}
		at = append(at, s)
	}
	if interrupt, known := c.composerFooter(g, b); !known || interrupt {
		return false
	}
	// The frame from its rules to the row above the notices, read as the
	// composer reads it with that row for its footer (which it is not: its
	// verdict on the footer is dropped).
	saved := *out
	if !c.composer(g, top, out) || out.Composer != contract.ComposerEmpty || out.Stashed || out.DraftRestored ||
		out.Activity.Spinner || out.Activity.InterruptHint {
		*out = saved
		return false
	}
	out.Reasons = append(saved.Reasons[:len(saved.Reasons):len(saved.Reasons)], withoutCode(out.Reasons[len(saved.Reasons):], recognizers.NoteFooterUnknown)...)
	out.Region.Rows = b - out.Region.Top + 1
	out.ScreenState = contract.ScreenIdle
	blk, ok := u.read(c, g, out.Region.Top-1, at)
	if !ok {
		out.ScreenState = contract.ScreenUnknown
		out.Clear = nil
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteUnknownAPIError, "row "+strconv.Itoa(c.lastBlockEnd(g, out.Region.Top-1))))
		return true
	}
	recognizers.BlockComposer(out, blk)
	return true
}

// read reads the transcript ending at or above y as u's rows; at are the
// notices' reset times, which every row's must equal.
func (u *claudeUsageLimit) read(c *claude21, g *recognizers.Grid, y int, at []string) (recognizers.Block, bool) {
	end := c.lastBlockEnd(g, y)
	top := end - len(u.transcript) + 1
	if end < 0 || top < 0 {
		return recognizers.Block{}, false
	}
	var zone string
	for i, r := range u.transcript {
		row := top + i
		if r == nil {
			if !g.Blank(row) {
				return recognizers.Block{}, false
			}
			continue
		}
		s := r.slot(g, row)
		if r.zone {
			var ok bool
			if s, zone, ok = splitZone(s); !ok {
				return recognizers.Block{}, false
			}
		}
		if s == "" {
			return recognizers.Block{}, false
		}
		at = append(at, s)
	}
	t := at[0]
	for _, s := range at {
		if s != t {
			return recognizers.Block{}, false
		}
	}
	return recognizers.Block{Reason: recognizers.BlockedUsageLimit, ResetsAt: claudeResetShown(t, zone), AutoContinue: true, Row: top}, true
}

// usageLimitUnread is the guard for an idle composer screen whose
// transcript ends in the limit's last row without the notice rows under
// the composer (not recorded): Unknown, never idle.
func (c *claude21) usageLimitUnread(g *recognizers.Grid, out *recognizers.Recognition) bool {
	end := c.lastBlockEnd(g, out.Region.Top-1)
	if end < 0 || g.First(end) != 0 || g.StyleAt(0, end) != c.hint ||
		!slices.ContainsFunc(c.usageLimitsOf(out), func(u *claudeUsageLimit) bool { return g.HasAt(end, 0, u.reached) }) {
		return false
	}
	out.ScreenState = contract.ScreenUnknown
	out.Clear = nil
	out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.NoteUnknownAPIError, "row "+strconv.Itoa(end)))
	return true
}

// splitZone splits "9:36pm (UTC)" into the time and the zone's name.
func splitZone(s string) (t, zone string, ok bool) {
	i := strings.LastIndex(s, " (")
	if i <= 0 || !strings.HasSuffix(s, ")") || i+2 >= len(s)-1 {
		return "", "", false
	}
	return s[:i], s[i+2 : len(s)-1], true
}

// claudeResetShown is the reset time as akk reports it ("9:36pm (UTC)")
// when t and zone are of the forms Claude Code's recordings print: a
// 12-hour clock "9:36pm" or, on the whole hour, "10pm"; the zone an IANA
// name (Intl's resolvedOptions().timeZone: "UTC", "Europe/Berlin").
// Any other form (a reset more than a day away prints a date, "Dec 3,
// 9:36pm") is "": the screen is still the limit, its time unread.
func claudeResetShown(t, zone string) string {
	if !claudeClock(t) || !ianaZone(zone) {
		return ""
	}
	return t + " (" + zone + ")"
}

// claudeClock: "H:MMam", "H:MMpm", "Ham", "Hpm", H 1 to 12, MM 00 to 59.
func claudeClock(t string) bool {
	t, ok := strings.CutSuffix(t, "am")
	if !ok {
		if t, ok = strings.CutSuffix(t, "pm"); !ok {
			return false
		}
	}
	h, m, hasMin := strings.Cut(t, ":")
	switch {
	case len(h) == 1 && h[0] >= '1' && h[0] <= '9':
	case len(h) == 2 && h[0] == '1' && h[1] >= '0' && h[1] <= '2':
	default:
		return false
	}
	return !hasMin || len(m) == 2 && m[0] >= '0' && m[0] <= '5' && m[1] >= '0' && m[1] <= '9'
}

// ianaZone: a time zone name as Intl prints it: parts of letters, digits,
// '_', '-' and '+' joined by '/', each starting with a letter.
func ianaZone(z string) bool {
	if z == "" || len(z) > 64 {
		return false
	}
	for _, part := range strings.Split(z, "/") {
		if part == "" || !(part[0] >= 'A' && part[0] <= 'Z' || part[0] >= 'a' && part[0] <= 'z') {
			return false
		}
		for i := 0; i < len(part); i++ {
			switch ch := part[i]; {
			case ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '_', ch == '-', ch == '+':
			default:
				return false
			}
		}
	}
	return true
}

// withoutCode is rs without the reasons of code.
func withoutCode(rs []recognizers.Reason, code string) []recognizers.Reason {
	var out []recognizers.Reason
	for _, r := range rs {
		if r.Code != code {
			out = append(out, r)
		}
	}
	return out
}
