package recognizers

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
)

// An MCP elicitation form: Codex asks before it calls an MCP server's
// tool with a one-field form (mcp-tool-approve): "Field 1/1" in dim, the
// question, the tool's arguments, a menu with descriptions ("Allow",
// "Allow for this session", "Always allow", "Cancel") and the footer
// "enter to submit | esc to cancel". It is read and never answered: the
// recordings approve it with Enter on "Allow", and the rollout then holds
// only the completed McpToolCall item, the same record a session grant
// makes, so no recording proves that Enter allowed once
// (ReasonApprovalScopeUnproven). Other forms (other fields, other
// questions) are not tool approvals: manual, unsupported.

const (
	codexFormField  = "Field "
	codexFormFooter = "enter to submit | esc to cancel"
	codexToolAsk    = "Allow the "
	codexToolServer = " MCP server to run tool \""
	codexToolEnd    = "\"?"
)

// codexToolRows is the tool approval form's menu.
var codexToolRows = []codexRow{
	{role: RoleApprove, label: "Allow"},
	{role: RolePersistent, label: "Allow for this session"},
	{role: RolePersistent, label: "Always allow"},
	{role: RoleCancel, label: "Cancel"},
}

// isForm reports a form's progress row on y: "Field N/M" in dim at
// column 2, on a version whose recordings show the form.
func (c *codex0x) isForm(g *grid, y int) bool {
	defer g.enter("codex0x.isForm")()
	x := 2 + len(codexFormField)
	return codexPermsOf[c].elicitation && g.first(y) == 2 && g.hasAt(y, 2, codexFormField) &&
		g.styled(y, 2, g.w, c.dim) && g.ch(x, y) >= '1' && g.ch(x, y) <= '9'
}

// isToolAsk reports the tool approval's question.
func isToolAsk(q string) bool {
	rest, ok := strings.CutPrefix(q, codexToolAsk)
	return ok && strings.Contains(rest, codexToolServer) && strings.HasSuffix(rest, codexToolEnd)
}

// elicitation parses the form whose progress row is t.
func (c *codex0x) elicitation(g *grid, t, b int, out *Recognition) {
	defer g.enter("codex0x.elicitation")()
	out.ScreenState = contract.ScreenAwaitingApproval
	pr := &Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = Region{Top: t, Rows: b - t + 1}
	ask := g.trimmed(t + 1)
	if !g.rowIs(t, 2, codexFormField+"1/1") || g.first(t+1) != 2 || !isToolAsk(ask) || !g.styled(t+1, 2, g.w, plain().vt()) {
		out.ScreenState, pr.Kind = contract.ScreenQuestionnaire, contract.KindQuestionnaire
		out.Reasons = append(out.Reasons, reason(ReasonUnsupportedShape, "form on row "+itoa(t)))
		return
	}
	pr.Tool = contract.ToolMCP
	y := t + 2
	for y <= b {
		if _, _, ok := c.qMenu.option(g, y); ok {
			break
		}
		y++
	}
	opts, glyphs, end := c.menu(g, c.qMenu, y, b, true)
	pr.Questions = []Question{{Prompt: ask, Options: opts}}
	if len(opts) == 0 || !g.blank(y-1) {
		out.Reasons = append(out.Reasons, reason(ReasonChangedMenuShape, "no options"))
		return
	}
	f := end + 1
	switch {
	case !g.rowIs(f, 2, codexFormFooter):
		out.Reasons = append(out.Reasons, reason(ReasonFooterMissing, "row "+itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, reason(ReasonContentBelow, "row "+itoa(f+1)))
	}
	out.Region = Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, checkNumbers(numbersOf(opts), rowsOf(opts))...)
	h, rs := c.highlightProof(g, c.qMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	exact := len(opts) == len(codexToolRows)
	for i := range opts {
		if i < len(codexToolRows) && codexToolRows[i].matches(opts[i].Label) {
			opts[i].Role = codexToolRows[i].role
		} else {
			exact = false
		}
	}
	switch {
	case !exact:
		out.Reasons = append(out.Reasons, reason(ReasonChangedMenuShape, itoa(len(opts))+" rows"))
	case h > 0:
		out.Reasons = append(out.Reasons, reason(ReasonHighlightMoved, "row "+itoa(opts[h].Row)))
	}
	out.Reasons = append(out.Reasons, reason(ReasonApprovalScopeUnproven, ""))
}
