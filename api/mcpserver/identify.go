package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
)

// Foreground identification of an ambiguous Codex pane (api/identify.go).
const (
	ToolIdentifyForeground = api.ToolIdentifyForeground
	ToolIdentifyAndSend    = api.ToolIdentifyAndSend
)

// addIdentifyTools adds identify_foreground and identify_and_send.
func (s *Server) addIdentifyTools() {
	mcp.AddTool(s.srv, tool(ToolIdentifyForeground, "Find out which conversation a terminal runs when akk cannot tell "+
		"(status shows native_identity_state ambiguous: a person's /new or /resume left several conversations open). "+
		"Only when status advertises identify_foreground: it types the agent's own /status once and returns a diagnostic "+
		"proof (the thread /status names, and whether it is one of the open conversations) that expires in 30 seconds. "+
		"The proof is no authority: no call accepts it, and it binds nothing; to send a task there, use "+
		ToolIdentifyAndSend+".", terminalInput("The ambiguous terminal to probe."), nil),
		relay(s, (*api.Client).IdentifyForeground))
	mcp.AddTool(s.srv, tool(ToolIdentifyAndSend, "Give a task to a terminal whose conversation akk cannot tell (status "+
		"advertises identify_and_send): akk types /status once and, while it still holds the terminal, sends the request "+
		"as an ordinary managed Turn. The Turn and the terminal take the conversation whose file records the request, and "+
		"only if it is the one /status named; otherwise the result is uncertain. Stops before the task when anything "+
		"changed. Send only what the user asked for; never retry a result with do_not_retry true.", identifySendInput(), acting()),
		handle(s, identifyAndSend))
}

func identifyAndSend(ctx context.Context, se *session, in api.IdentifyAndSendRequest) (any, error) {
	if r := checkText(in.Request, api.MaxRequestText); r != "" {
		return refused(api.OpIdentifyAndSend, r), nil
	}
	return se.client.IdentifyAndSend(ctx, in)
}

func identifySendInput() *jsonschema.Schema {
	return closed("The ambiguous terminal and the task.", map[string]*jsonschema.Schema{
		"terminal_id": id(prefixTerminal, descTerminal),
		"request": text("The task for the coding agent, as the user means it. Plain text; its first line must not start with '/' "+
			"(native slash commands are refused) and it may hold no control characters other than newline and tab.", api.MaxRequestText),
	}, "terminal_id", "request")
}
