package screen

import (
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// claudeStatus is the Status tab of Claude Code's settings panel, which
// /status opens in the composer's place (recordings status and
// status-policy-error; recordings/rig/inspect_claude.go), drawn under
// the history to the screen's last non-blank row:
//
//	▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔  a full-width rule in the highlight colour
//	   Settings  Status   Config   Usage   Stats
//
//	   Version:                    2.1.267
//	   …                                          the rows (recognizers.StatusLayout)
//
//	   Esc to cancel                              the hint
//
// "Settings" in the dialog header's style from column x, then each tab
// as " Name " one column apart, the selected one (Status) in colour 16 on
// 153 bold, the others plain. The frame (the rule, that tabs row, the
// hint at column x with a blank row above it, every row between at column
// x or right of it) reads as menu_or_viewer with the composer absent;
// Recognition.Status is set only when the rows parse too. Its styles are
// the dark theme's (the only one recorded): in another theme the panel
// does not match and stays unknown.
type claudeStatus struct {
	x         int // the tabs', names' and hint's column
	hint      string
	hintStyle vt.Style
	layout    recognizers.StatusLayout
}

// The tabs row as drawn with the Status tab selected: its text, and the
// columns (from x) of the selected tab " Status ".
const (
	claudeStatusTabs      = "Settings  Status   Config   Usage   Stats"
	claudeStatusSelFrom   = 9
	claudeStatusSelTo     = 17
	claudeStatusTitleCols = 8 // "Settings"
	// claudeStatusUnnamed is Session name's grey value while the session
	// has none.
	claudeStatusUnnamed = "/rename to add a name"
)

var (
	claudeStatusRule = recognizers.Fg256(153).Style()
	claudeStatusTab  = recognizers.Fg256(16).Bg256(153).Bold().Style()
)

// claudeStatusRows are the rows both recorded versions show, in their
// order: the group above the blank row, then Model's. Values carried as
// drawn but for:
//   - Auth token and API key: only the values recorded ("none", and the
//     name of the variable the key comes from, "ANTHROPIC_API_KEY");
//     anything else may be the credential itself and is withheld;
//   - Anthropic base URL and Proxy: only a bare origin
//     (http://127.0.0.1:<port> recorded): a URL with user information,
//     a path or a query may carry a credential;
//   - Organization policy: always withheld (issue 22: the row is allowed,
//     its value not relayed; offline it is a long fetch error, wrapped).
//
// Proxy is shown only when a proxy is set (status-policy-error); Claude
// Code 2.1.267 leaves out "Managed settings (remote)" when the policy
// fetch failed (status-policy-error), 2.1.332 does not.
func claudeStatusRows(managedOptional bool) []recognizers.StatusRow {
	return []recognizers.StatusRow{
		{Name: "Version"},
		{Name: "Session name", Placeholder: claudeStatusUnnamed},
		{Name: "Session ID"},
		{Name: "Session kind"},
		{Name: "Peer address", Path: true},
		{Name: "cwd", Path: true},
		{Name: "Auth token", Carry: recognizers.CarryOneOf("none")},
		{Name: "API key", Carry: recognizers.CarryOneOf("ANTHROPIC_API_KEY")},
		{Name: "Anthropic base URL", Carry: recognizers.CarryOrigin},
		{Name: "Proxy", Optional: true, Carry: recognizers.CarryOrigin},
		{Name: "Model", Group: 1},
		{Name: "Setting sources", Group: 1},
		{Name: "Managed settings (remote)", Group: 1, Optional: managedOptional},
		{Name: "Organization policy", Group: 1, Wraps: true, Carry: recognizers.CarryNever},
	}
}

// claudeStatusLayout: names bold from column x, values plain (an unnamed
// session's placeholder grey) two columns past the longest name's colon.
func claudeStatusLayout(x int, rows []recognizers.StatusRow) recognizers.StatusLayout {
	return recognizers.StatusLayout{Rows: rows, NameX: x, Gap: 2, Name: recognizers.Plain().Bold().Style(),
		Values: []vt.Style{recognizers.Plain().Style()}, Placeholder: recognizers.Fg256(246).Style()}
}

// statusPanel proves the panel ending on row b, the screen's last
// non-blank row.
func (c *claude21) statusPanel(g *recognizers.Grid, b int, out *recognizers.Recognition) bool {
	defer g.Enter("claude21.statusPanel")()
	s := c.status
	if s == nil || g.First(b) != s.x || g.Last(b) != s.x+recognizers.DisplayWidth(s.hint)-1 {
		return false // untraced: --explain shows nothing of a screen without the hint
	}
	if hint, _, _ := g.TextAt(b, s.x, s.hint); !hint || !g.Styled(b, s.x, g.Width(), s.hintStyle) || !g.Blank(b-1) {
		return false
	}
	top := b - 2
	for ; top >= 0 && top >= b-recognizers.MaxStatusRows && (g.Blank(top) || g.First(top) >= s.x); top-- {
	}
	if full, _ := g.Rule(top, '▔', claudeStatusRule); !full || !s.tabs(g, top+1) || !g.Blank(top+2) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	// Claude wraps a value at the pane's width less x.
	out.Status = s.layout.Parse(g, top+3, b-1, 0, g.Width(), g.Width()-s.x)
	return true
}

// tabs proves the tabs row on row y with the Status tab selected.
func (s *claudeStatus) tabs(g *recognizers.Grid, y int) bool {
	defer g.Enter("claudeStatus.tabs")()
	x := s.x
	if !g.RowIs(y, x, claudeStatusTabs) || !g.Styled(y, x, x+claudeStatusTitleCols, claudePickerTitleStyle) ||
		!g.Styled(y, x+claudeStatusTitleCols, x+claudeStatusSelFrom, recognizers.Plain().Style()) ||
		!g.Styled(y, x+claudeStatusSelTo, g.Width(), recognizers.Plain().Style()) {
		return false
	}
	for i := x + claudeStatusSelFrom; i < x+claudeStatusSelTo; i++ {
		if g.StyleAt(i, y) != claudeStatusTab {
			return false
		}
	}
	return true
}
