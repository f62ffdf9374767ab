package hosts

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// PiVersion is the Pi (@earendil-works/pi-coding-agent) the live tier runs.
const PiVersion = "1.6.0"

// PiConfig is what a test chooses of Pi's config.
type PiConfig struct {
	// ModelURL is the fake Anthropic server's base URL (no /v1).
	ModelURL string
	// MCP servers by name, each with exposure "direct": their tools reach
	// the model as mcp__NAME__tool, declared like built-in tools.
	MCP map[string]MCPServer
}

// Pi is one `pi --mode rpc` process in its own HOME, driven over stdin
// and stdout (JSON lines).
type Pi struct {
	Dirs
	In rig.InstalledHost

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan map[string]any // stdout records, closed at EOF
	done   chan struct{}
	errOut *os.File
	n      int
}

// StartPi writes Pi's models.json and mcp.json under root/home/.pi/agent
// and starts `pi --mode rpc --no-session --provider fake --model
// fake-model` in its own process group.
func StartPi(in rig.InstalledHost, root string, cfg PiConfig) (*Pi, error) {
	d, err := newDirs(root)
	if err != nil {
		return nil, err
	}
	agent := filepath.Join(d.Home, ".pi", "agent")
	models := map[string]any{"providers": map[string]any{FakeProvider: map[string]any{
		"baseUrl": cfg.ModelURL, "apiKey": "sk-fake-key", "api": "anthropic-messages",
		"models": []any{map[string]any{"id": FakeModel, "name": "Fake", "reasoning": false, "input": []string{"text"},
			"cost":          map[string]int{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
			"contextWindow": 200000, "maxTokens": 8192}}}}}
	servers := map[string]any{}
	for name, s := range cfg.MCP {
		servers[name] = map[string]any{"command": s.Command, "args": append([]string{}, s.Args...), "exposure": "direct"}
	}
	if err := writeJSON(filepath.Join(agent, "models.json"), models); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(agent, "mcp.json"), map[string]any{"mcpServers": servers}); err != nil {
		return nil, err
	}
	p := &Pi{Dirs: d, In: in, events: make(chan map[string]any, 1024), done: make(chan struct{})}
	if p.errOut, err = os.Create(filepath.Join(root, "pi.stderr")); err != nil {
		return nil, fmt.Errorf("hosts: %w", err)
	}
	p.cmd = exec.Command(in.Bin, "--mode", "rpc", "--no-session", "--provider", FakeProvider, "--model", FakeModel)
	p.cmd.Dir, p.cmd.Stderr = d.Work, p.errOut
	p.cmd.Env = append(baseEnv(d, in), "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0")
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("hosts: %w", err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("hosts: %w", err)
	}
	if err := startGroup(p.cmd, false); err != nil {
		return nil, fmt.Errorf("hosts: pi --mode rpc: %w", err)
	}
	go p.read(stdout)
	return p, nil
}

// read decodes stdout's records (split on LF only, as RPC mode frames
// them) until EOF, then reaps the process.
func (p *Pi) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			p.events <- rec
		}
	}
	close(p.events)
	_ = p.cmd.Wait()
	close(p.done)
}

// PiReply is one settled prompt: the last assistant text and the tools
// the model called, in order.
type PiReply struct {
	Text      string
	ToolCalls []string
}

// Prompt sends a user prompt and waits until Pi says agent_settled (it
// will not continue by itself).
func (p *Pi) Prompt(ctx context.Context, message string) (PiReply, error) {
	var r PiReply
	p.n++
	id := fmt.Sprintf("prompt-%d", p.n)
	b, _ := json.Marshal(map[string]any{"id": id, "type": "prompt", "message": message})
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return r, fmt.Errorf("hosts: pi: %w", err)
	}
	for {
		var rec map[string]any
		select {
		case <-ctx.Done():
			return r, fmt.Errorf("hosts: pi prompt: %w: %s", ctx.Err(), p.Stderr())
		case e, ok := <-p.events:
			if !ok {
				return r, fmt.Errorf("hosts: pi exited: %s", p.Stderr())
			}
			rec = e
		}
		switch rec["type"] {
		case "response":
			if rec["id"] == id && rec["success"] != true {
				return r, fmt.Errorf("hosts: pi refused the prompt: %v", rec["error"])
			}
		case "message_end":
			msg, _ := rec["message"].(map[string]any)
			if msg["role"] == "assistant" {
				text, calls := piContent(msg["content"])
				r.ToolCalls = append(r.ToolCalls, calls...)
				if text != "" {
					r.Text = text
				}
			}
		case "agent_settled":
			return r, nil
		}
	}
}

// piContent reads an assistant message's content blocks: its text and
// the names of its tool calls.
func piContent(content any) (string, []string) {
	blocks, _ := content.([]any)
	var texts, calls []string
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		switch m["type"] {
		case "text":
			s, _ := m["text"].(string)
			texts = append(texts, s)
		case "toolCall":
			s, _ := m["name"].(string)
			calls = append(calls, s)
		}
	}
	return strings.Join(texts, "\n"), calls
}

// Stderr is the tail of Pi's stderr.
func (p *Pi) Stderr() string {
	b, _ := os.ReadFile(p.errOut.Name())
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Stop closes Pi's stdin and sends SIGTERM (an orderly shutdown, which
// also stops its stdio MCP servers), SIGKILL to its group after 10 s,
// then kills by pid whatever of its HOME is left.
func (p *Pi) Stop() error {
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	defer p.errOut.Close()
	_ = p.stdin.Close()
	go func() { // drain, so that a shutdown that still writes is not stalled
		for range p.events {
		}
	}()
	return stopGroup(p.cmd, p.done, syscall.SIGTERM, 10*time.Second, p.Home)
}
