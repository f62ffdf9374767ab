package recognizers

import "strings"

// ModelMenuKind says which of an agent's model menus a screen shows.
type ModelMenuKind string

// The model menus (recordings model-menu, model-abandon, model-catalog,
// model-session; recordings/rig/inspect_*.go).
const (
	// ModelList is the model list /model opens: Claude's picker (with
	// its effort row), Codex's "Select Model and Effort".
	ModelList ModelMenuKind = "models"
	// EffortList is Codex's second popup, "Select Reasoning Level for
	// <model>", which Enter on a model opens.
	EffortList ModelMenuKind = "efforts"
	// SwitchConfirm is Claude's "Switch model?" in a conversation that
	// has turns, after the picker's Enter.
	SwitchConfirm ModelMenuKind = "confirm"
)

// ModelMenu is one of the agent's model menus as drawn.
type ModelMenu struct {
	Kind ModelMenuKind
	// For is the model an EffortList is for, as its title names it.
	For string
	// Rows are the menu's entries top to bottom as drawn (a scrolled
	// Codex list: the visible ones); Highlight indexes the one Enter
	// acts on.
	Rows      []ModelRow
	Highlight int
	// Effort is Claude's effort row: the level as drawn ("High",
	// "Medium"), EffortDefault when marked "(default)"; "" when the row
	// says the model has none.
	Effort        string
	EffortDefault bool
	// Above and Below: Codex draws "↑" / "↓" where the list scrolls.
	Above, Below bool
	// Session: the hints offer "s" (this session only).
	Session bool
}

// ModelRow is one entry of a model menu.
type ModelRow struct {
	Number int    // as drawn; 0 for an unnumbered row
	Label  string // without its marks ("(current)", "(default)", "✔")
	// Current marks the model in use ("✔", "(current)"); Default the
	// agent's default ("(default)").
	Current, Default bool
	Desc             string // the description, wrapped rows joined with a space
}

// cutMark removes mark from the end of label and says whether it was
// there.
func cutMark(label, mark string) (string, bool) {
	s, ok := strings.CutSuffix(label, mark)
	return strings.TrimRight(s, " "), ok
}

// The model notices: what the agent prints into its history when /model
// ends (recordings model-menu, model-session, model-abandon).
const (
	claudeNoticeCmd  = "❯ /model"
	claudeNoticeMark = "  ⎿  "
	codexNoticeMark  = "• "
	codexNoticeText  = "Model changed to "
	// maxNoticeGap bounds the rows between the composer and the notice
	// (Claude draws its history at the top of an otherwise blank screen).
	maxNoticeGap = 48
)

// The notices are read with untraced cell reads: --explain of an idle
// screen shows no check of them.

// claudeNotice reads, over the composer whose upper rule is row top, the
// last history rows when they are "❯ /model" and its "⎿  " result; the
// right-aligned effort line right above the rule is skipped.
func claudeNotice(g *grid, top int) string {
	y := top - 1
	if !g.blank(y) && g.first(y) > g.w/2 {
		y--
	}
	for ; y > 0 && y > top-maxNoticeGap && g.blank(y); y-- {
	}
	if y < 1 || g.text(y, 0, displayWidth(claudeNoticeMark)) != claudeNoticeMark || g.trimmed(y-1) != claudeNoticeCmd || g.first(y-1) != 0 {
		return ""
	}
	return g.textFrom(y, displayWidth(claudeNoticeMark))
}

// codexNotice reads the last history row over the composer at row top
// when it is "• Model changed to …".
func codexNotice(g *grid, top int) string {
	y := top - 1
	for ; y >= 0 && y > top-maxNoticeGap && g.blank(y); y-- {
	}
	if y < 0 || g.first(y) != 0 || !strings.HasPrefix(g.textFrom(y, 0), codexNoticeMark+codexNoticeText) {
		return ""
	}
	return g.textFrom(y, 2)
}
