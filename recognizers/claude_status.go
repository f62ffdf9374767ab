package recognizers

import (
	"github.com/agent-knock-knock/akk/contract"
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
//	   …                                          the rows (statusLayout)
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
	layout    statusLayout
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
	claudeStatusRule = fg256(153).vt()
	claudeStatusTab  = fg256(16).bg256(153).bold().vt()
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
func claudeStatusRows(managedOptional bool) []statusRow {
	return []statusRow{
		{name: "Version"},
		{name: "Session name", placeholder: claudeStatusUnnamed},
		{name: "Session ID"},
		{name: "Session kind"},
		{name: "Peer address", path: true},
		{name: "cwd", path: true},
		{name: "Auth token", carry: carryOneOf("none")},
		{name: "API key", carry: carryOneOf("ANTHROPIC_API_KEY")},
		{name: "Anthropic base URL", carry: carryOrigin},
		{name: "Proxy", optional: true, carry: carryOrigin},
		{name: "Model", group: 1},
		{name: "Setting sources", group: 1},
		{name: "Managed settings (remote)", group: 1, optional: managedOptional},
		{name: "Organization policy", group: 1, wraps: true, carry: carryNever},
	}
}

// claudeStatusLayout: names bold from column x, values plain (an unnamed
// session's placeholder grey) two columns past the longest name's colon.
func claudeStatusLayout(x int, rows []statusRow) statusLayout {
	return statusLayout{rows: rows, nameX: x, gap: 2, name: plain().bold().vt(),
		values: []vt.Style{plain().vt()}, placeholder: fg256(246).vt()}
}

// statusPanel proves the panel ending on row b, the screen's last
// non-blank row.
func (c *claude21) statusPanel(g *grid, b int, out *Recognition) bool {
	defer g.enter("claude21.statusPanel")()
	s := c.status
	if s == nil || g.first(b) != s.x || g.last(b) != s.x+displayWidth(s.hint)-1 {
		return false // untraced: --explain shows nothing of a screen without the hint
	}
	if hint, _, _ := g.textAt(b, s.x, s.hint); !hint || !g.styled(b, s.x, g.w, s.hintStyle) || !g.blank(b-1) {
		return false
	}
	top := b - 2
	for ; top >= 0 && top >= b-maxStatusRows && (g.blank(top) || g.first(top) >= s.x); top-- {
	}
	if full, _ := g.rule(top, '▔', claudeStatusRule); !full || !s.tabs(g, top+1) || !g.blank(top+2) {
		return false
	}
	out.ScreenState, out.Composer = contract.ScreenMenuOrViewer, contract.ComposerAbsent
	// Claude wraps a value at the pane's width less x.
	out.Status = s.layout.parse(g, top+3, b-1, 0, g.w, g.w-s.x)
	return true
}

// tabs proves the tabs row on row y with the Status tab selected.
func (s *claudeStatus) tabs(g *grid, y int) bool {
	defer g.enter("claudeStatus.tabs")()
	x := s.x
	if !g.rowIs(y, x, claudeStatusTabs) || !g.styled(y, x, x+claudeStatusTitleCols, claudePickerTitleStyle) ||
		!g.styled(y, x+claudeStatusTitleCols, x+claudeStatusSelFrom, plain().vt()) ||
		!g.styled(y, x+claudeStatusSelTo, g.w, plain().vt()) {
		return false
	}
	for i := x + claudeStatusSelFrom; i < x+claudeStatusSelTo; i++ {
		if g.style(i, y) != claudeStatusTab {
			return false
		}
	}
	return true
}
