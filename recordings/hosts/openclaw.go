package hosts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// OpenClawVersion is the OpenClaw the live tier runs.
const OpenClawVersion = "2026.9.6"

// FakeModel is the model id the hosts are configured with; OpenClaw names
// it FakeProvider + "/" + FakeModel.
const (
	FakeProvider = "fake"
	FakeModel    = "fake-model"
)

// OpenClawConfig is what a test chooses of a Gateway's config.
type OpenClawConfig struct {
	// ModelURL is the fake Anthropic server's base URL (no /v1: the
	// Anthropic client appends /v1/messages).
	ModelURL string
	// MCP servers by name; their tools reach the model as NAME__tool.
	MCP map[string]MCPServer
	// HookPrefix, when set, enables the hooks (/hooks/agent with
	// HookToken) for persistent session keys that start with it, such
	// as "agent:main:akk-".
	HookPrefix string
}

// OpenClaw is one Gateway, offline, in its own HOME and state dir, on a
// loopback port of its own.
type OpenClaw struct {
	Dirs
	In        rig.InstalledHost
	State     string // OPENCLAW_STATE_DIR
	Config    string // OPENCLAW_CONFIG_PATH (inside State)
	Port      int
	Token     string // the Gateway's own token (CLI and RPC clients)
	HookToken string // the hooks' token, different from Token
	// Ready is how long `gateway run` took until /readyz said ready.
	Ready time.Duration

	cmd  *exec.Cmd
	done chan struct{}
	out  *os.File
}

// NewOpenClaw writes a Gateway's config under root (a fresh directory)
// for the installed OpenClaw in.
func NewOpenClaw(in rig.InstalledHost, root string, cfg OpenClawConfig) (*OpenClaw, error) {
	d, err := newDirs(root)
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	o := &OpenClaw{Dirs: d, In: in, State: filepath.Join(root, "state"), Port: port,
		Token: "gw-" + randomHex(), HookToken: "hook-" + randomHex()}
	o.Config = filepath.Join(o.State, "openclaw.json")
	return o, writeJSON(o.Config, o.configDoc(cfg))
}

// Configure writes the config again with cfg (same port and tokens), as
// a test that knows its MCP servers only after the Gateway's address does
// (a daemon whose route names the Gateway). A running Gateway reloads
// what it can without a restart.
func (o *OpenClaw) Configure(cfg OpenClawConfig) error {
	return writeJSON(o.Config, o.configDoc(cfg))
}

func randomHex() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// configDoc is openclaw.json: gateway local on loopback with a token; the
// fake model as the only provider and the default model; no heartbeat
// cadence, direct tool schemas (no Tool Search), no update check, no
// telemetry, the log file inside the state dir; the MCP servers; hooks.
func (o *OpenClaw) configDoc(cfg OpenClawConfig) map[string]any {
	servers := map[string]any{}
	for name, s := range cfg.MCP {
		servers[name] = map[string]any{"command": s.Command, "args": append([]string{}, s.Args...)}
	}
	doc := map[string]any{
		"gateway": map[string]any{"mode": "local", "port": o.Port, "bind": "loopback",
			"auth": map[string]any{"mode": "token", "token": o.Token}},
		"models": map[string]any{"mode": "replace", "providers": map[string]any{FakeProvider: map[string]any{
			"baseUrl": cfg.ModelURL, "apiKey": "sk-fake-key", "api": "anthropic-messages",
			"models": []any{map[string]any{"id": FakeModel, "name": "Fake", "reasoning": false, "input": []string{"text"},
				"cost":          map[string]int{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
				"contextWindow": 200000, "maxTokens": 8192}}}}},
		"agents": map[string]any{"defaults": map[string]any{"model": map[string]any{"primary": FakeProvider + "/" + FakeModel},
			"workspace": o.Work, "heartbeat": map[string]any{"every": "0m"}}},
		"tools":     map[string]any{"toolSearch": false},
		"update":    map[string]any{"checkOnStart": false},
		"telemetry": map[string]any{"enabled": false},
		"logging":   map[string]any{"file": filepath.Join(o.State, "logs", "openclaw.log")},
		"mcp":       map[string]any{"servers": servers},
	}
	if cfg.HookPrefix != "" {
		// Without hooks.defaultSessionKey the prefixes must admit the
		// generated "hook:" keys too (the Gateway refuses the config).
		doc["hooks"] = map[string]any{"enabled": true, "token": o.HookToken, "path": "/hooks",
			"allowRequestSessionKey": true, "allowedSessionKeyPrefixes": []string{"hook:", cfg.HookPrefix}}
	}
	return doc
}

// Env is the whole environment of the Gateway and of the CLI that talks
// to it.
func (o *OpenClaw) Env() []string {
	return append(baseEnv(o.Dirs, o.In), "OPENCLAW_STATE_DIR="+o.State, "OPENCLAW_CONFIG_PATH="+o.Config,
		"OPENCLAW_NO_AUTO_UPDATE=1", "OPENCLAW_DISABLE_BONJOUR=1", "OPENCLAW_OFFLINE=1")
}

// String names the Gateway without its tokens.
func (o *OpenClaw) String() string {
	return fmt.Sprintf("openclaw@%s on %s (state %s)", o.In.Version, o.URL(), o.State)
}

// LogValue is String: the tokens never reach a log.
func (o *OpenClaw) LogValue() slog.Value { return slog.StringValue(o.String()) }

// URL is the Gateway's HTTP base URL.
func (o *OpenClaw) URL() string { return "http://127.0.0.1:" + strconv.Itoa(o.Port) }

// Start runs `openclaw gateway run --port P` in its own process group and
// waits until GET /readyz answers 200 (ctx bounds the wait, not the
// Gateway: Stop ends it).
func (o *OpenClaw) Start(ctx context.Context) error {
	out, err := os.Create(filepath.Join(o.Root, "gateway.out"))
	if err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	o.out = out
	o.cmd = exec.Command(o.In.Bin, "gateway", "run", "--port", strconv.Itoa(o.Port), "--bind", "loopback")
	o.cmd.Dir, o.cmd.Env, o.cmd.Stdout, o.cmd.Stderr = o.Work, o.Env(), out, out
	start := time.Now()
	if err := startGroup(o.cmd, false); err != nil {
		return fmt.Errorf("hosts: openclaw gateway run: %w", err)
	}
	o.done = make(chan struct{})
	go func() { _ = o.cmd.Wait(); close(o.done) }()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		if resp, err := client.Get(o.URL() + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				o.Ready = time.Since(start)
				return nil
			}
		}
		select {
		case <-o.done:
			return fmt.Errorf("hosts: openclaw gateway exited before ready: %s", o.Output())
		case <-ctx.Done():
			return fmt.Errorf("hosts: openclaw gateway not ready after %v: %w: %s", time.Since(start).Round(time.Millisecond), ctx.Err(), o.Output())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Output is the tail of the Gateway's stdout and stderr.
func (o *OpenClaw) Output() string {
	b, _ := os.ReadFile(filepath.Join(o.Root, "gateway.out"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Stop ends the Gateway with SIGTERM (it drains, closes its MCP servers
// and exits in a few seconds), SIGKILL to its group after 20 s, then
// kills by pid whatever of its HOME is left.
func (o *OpenClaw) Stop() error {
	if o.cmd == nil {
		return nil
	}
	defer o.out.Close()
	return stopGroup(o.cmd, o.done, syscall.SIGTERM, 20*time.Second, o.Home)
}

// CLI runs `openclaw ARGS...` against this Gateway's config and returns
// its stdout.
func (o *OpenClaw) CLI(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, o.In.Bin, args...)
	cmd.Dir, cmd.Env = o.Work, o.Env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := startGroup(cmd, true); err != nil {
		return nil, fmt.Errorf("hosts: openclaw %s: %w", args[0], err)
	}
	if err := cmd.Wait(); err != nil {
		return stdout.Bytes(), fmt.Errorf("hosts: openclaw %s: %w: %s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

// AgentReply is `openclaw agent --json`'s answer.
type AgentReply struct {
	RunID  string `json:"runId"`
	Status string `json:"status"` // "ok" for a completed turn
	Result struct {
		Payloads []struct {
			Text string `json:"text"`
		} `json:"payloads"`
	} `json:"result"`
}

// Text is the turn's reply text.
func (r AgentReply) Text() string {
	var ts []string
	for _, p := range r.Result.Payloads {
		ts = append(ts, p.Text)
	}
	return strings.Join(ts, "\n")
}

// Agent runs one turn through the Gateway, `openclaw agent --session-key
// K --message M --json`, and returns when it completed.
func (o *OpenClaw) Agent(ctx context.Context, sessionKey, message string) (AgentReply, error) {
	var r AgentReply
	out, err := o.CLI(ctx, "agent", "--session-key", sessionKey, "--message", message, "--json")
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("hosts: openclaw agent: %w: %s", err, out)
	}
	return r, nil
}

// Call is one Gateway RPC, `openclaw gateway call METHOD --params JSON
// --json`, decoded into out.
func (o *OpenClaw) Call(ctx context.Context, method string, params, out any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	b, err := o.CLI(ctx, "gateway", "call", method, "--params", string(p), "--json")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("hosts: gateway call %s: %w: %s", method, err, b)
	}
	return nil
}

// ChatSend puts a user message into the session (chat.send) and returns
// its run id (the idempotency key); the turn runs on in the Gateway.
func (o *OpenClaw) ChatSend(ctx context.Context, sessionKey, message, idempotencyKey string) (string, error) {
	var r struct {
		RunID  string `json:"runId"`
		Status string `json:"status"`
	}
	err := o.Call(ctx, "chat.send", map[string]any{"sessionKey": sessionKey, "message": message, "idempotencyKey": idempotencyKey}, &r)
	if err == nil && r.Status != "started" {
		err = fmt.Errorf("hosts: chat.send: status %q", r.Status)
	}
	return r.RunID, err
}

// ChatMessage is one message of chat.history.
type ChatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or content blocks
}

// Text is the message's text (its text blocks joined).
func (m ChatMessage) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var bs []struct{ Type, Text string }
	_ = json.Unmarshal(m.Content, &bs)
	var ts []string
	for _, b := range bs {
		if b.Type == "text" {
			ts = append(ts, b.Text)
		}
	}
	return strings.Join(ts, "\n")
}

// ChatHistory is the session's transcript (chat.history).
func (o *OpenClaw) ChatHistory(ctx context.Context, sessionKey string) ([]ChatMessage, error) {
	var r struct {
		Messages []ChatMessage `json:"messages"`
	}
	err := o.Call(ctx, "chat.history", map[string]any{"sessionKey": sessionKey}, &r)
	return r.Messages, err
}

// AgentHook is a /hooks/agent body that wakes the persistent session
// sessionKey with message, announcing the result nowhere (no channel; the
// main session gets no completion event either).
func AgentHook(sessionKey, message string) map[string]any {
	return map[string]any{"message": message, "name": "akk", "sessionKey": sessionKey,
		"sessionMode": "persistent", "deliver": false}
}

// HookReply is the Gateway's answer to a hook.
type HookReply struct {
	Status     int
	RetryAfter string // the Retry-After header (429)
	Body       []byte
	// From a JSON body: {ok, runId} or {ok: false, error, runId?}.
	OK    bool
	RunID string
	Error string
}

// Hook posts body to /hooks/agent with the bearer token and the
// Idempotency-Key (none when ""). Admission may take up to 15 s (then
// 503): ctx should allow more.
func (o *OpenClaw) Hook(ctx context.Context, token, idempotencyKey string, body any) (HookReply, error) {
	var r HookReply
	b, err := json.Marshal(body)
	if err != nil {
		return r, fmt.Errorf("hosts: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.URL()+"/hooks/agent", bytes.NewReader(b))
	if err != nil {
		return r, fmt.Errorf("hosts: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return r, fmt.Errorf("hosts: hook: %w", err)
	}
	defer resp.Body.Close()
	r.Body, _ = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var j struct {
		OK    bool   `json:"ok"`
		RunID string `json:"runId"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &j) // early errors are plain text
	r.OK, r.RunID, r.Error = j.OK, j.RunID, j.Error
	r.Status, r.RetryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	return r, nil
}
