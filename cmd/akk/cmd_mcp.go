package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"path/filepath"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/api/mcpserver"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// MCPCmd is `akk mcp`: the agent_knock_knock tools for an MCP host, as a
// client of the running daemon. Over --http every request needs the
// daemon's bearer token (--print-token shows it) and must come from a
// process of the daemon's own uid, as the unix socket requires.
type MCPCmd struct {
	DaemonFlags
	HTTP       string `help:"Serve streamable HTTP on this loopback address (127.0.0.1:PORT) instead of stdio. Every request needs the header Authorization: Bearer <token> (see --print-token) and must come from a process of your own user; a browser page of another origin is refused." placeholder:"ADDR"`
	TokenFile  string `help:"The bearer token file of --http and --print-token (default: mcp-token beside the daemon's socket, which akk attach creates 0600)." placeholder:"PATH" type:"path"`
	PrintToken bool   `help:"Print the bearer token for an HTTP host's configuration (Authorization: Bearer <token>) and exit. Whoever has it can act as you through --http: keep it out of shared files."`
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
func (c *MCPCmd) Run(ctx context.Context, cl *api.Client, lg *slog.Logger, kctx *kong.Context) error {
	if c.PrintToken {
		tok, err := c.token()
		if err != nil {
			return err
		}
		fmt.Fprintln(kctx.Stdout, tok.Reveal())
		return nil
	}
	opts := mcpserver.Options{Socket: c.socket(), Logger: lg, Owner: c.Controller}
	if len(c.Host) > 0 {
		if c.HTTP != "" {
			return fmt.Errorf("%w: --http serves this machine's daemon (its token is beside its socket); over --host, akk mcp serves stdio", errUsage)
		}
		opts.Client = cl
	}
	if c.HTTP == "" {
		return mcpserver.New(opts).RunStdio(ctx)
	}
	tok, err := c.token()
	if err != nil {
		return err
	}
	opts.Token, opts.PeerUID = tok, procid.ConnPeerUID
	ln, err := net.Listen("tcp", c.HTTP)
	if err != nil {
		return fmt.Errorf("akk mcp: %w", err)
	}
	fmt.Fprintf(kctx.Stderr, "akk mcp: serving streamable HTTP on http://%s (Authorization: Bearer <token>: akk mcp --print-token)\n", ln.Addr())
	return mcpserver.New(opts).ServeHTTP(ctx, ln)
}

// token reads the bearer token: --token-file, else the file beside the
// daemon's socket.
func (c *MCPCmd) token() (api.Token, error) {
	path := c.TokenFile
	if path == "" {
		path = api.TokenPath(c.socket())
		// The socket's directory is the token's too: a squatted one's token is not ours.
		if err := api.CheckPrivateDir(filepath.Dir(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return api.Token{}, fmt.Errorf("akk mcp: %w", err)
		}
	}
	tok, err := api.ReadToken(path)
	if errors.Is(err, api.ErrNoToken) {
		return api.Token{}, fmt.Errorf("akk mcp: no bearer token at %s: start `akk attach` first (it creates the token beside its socket), or name the file with --token-file", path)
	}
	if err != nil {
		return api.Token{}, fmt.Errorf("akk mcp: %w", err)
	}
	return tok, nil
}
