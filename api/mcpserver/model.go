package mcpserver

import (
	"github.com/agent-knock-knock/akk/api"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addModelTools adds native model control (seed 003): the catalog, one
// exact tuple set from it, and Codex's cleanup of a failed attempt.
func (s *Server) addModelTools() {
	mcp.AddTool(s.srv, tool(ToolModelOptions, "Read the coding agent's own model menu (its /model): every model and "+
		"the reasoning efforts each offers, the one in use, and what set_model would change (scope). The menu is closed "+
		"again and nothing is set. Only when status advertises model_options (idle, empty composer, no managed Turn). "+
		"The catalog is your offer for one set_model within its expires_at.", terminalInput("The terminal whose agent's models to list."), nil),
		relay(s, (*api.Client).ModelOptions))
	mcp.AddTool(s.srv, tool(ToolSetModel, "Switch the coding agent's model and reasoning effort through its own "+
		"/model menu, when the user asks for it: exactly one model and one of its efforts from your latest model_options "+
		"(omit reasoning_effort for a model with none). Proven by the agent's own notice, which also says how long the choice "+
		"holds (this session only, or new sessions too: the agent's config). An uncertain result is never retried: call model_options again.",
		setModelInput(), acting()),
		relay(s, (*api.Client).SetModel))
	mcp.AddTool(s.srv, tool(ToolRepairModel, "Clean up what a failed model change left (the agent's /model "+
		"popup open, or a bare /model in the composer) with Esc or C-u, never Enter. Only when status advertises "+
		"repair_model_control. Then refresh status and call model_options again.", terminalInput("The terminal to clean up."), acting()),
		relay(s, (*api.Client).RepairModelControl))
}

func setModelInput() *jsonschema.Schema {
	return closed("The terminal, and one model with one of its efforts exactly as model_options listed them.", map[string]*jsonschema.Schema{
		"terminal_id":      id(prefixTerminal, descTerminal),
		"model":            catalogName("The model, exactly as model_options listed it.", 80),
		"reasoning_effort": catalogName("One of that model's efforts as listed; omit for a model with none.", 40),
	}, "terminal_id", "model")
}

// catalogName is a name from a model catalog: letters, digits, spaces
// and the punctuation the agents' menus use, never free text.
func catalogName(desc string, n int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc, Pattern: `^[A-Za-z0-9][A-Za-z0-9 ()._+-]*$`, MinLength: ptr(1), MaxLength: ptr(n)}
}
