package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// A Claude permission dialog is known by its header (the tool's title).
// Each header has its own question and its own closed menu, every row a
// fact of the version's recordings: which row approves once, which grants
// for the session or for good (never offered), which rejects.

// permDialog is one tool's permission dialog.
type permDialog struct {
	header string
	tool   contract.Tool // the projection's name for what it asks (ToolEdit, ...)
	// The question is prefix + subject + suffix. A fixed question has no
	// subject; otherwise the subject (a file name) is drawn in bold.
	prefix, suffix string
	subject        bool
	rows           []dialogRow
	// footer: "Esc to cancel · Tab to amend" closes the dialog (Fetch has
	// no footer: its menu is the dialog's last row).
	footer bool
}

// dialogRow is a menu row's role and its label: exact, or by prefix when
// the label names a path, a host or a tool.
type dialogRow struct {
	role     recognizers.Role
	labels   []string
	prefixed bool
	// bold is the label's part drawn in bold, at its end ("(esc)"): the
	// row that closes a dialog without a footer is proven by its styles.
	bold string
}

func (r dialogRow) matches(label string) bool {
	if r.prefixed {
		return hasAnyPrefix(label, r.labels)
	}
	for _, l := range r.labels {
		if label == l {
			return true
		}
	}
	return false
}

// The rows the dialogs share. "No" is Claude's semantic reject row
// (seed 000 models "4. No" of the Bash dialog as reject; a rejected tool
// use is "User rejected tool use" in the transcript). A "No, and tell
// Claude what to do differently (esc)" row is the Esc path: cancel, never
// offered (DESIGN.md invariant 9).
var (
	rowYes      = dialogRow{role: recognizers.RoleApprove, labels: []string{"Yes"}}
	rowNo       = dialogRow{role: recognizers.RoleReject, labels: []string{"No"}}
	rowNoEsc    = dialogRow{role: recognizers.RoleCancel, labels: []string{"No, and tell Claude what to do differently (esc)"}, bold: "(esc)"}
	rowAccept   = dialogRow{role: recognizers.RolePersistent, labels: []string{"Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)"}}
	rowDontAsk  = dialogRow{role: recognizers.RolePersistent, labels: []string{"Yes, and don't ask again for ", "Yes, and don’t ask again for "}, prefixed: true}
	rowReadFrom = dialogRow{role: recognizers.RolePersistent, labels: []string{"Yes, allow reading from "}, prefixed: true}
)

// bashDialog is the dialog every 2.1 version shows for a shell command:
// one-time Yes, a persistent grant, auto mode, No.
func bashDialog(persistent []string, autoMode string) permDialog {
	return permDialog{
		header: "Bash command", tool: contract.ToolShell, prefix: "Do you want to proceed?", footer: true,
		rows: []dialogRow{rowYes, {role: recognizers.RolePersistent, labels: persistent, prefixed: true},
			{role: recognizers.RoleAutoMode, labels: []string{autoMode}}, rowNo},
	}
}

// toolDialogs are the dialogs of the tools other than Bash that Claude
// Code 2.1.267 and 2.1.332 show alike (recordings edit-*, write-*,
// notebook-edit-approve, webfetch-*, mcp-tool-approve, read-outside).
var toolDialogs = []permDialog{
	{header: "Edit file", tool: contract.ToolEdit, prefix: "Do you want to make this edit to ", suffix: "?", subject: true, footer: true,
		rows: []dialogRow{rowYes, rowAccept, rowNo}},
	{header: "Create file", tool: contract.ToolWrite, prefix: "Do you want to create ", suffix: "?", subject: true, footer: true,
		rows: []dialogRow{rowYes, rowAccept, rowNo}},
	{header: "Overwrite file", tool: contract.ToolWrite, prefix: "Do you want to overwrite ", suffix: "?", subject: true, footer: true,
		rows: []dialogRow{rowYes, rowAccept, rowNo}},
	{header: "Edit notebook", tool: contract.ToolNotebookEdit, prefix: "Do you want to make this edit to ", suffix: "?", subject: true, footer: true,
		rows: []dialogRow{rowYes, rowAccept, rowNo}},
	{header: "Fetch", tool: contract.ToolWebFetch, prefix: "Do you want to allow Claude to fetch this content?",
		rows: []dialogRow{rowYes, rowDontAsk, rowNoEsc}},
	{header: "Tool use", tool: contract.ToolMCP, prefix: "Do you want to proceed?", footer: true,
		rows: []dialogRow{rowYes, rowDontAsk, rowNo}},
	{header: "Read file", tool: contract.ToolRead, prefix: "Do you want to proceed?", footer: true,
		rows: []dialogRow{rowYes, rowReadFrom, rowNo}},
}

func (c *claude21) permDialog(header string) *permDialog {
	for i := range c.permDialogs {
		if c.permDialogs[i].header == header {
			return &c.permDialogs[i]
		}
	}
	return nil
}

// permQuestion reports whether row y is d's question: its text at column 1,
// plain but for the bold subject.
func (c *claude21) permQuestion(g *recognizers.Grid, y int, d *permDialog) (string, bool) {
	defer g.Enter("claude21.permQuestion")()
	if g.First(y) != 1 || !g.HasAt(y, 1, d.prefix) {
		return "", false
	}
	text := g.Trimmed(y)
	subject, ok := strings.CutSuffix(strings.TrimPrefix(text, d.prefix), d.suffix)
	if !ok || (subject != "") != d.subject || strings.TrimSpace(subject) != subject {
		return "", false
	}
	x0 := 1 + recognizers.DisplayWidth(d.prefix)
	x1 := x0 + recognizers.DisplayWidth(subject)
	if !g.Styled(y, 0, x0, recognizers.Plain().Style()) || !g.Styled(y, x1, g.Width(), recognizers.Plain().Style()) ||
		!g.Styled(y, x0, x1, recognizers.Plain().Bold().Style()) {
		return "", false
	}
	return text, true
}

// anyQuestion is the dialog whose question is on row y, for a header no
// dialog has (the menu is still read and shown, never actionable).
func (c *claude21) anyQuestion(g *recognizers.Grid, y int) (string, bool) {
	defer g.Enter("claude21.anyQuestion")()
	for i := range c.permDialogs {
		if q, ok := c.permQuestion(g, y, &c.permDialogs[i]); ok {
			return q, true
		}
	}
	return "", false
}

// permission parses a permission dialog whose rule is on row top.
func (c *claude21) permission(g *recognizers.Grid, top, b int, out *recognizers.Recognition) {
	defer g.Enter("claude21.permission")()
	out.ScreenState = contract.ScreenAwaitingApproval
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: top, Rows: b - top + 1}
	hdr := top + 1
	q := recognizers.Question{Header: g.Trimmed(hdr)}
	d := c.permDialog(q.Header)
	if !g.Styled(hdr, 1, g.Width(), c.permHeader) || d == nil {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "header on row "+strconv.Itoa(hdr)))
		d = nil
	} else {
		pr.Tool = d.tool
	}
	p := -1
	for y := hdr + 1; y <= b && p < 0; y++ {
		if _, _, ok := c.permMenu.OptionAt(g, y); ok {
			break
		}
		var ok bool
		if d != nil {
			q.Prompt, ok = c.permQuestion(g, y, d)
		} else {
			q.Prompt, ok = c.anyQuestion(g, y)
		}
		if ok {
			p = y
		}
	}
	if p < 0 || p == hdr+1 {
		q.Prompt = ""
		pr.Questions = []recognizers.Question{q}
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no question below a request"))
		return
	}
	opts, glyphs, end, wrapped := c.menu(g, c.permMenu, p+1, b, false)
	out.Reasons = append(out.Reasons, wrapped...)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	last := c.permEnd(g, d, opts, end, b, out)
	out.Region = recognizers.Region{Top: top, Rows: max(last, b) - top + 1}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	h, rs := c.highlightProof(g, c.permMenu, c.permMenu.LabelX, opts, glyphs, -1)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	if d != nil {
		out.Reasons = append(out.Reasons, c.permShape(d, opts)...)
	}
	if h > 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[h].Row)))
	}
	c.permChoices(pr, opts, out)
}

// permEnd checks what closes the menu ending on row end: the footer a
// blank row below it, or for a dialog without one, nothing. It returns
// the dialog's last row.
func (c *claude21) permEnd(g *recognizers.Grid, d *permDialog, opts []recognizers.Option, end, b int, out *recognizers.Recognition) int {
	defer g.Enter("claude21.permEnd")()
	f := end + 2
	switch {
	case len(opts) == 0:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no options"))
	case d != nil && !d.footer:
		if end < b {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(end+1)))
		}
		if last := opts[len(opts)-1]; len(opts) == len(d.rows) && !c.rowStyled(g, last, d.rows[len(opts)-1]) {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "row "+strconv.Itoa(last.Row)+" is not in its styles"))
		}
		return end
	case !g.Blank(end+1) || !g.RowIs(f, 1, c.permFooter) || !g.Styled(f, 1, g.Width(), c.hint):
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
	return f
}

// rowStyled reports whether option o's label is drawn as row r is: plain
// but for its bold end.
func (c *claude21) rowStyled(g *recognizers.Grid, o recognizers.Option, r dialogRow) bool {
	defer g.Enter("claude21.rowStyled")()
	x0 := c.permMenu.LabelX
	x1 := x0 + recognizers.DisplayWidth(o.Label) - recognizers.DisplayWidth(r.bold)
	return strings.HasSuffix(o.Label, r.bold) && g.Styled(o.Row, x0, x1, recognizers.Plain().Style()) &&
		g.Styled(o.Row, x1, x1+recognizers.DisplayWidth(r.bold), recognizers.Plain().Bold().Style()) && g.Last(o.Row) == x1+recognizers.DisplayWidth(r.bold)-1
}

// permChoices offers approve_once (the digit of the one-time row) and
// reject (the digit of the "No" row) where the shape has them. Only a
// proven shape reaches a plan: any reason above makes the interaction
// manual.
func (c *claude21) permChoices(pr *recognizers.Prompt, opts []recognizers.Option, out *recognizers.Recognition) {
	after := []contract.ScreenState{contract.ScreenWorking, contract.ScreenIdle, contract.ScreenBlocked, contract.ScreenAwaitingApproval, contract.ScreenQuestionnaire}
	for _, d := range []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject} {
		for i, o := range opts {
			if o.Number != i+1 || d == contract.DecisionApproveOnce && o.Role != recognizers.RoleApprove || d == contract.DecisionReject && o.Role != recognizers.RoleReject {
				continue
			}
			// A rejected tool stops the turn: "Interrupted · What should
			// Claude do instead?" above the composer.
			exp := recognizers.NewExpect(-1, after...)
			if d == contract.DecisionReject {
				exp = recognizers.NewExpect(-1, contract.ScreenIdle, contract.ScreenWorking, contract.ScreenBlocked)
			}
			pr.Decisions = append(pr.Decisions, d)
			out.Specs = append(out.Specs, recognizers.ChoiceSpec{Decision: d, Option: i, Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(o.Number), Expect: exp}}})
			break
		}
	}
}

// permShape proves the dialog's exact menu and gives every row its role.
func (c *claude21) permShape(d *permDialog, opts []recognizers.Option) []recognizers.Reason {
	var amend, persistent, approve bool
	exact := len(opts) == len(d.rows)
	for i := range opts {
		o := &opts[i]
		o.Role = recognizers.RoleChoice
		for _, r := range d.rows {
			if r.matches(o.Label) {
				o.Role = r.role
				break
			}
		}
		switch {
		case o.Label == c.amendLabel:
			o.Role, amend = recognizers.RoleApprove, true
		case o.Role == recognizers.RoleApprove:
			approve = true
		case o.Role == recognizers.RolePersistent:
			persistent = true
		}
		if i >= len(d.rows) || !d.rows[i].matches(o.Label) {
			exact = false
		}
	}
	switch {
	case exact && !approve:
		// Exit plan mode's only yes switches the session's mode.
		return []recognizers.Reason{recognizers.NewReason(recognizers.ReasonPersistentOnly, "")}
	case exact:
		return nil
	case amend:
		return []recognizers.Reason{recognizers.NewReason(recognizers.ReasonTabToAmend, "")}
	case persistent && !approve:
		return []recognizers.Reason{recognizers.NewReason(recognizers.ReasonPersistentOnly, "")}
	}
	return []recognizers.Reason{recognizers.NewReason(recognizers.ReasonChangedMenuShape, strconv.Itoa(len(opts))+" rows")}
}
