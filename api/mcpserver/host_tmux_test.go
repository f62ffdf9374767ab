package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// The real MCP host of the host tier: the MCP Inspector's command-line
// client (@modelcontextprotocol/inspector-cli, on the TypeScript SDK),
// installed by scripts/install-mcp-host into $XDG_CACHE_HOME/akk/mcp-host
// or the directory $AKK_MCP_HOST_DIR names.
const hostTier = "mcphost"

func hostDir() string {
	if d := os.Getenv("AKK_MCP_HOST_DIR"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "akk", "mcp-host")
}

// inspector runs the Inspector's CLI with `akk mcp` as its stdio server
// and returns its JSON output. It runs in the package's build directory:
// the CLI reads its own package.json by a path relative to both its
// module and the working directory.
func inspector(t *testing.T, r *rig, build string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	full := append([]string{"index.js", r.akk, "mcp", "--socket", r.socket}, args...)
	cmd := exec.CommandContext(ctx, "node", full...)
	cmd.Dir = build
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspector %v: %v\n%s\n%s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestTmuxMCPHost: a real MCP host (the MCP Inspector's CLI over stdio)
// starts `akk mcp`, lists its tools and calls list and status against a
// daemon with replica agents; the structured results are the CLI's --json.
func TestTmuxMCPHost(t *testing.T) {
	build := filepath.Join(hostDir(), "node_modules", "@modelcontextprotocol", "inspector-cli", "build")
	_, nodeErr := exec.LookPath("node")
	_, statErr := os.Stat(filepath.Join(build, "index.js"))
	tmuxtest.Require(t, hostTier, nodeErr == nil && statErr == nil,
		"no MCP Inspector CLI in "+build+" (scripts/install-mcp-host) or no node")
	r := startRig(t, "send", "permission-approve")
	r.awaitState(t, "send", contract.ScreenIdle)
	r.awaitState(t, "permission-approve", contract.ScreenIdle)
	r.typeTask("permission-approve", "run-touch")
	perm := r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)

	var tools struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(inspector(t, r, build, "--method", "tools/list"), &tools); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(wantTools))
	if !slices.Equal(names, want) {
		t.Errorf("the host sees tools %v, want %v", names, want)
	}

	type result[T any] struct {
		IsError           bool `json:"isError"`
		StructuredContent T    `json:"structuredContent"`
	}
	var list result[api.ListResponse]
	if err := json.Unmarshal(inspector(t, r, build, "--method", "tools/call", "--tool-name", ToolList), &list); err != nil {
		t.Fatal(err)
	}
	direct, err := r.cl.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, list.StructuredContent), mustJSON(t, direct); list.IsError || a != b {
		t.Errorf("list through the host differs from the CLI's --json:\nhost: %s\ncli:  %s", a, b)
	}
	var st result[api.StatusResponse]
	out := inspector(t, r, build, "--method", "tools/call", "--tool-name", ToolStatus, "--tool-arg", "terminal_id="+perm.TerminalID)
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	s := st.StructuredContent
	if st.IsError || s.Terminal.TerminalID != perm.TerminalID || s.Terminal.ScreenState != contract.ScreenAwaitingApproval ||
		s.Terminal.Interaction == nil || s.Terminal.Interaction.Kind != contract.KindPermission || s.Evidence.Recognizer != "claude@2.1.267" {
		t.Errorf("status through the host: %s", out)
	}
	var bad result[json.RawMessage]
	out = inspector(t, r, build, "--method", "tools/call", "--tool-name", ToolRespond, "--tool-arg", "terminal_id="+perm.TerminalID,
		"interaction_id=int_"+string(bytes.Repeat([]byte("a"), idChars)))
	if err := json.Unmarshal(out, &bad); err != nil || !bad.IsError {
		t.Errorf("respond_interaction by terminal_id through the host was not refused: %s", out)
	}
}
