package screen

import (
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
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
	{role: recognizers.RoleApprove, label: "Allow"},
	{role: recognizers.RolePersistent, label: "Allow for this session"},
	{role: recognizers.RolePersistent, label: "Always allow"},
	{role: recognizers.RoleCancel, label: "Cancel"},
}

// isForm reports a form's progress row on y: "Field N/M" in dim at
// column 2, on a version whose recordings show the form.
func (c *codex0x) isForm(g *recognizers.Grid, y int) bool {
	defer g.Enter("codex0x.isForm")()
	x := 2 + len(codexFormField)
	return codexPermsOf[c].elicitation && g.First(y) == 2 && g.HasAt(y, 2, codexFormField) &&
		g.Styled(y, 2, g.Width(), c.dim) && g.Rune(x, y) >= '1' && g.Rune(x, y) <= '9'
}

// isToolAsk reports the tool approval's question.
func isToolAsk(q string) bool {
	rest, ok := strings.CutPrefix(q, codexToolAsk)
	return ok && strings.Contains(rest, codexToolServer) && strings.HasSuffix(rest, codexToolEnd)
}

// elicitation parses the form whose progress row is t.
func (c *codex0x) elicitation(g *recognizers.Grid, t, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.elicitation")()
	out.ScreenState = contract.ScreenAwaitingApproval
	pr := &recognizers.Prompt{Kind: contract.KindPermission, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	ask := g.Trimmed(t + 1)
	if !g.RowIs(t, 2, codexFormField+"1/1") || g.First(t+1) != 2 || !isToolAsk(ask) || !g.Styled(t+1, 2, g.Width(), recognizers.Plain().Style()) {
		out.ScreenState, pr.Kind = contract.ScreenQuestionnaire, contract.KindQuestionnaire
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonUnsupportedShape, "form on row "+strconv.Itoa(t)))
		return
	}
	pr.Tool = contract.ToolMCP
	y := t + 2
	for y <= b {
		if _, _, ok := c.qMenu.OptionAt(g, y); ok {
			break
		}
		y++
	}
	opts, glyphs, end := c.menu(g, c.qMenu, y, b, true)
	pr.Questions = []recognizers.Question{{Prompt: ask, Options: opts}}
	if len(opts) == 0 || !g.Blank(y-1) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no options"))
		return
	}
	f := end + 1
	switch {
	case !g.RowIs(f, 2, codexFormFooter):
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
	out.Region = recognizers.Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
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
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, strconv.Itoa(len(opts))+" rows"))
	case h > 0:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonHighlightMoved, "row "+strconv.Itoa(opts[h].Row)))
	}
	out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonApprovalScopeUnproven, ""))
}
