package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// akkSkill is the SKILL.md akk openclaw setup installs: the rules and one
// worked example.
//
//go:embed assets/SKILL.md
var akkSkill string

// openclawCLI runs the openclaw command (its config, its MCP registry,
// its checks): akk never edits OpenClaw's files itself.
type openclawCLI struct{ bin string }

// openclawTimeout bounds one openclaw command (a probe starts akk mcp).
const openclawTimeout = 90 * time.Second

func (o openclawCLI) run(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, openclawTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("openclaw %s: %w", strings.Join(args[:min(len(args), 3)], " "), err)
	}
	return out, nil
}

// getJSON reads a config object ({} when unset).
func (o openclawCLI) getJSON(ctx context.Context, key string) (map[string]any, error) {
	out, err := o.run(ctx, "config", "get", key, "--json")
	m := map[string]any{}
	if err != nil {
		// An unset key: openclaw says so and exits non-zero.
		if bytes.Contains(bytes.ToLower(out), []byte("not set")) || bytes.Contains(bytes.ToLower(out), []byte("not found")) {
			return m, nil
		}
		return nil, fmt.Errorf("%w: %s", err, clipOut(out, nil))
	}
	if i := bytes.IndexByte(out, '{'); i >= 0 {
		out = out[i:]
	}
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("openclaw config get %s: not JSON: %s", key, clipOut(out, nil))
	}
	return m, nil
}

// setJSON writes a config object whole.
func (o openclawCLI) setJSON(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out, err := o.run(ctx, "config", "set", key, string(b), "--strict-json")
	if err != nil {
		return fmt.Errorf("%w: %s", err, clipOut(out, nil))
	}
	return nil
}

// mcpSet registers (or updates) akk as OpenClaw's MCP server named akk:
// what `openclaw mcp add` writes, without its refusal of a name that
// exists (a setup run again updates the entry); mcp doctor probes it.
func (o openclawCLI) mcpSet(ctx context.Context, akk string, args []string) error {
	return o.setJSON(ctx, "mcp.servers.akk", map[string]any{"command": akk, "args": args})
}

// postHook posts one message into an OpenClaw session through its agent
// hook, as the openclaw callback route does.
func postHook(ctx context.Context, gateway, token, sessionKey, message string) (int, error) {
	body, _ := json.Marshal(map[string]any{"message": message, "name": "akk", "sessionKey": sessionKey,
		"sessionMode": "persistent", "deliver": false})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(gateway, "/")+"/hooks/agent", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("akk-setup-%d", time.Now().UnixNano()))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// PiSetupCmd is `akk pi setup`.
type PiSetupCmd struct {
	DaemonFlags
	Controller string `default:"pi" help:"The controller name akk mcp runs under."`
	Dir        string `help:"Pi's agent directory (default: ~/.pi/agent)." type:"path"`
	DryRun     bool   `help:"Say what would change; change nothing."`
}

// Run adds akk to Pi's mcp.json, keeping every other server.
func (c *PiSetupCmd) Run(g *Globals, stdout io.Writer) error {
	log := &setupLog{out: stdout, json: g.JSON}
	akk, err := os.Executable()
	if err != nil {
		return fmt.Errorf("akk pi setup: where is akk itself: %w", err)
	}
	dir := c.Dir
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".pi", "agent")
	}
	path := filepath.Join(dir, "mcp.json")
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("akk pi setup: %s is not JSON (fix or move it first): %w", path, err)
		}
	}
	servers, _ := doc["mcpServers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	args := []string{"mcp", "--controller", c.Controller}
	if c.Socket != "" {
		args = append(args, "--socket", c.Socket)
	}
	// "direct": Pi's default exposure keeps MCP tools from the model.
	servers["akk"] = map[string]any{"command": akk, "args": args, "exposure": "direct"}
	doc["mcpServers"] = servers
	detail := fmt.Sprintf("%s: akk = %s %s (exposure direct)", path, akk, strings.Join(args, " "))
	if c.DryRun {
		log.add("Pi MCP server", "would set "+detail, false)
		return log.finish()
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := writeFileMkdir(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("akk pi setup: %w", err)
	}
	log.add("Pi MCP server", detail, true)
	log.add("wake-ups", "Pi takes no inbound hook: its driver forwards akk's callbacks (a command route) as follow-up prompts; see README", false)
	return log.finish()
}
