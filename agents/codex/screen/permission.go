package screen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// A Codex approval overlay is known by its bold title. Each title has its
// own closed menus, every row a fact of the version's recordings: the
// one-time row the plan presses with its shortcut key, the persistent
// rows (never offered), rows no recording pressed (never offered), and
// the "(esc)" row. Esc cancels the request and aborts the turn (the
// rollout of permission-reject and apply-patch-reject: the tool output
// "aborted by user", then turn_aborted with reason "interrupted"): that
// is cancel, not a semantic reject (DESIGN.md invariant 9), so reject is
// never offered.

// codexDialog is one menu an overlay title shows.
type codexDialog struct {
	title string
	rows  []codexRow
}

// codexRow is a menu row: its role, its label (exact, or by prefix when
// it names the command), the shortcut drawn as " (k)" after the label,
// and whether the label may wrap onto continuation rows (it names a
// command of any length).
type codexRow struct {
	role   recognizers.Role
	label  string
	prefix bool
	key    string
	wraps  bool
}

func (r codexRow) matches(label string) bool {
	if r.prefix {
		return strings.HasPrefix(label, r.label)
	}
	return label == r.label
}

// codexPerms is what a version's recordings prove of its overlays.
type codexPerms struct {
	dialogs []codexDialog
	// wrapWidths are the pane widths at which a recording shows a row's
	// label wrapped (exec-long at 120 columns, exec-long-80 at 80,
	// permission-approve-w60 at 60): at
	// another width the wrap is not proven.
	wrapWidths []int
	// elicitation: the MCP tool approval form is recorded
	// (mcp-tool-approve); it is read, never answered (elicitation.go).
	elicitation bool
}

// The titles Codex draws over its approval menus.
const (
	codexExecTitle  = "Would you like to run the following command?"
	codexEditsTitle = "Would you like to make the following edits?"
	codexGrantTitle = "Would you like to grant these permissions?"
)

// codexTools: what each title asks for.
var codexTools = map[string]contract.Tool{codexExecTitle: contract.ToolShell, codexEditsTitle: contract.ToolEdit, codexGrantTitle: contract.ToolPermissions}

var (
	codexProceed  = codexRow{role: recognizers.RoleApprove, label: "Yes, proceed", key: "y"}
	codexTellEsc  = codexRow{role: recognizers.RoleCancel, label: "No, and tell Codex what to do differently", key: "esc"}
	codexDontAsk  = codexRow{role: recognizers.RolePersistent, label: "Yes, and don't ask again for commands that start with `", prefix: true, key: "p", wraps: true}
	codexExecMenu = codexDialog{title: codexExecTitle, rows: []codexRow{codexProceed, codexDontAsk, codexTellEsc}}
)

// codexDialogs0_155 are the overlays Codex 0.155.1 and 0.171.0 show
// alike: exec (and its multi-line form, which has no prefix rule to
// remember: exec-multiline), apply_patch's edits (apply-patch-approve:
// "y", then the patch applies; the rollout's FileChange item completes),
// and request_permissions' grant (network-approve: "y", and the tool
// output says "scope":"turn": the grant ends with the turn). Its "strict
// auto review" row hands later approvals to Codex's automatic reviewer,
// like an auto mode; its "No, continue without permissions" row is a
// semantic no that no recording pressed.
var codexDialogs0_155 = []codexDialog{
	codexExecMenu,
	{title: codexExecTitle, rows: []codexRow{codexProceed, codexTellEsc}},
	{title: codexEditsTitle, rows: []codexRow{codexProceed,
		{role: recognizers.RolePersistent, label: "Yes, and don't ask again for these files", key: "a"}, codexTellEsc}},
	{title: codexGrantTitle, rows: []codexRow{
		{role: recognizers.RoleApprove, label: "Yes, grant these permissions for this turn", key: "y"},
		{role: recognizers.RoleAutoMode, label: "Yes, grant for this turn with strict auto review", key: "r"},
		{role: recognizers.RolePersistent, label: "Yes, grant these permissions for this session", key: "a"},
		{role: recognizers.RoleReject, label: "No, continue without permissions", key: "d"}}},
}

// codexPermsOf: each version's overlays, as its recordings show them.
var codexPermsOf = map[*codex0x]codexPerms{
	&codex0_153_4: {dialogs: []codexDialog{codexExecMenu}},
	&codex0_154_0: {dialogs: []codexDialog{codexExecMenu}},
	&codex0_155_1: {dialogs: codexDialogs0_155, wrapWidths: []int{60, 80, 120}, elicitation: true},
	&codex0_171_0: {dialogs: codexDialogs0_155, wrapWidths: []int{60, 80, 120}, elicitation: true},
}

// permRow is what an option row holds besides its Option.
type permRow struct {
	glyph   bool
	key     string // the " (k)" shortcut after the label
	wrapped int    // continuation rows of its label
}

// permission parses the approval overlay titled on row t: the request
// (environment, reason, "$ command", a patch's description and
// destination), the menu after a blank row, and the footer padded in dim
// to the pane's last column.
func (c *codex0x) permission(g *recognizers.Grid, t, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.permission")()
	out.ScreenState = contract.ScreenAwaitingApproval
	title := g.Trimmed(t)
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	perms := codexPermsOf[c]
	known := slices.ContainsFunc(perms.dialogs, func(d codexDialog) bool { return d.title == title })
	switch {
	case strings.HasSuffix(title, c.verifySuffix):
		// Platform user verification needs the person at the terminal
		// (seed 000): blocked, never approvable.
		out.ScreenState = contract.ScreenBlocked
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUserVerification, ""))
	case !known:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "title on row "+strconv.Itoa(t)))
	default:
		pr.Tool = codexTools[title]
	}
	y := t + 1
	for y <= b {
		if _, _, ok := c.permMenu.OptionAt(g, y); ok {
			break
		}
		y++
	}
	opts, rows, end := c.permRows(g, y, b)
	pr.Questions = []recognizers.Question{{Prompt: title, Options: opts}}
	if len(opts) == 0 || y == t+1 || !g.Blank(y-1) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no request or no options"))
		return
	}
	f := end + 2
	c.footer(g, end, f, b, c.permFooter, true, out)
	out.Region = recognizers.Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	glyphs := make([]bool, len(rows))
	for i, r := range rows {
		glyphs[i] = r.glyph
	}
	h, rs := c.highlightProof(g, c.permMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	out.Reasons = append(out.Reasons, c.continuationLit(g, opts, rows)...)
	d, rs := perms.shape(g.Width(), title, opts, rows)
	out.Reasons = append(out.Reasons, rs...)
	if h > 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[h].Row)))
	}
	if d == nil || !known {
		return
	}
	// The one-time row is the first and current: its own key approves.
	pr.Decisions = []contract.Decision{contract.DecisionApproveOnce}
	out.Specs = []recognizers.ChoiceSpec{{Decision: contract.DecisionApproveOnce, Option: 0,
		Steps: []recognizers.PlanStep{{Keys: []byte(d.rows[0].key), Expect: recognizers.NewExpect(-1, contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAwaitingApproval, contract.ScreenQuestionnaire)}}}}
}

// permRows reads the option rows of the overlay's menu from y0, each
// followed by the continuation rows of its wrapped label (blank up to
// the label column, text at it): the label is its rows' text joined by
// single spaces, without the shortcut that ends it.
func (c *codex0x) permRows(g *recognizers.Grid, y0, b int) ([]recognizers.Option, []permRow, int) {
	defer g.Enter("codex0x.permRows")()
	var opts []recognizers.Option
	var rows []permRow
	lay := c.permMenu
	y := y0
	for ; y <= b; y++ {
		num, glyph, ok := lay.OptionAt(g, y)
		if !ok {
			break
		}
		o, r := recognizers.Option{Number: num, Row: y}, permRow{glyph: glyph}
		parts := []string{strings.TrimSpace(g.Text(y, lay.LabelX, g.Last(y)+1))}
		for y < b && lay.Continuation(g, y+1) {
			y++
			r.wrapped++
			parts = append(parts, strings.TrimSpace(g.Text(y, lay.LabelX, g.Last(y)+1)))
		}
		o.Label, r.key = recognizers.CutShortcut(strings.Join(parts, " "))
		opts, rows = append(opts, o), append(rows, r)
	}
	return opts, rows, y - 1
}

// continuationLit refuses a highlight style on the continuation rows of
// a row that is not current.
func (c *codex0x) continuationLit(g *recognizers.Grid, opts []recognizers.Option, rows []permRow) []recognizers.Reason {
	defer g.Enter("codex0x.continuationLit")()
	m := recognizers.NewStyleSet(c.rowLit)
	for i, r := range rows {
		for y := opts[i].Row + 1; y <= opts[i].Row+r.wrapped && !r.glyph; y++ {
			for x := 0; x <= g.Last(y); x++ {
				if cl := g.Cell(x, y); !g.BlankCell(cl) && g.InSet(&m, cl) {
					return []recognizers.Reason{recognizers.NewReason(recognizers.ReasonHighlightUnproven, "highlight style on continuation row "+strconv.Itoa(y))}
				}
			}
		}
	}
	return nil
}

// shape finds the title's menu the rows are, row by row (label, key and
// count), and gives rows their roles. A wrapped label is proven only on
// a row that may wrap, at a width a recording shows.
func (p *codexPerms) shape(w int, title string, opts []recognizers.Option, rows []permRow) (*codexDialog, []recognizers.Reason) {
	var out []recognizers.Reason
	var match *codexDialog
	for i := range p.dialogs {
		d := &p.dialogs[i]
		if d.title != title {
			continue
		}
		for j := range opts {
			if k := slices.IndexFunc(d.rows, func(r codexRow) bool { return r.matches(opts[j].Label) }); k >= 0 && opts[j].Role == recognizers.RoleChoice {
				opts[j].Role = d.rows[k].role
			}
		}
		if match == nil && d.fits(opts, rows) {
			match = d
		}
	}
	for i, r := range rows {
		if r.wrapped > 0 && (match == nil || !match.rows[i].wraps || !slices.Contains(p.wrapWidths, w)) {
			out = append(out, recognizers.NewReason(recognizers.ReasonWrappedLabel, "row "+strconv.Itoa(opts[i].Row+1)))
		}
	}
	if match != nil {
		return match, out
	}
	roles := make([]recognizers.Role, len(opts))
	for i := range opts {
		roles[i] = opts[i].Role
	}
	if slices.Contains(roles, recognizers.RolePersistent) && !slices.Contains(roles, recognizers.RoleApprove) {
		return nil, append(out, recognizers.NewReason(recognizers.ReasonPersistentOnly, ""))
	}
	return nil, append(out, recognizers.NewReason(recognizers.ReasonChangedMenuShape, strconv.Itoa(len(opts))+" rows"))
}

// fits reports whether the rows are exactly d's menu: each label and key.
func (d *codexDialog) fits(opts []recognizers.Option, rows []permRow) bool {
	if len(opts) != len(d.rows) {
		return false
	}
	for i, r := range d.rows {
		if !r.matches(opts[i].Label) || rows[i].key != r.key {
			return false
		}
	}
	return true
}
