// Command fakemcp is a tiny MCP server over stdio for the rig: the agents
// under recording (Claude Code, Codex) are configured with it so that a
// fake model can call an MCP tool and the agent shows its own approval
// for it. Its one tool, echo, returns its text; it touches nothing.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Value string `json:"text" jsonschema:"the text to echo back"`
}

type echoOut struct {
	Echo string `json:"echo"`
}

func main() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "fakemcp", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
			return nil, echoOut{Echo: in.Value}, nil
		})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fakemcp:", err)
		os.Exit(1)
	}
}
