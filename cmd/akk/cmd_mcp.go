package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/api/mcpserver"
)

// MCPCmd is `akk mcp`: the agent_knock_knock tools for an MCP host, as a
// client of the running daemon.
type MCPCmd struct {
	DaemonFlags
	HTTP       string `help:"Serve streamable HTTP on this loopback address (127.0.0.1:PORT) instead of stdio." placeholder:"ADDR"`
	Controller string `help:"Name this host (from its own MCP server config, never from a model): every akk mcp process with the same name owns the same Turns and Watches (mcp:NAME), so they survive the host restarting its MCP server. 1-64 of a-z 0-9 . _ -" placeholder:"NAME"`
}

// Validate refuses a non-loopback address before anything listens: the
// tools act with the local user's authority.
func (c *MCPCmd) Validate() error {
	if c.Controller != "" && !api.ValidOwnerName(c.Controller) {
		return fmt.Errorf("--controller %q: 1 to 64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit", c.Controller)
	}
	if c.HTTP == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(c.HTTP)
	if err != nil {
		return fmt.Errorf("--http %q: %w", c.HTTP, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--http %q: only a loopback address (127.0.0.1, ::1, localhost)", c.HTTP)
	}
	return nil
}

// Run serves until the host hangs up (stdio) or SIGINT/SIGTERM.
func (c *MCPCmd) Run(ctx context.Context, lg *slog.Logger, kctx *kong.Context) error {
	srv := mcpserver.New(mcpserver.Options{Socket: c.socket(), Logger: lg, Owner: c.Controller})
	if c.HTTP == "" {
		return srv.RunStdio(ctx)
	}
	ln, err := net.Listen("tcp", c.HTTP)
	if err != nil {
		return fmt.Errorf("akk mcp: %w", err)
	}
	fmt.Fprintf(kctx.Stderr, "akk mcp: serving streamable HTTP on http://%s\n", ln.Addr())
	return srv.ServeHTTP(ctx, ln)
}
