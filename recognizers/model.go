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

// CutMark removes mark from the end of label and says whether it was
// there.
func CutMark(label, mark string) (string, bool) {
	s, ok := strings.CutSuffix(label, mark)
	return strings.TrimRight(s, " "), ok
}

// MaxNoticeGap bounds the rows between the composer and the notice /model
// printed last (Claude draws its history at the top of an otherwise blank
// screen).
const MaxNoticeGap = 48

// MaxModelRows bounds the rows of a model menu between its title and its
// hints.
const MaxModelRows = 40
