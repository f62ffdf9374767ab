package supervisor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// hostClaude is the Claude Code version the host tier runs as the MCP host.
const hostClaude = "2.1.267"

// requireHost finds the pinned Claude Code (the live tier is skipped
// without it unless AKK_REQUIRE names the tier).
func requireHost(t *testing.T) rig.Installed {
	t.Helper()
	tmuxtest.RequireTmux(t)
	in, err := rig.Lookup("claude", hostClaude)
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("claude@%s not installed (go run ./recordings/cmd/rig -install claude@%s): %v",
		hostClaude, hostClaude, err))
	return in
}

// requireAgentHost finds the pinned agent host name@version (OpenClaw,
// Pi) in the hosts cache; its tier, the host's name, is skipped without
// it unless AKK_REQUIRE names it.
func requireAgentHost(t *testing.T, name, version string) rig.InstalledHost {
	t.Helper()
	tmuxtest.RequireTmux(t)
	in, err := rig.LookupHost(name, version)
	tmuxtest.Require(t, name, err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v",
		name, version, name, version, err))
	return in
}

// hostRun runs the pinned Claude Code as an MCP host: headless (-p), as a
// plain child of the test (not in the supervised tmux server), with the
// real akk binary as its only MCP server.
type hostRun struct {
	t           *testing.T
	in          rig.Installed
	akk, socket string
	ctx         context.Context
}

// run is one conversation: a fresh fake Anthropic server driven by rules,
// a fresh isolated HOME, `claude -p prompt` whose MCP server is `akk mcp
// --socket S --controller host`. The host must end with hostDone; run
// returns every request its model got.
func (h *hostRun) run(prompt string, rules []fakemodel.Rule) []fakemodel.Request {
	t := h.t
	t.Helper()
	log := fakemodel.NewLog(nil)
	model, err := fakemodel.Anthropic(fakemodel.Script{Rules: rules}, log, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(filepath.Join(home, "host"), 0o755)
	os.MkdirAll(filepath.Join(root, "tmp"), 0o755)
	work, _ := filepath.EvalSymlinks(filepath.Join(home, "host"))
	// The settings prepareLive gives a supervised Claude Code: no
	// onboarding, the fake key approved, manual permission mode.
	key := "sk-ant-api03-" + strings.Repeat("fake", 13) + "-AAAA"
	writeJSON(t, filepath.Join(home, ".claude.json"), map[string]any{
		"numStartups": 5, "installMethod": "npm", "autoUpdates": false, "hasCompletedOnboarding": true,
		"lastOnboardingVersion": hostClaude, "lastReleaseNotesSeen": hostClaude, "theme": "dark", "hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects": map[string]any{work: map[string]any{"allowedTools": []string{}, "hasTrustDialogAccepted": true,
			"hasCompletedProjectOnboarding": true, "projectOnboardingSeenCount": 1}}})
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{"defaultMode": "default"}})
	mcpConfig := filepath.Join(root, "mcp.json")
	writeJSON(t, mcpConfig, map[string]any{"mcpServers": map[string]any{"akk": map[string]any{
		"type": "stdio", "command": h.akk, "args": []string{"mcp", "--socket", h.socket, "--controller", "host"}}}})

	// The prompt comes first: --mcp-config and --allowedTools take lists.
	cmd := exec.CommandContext(h.ctx, h.in.Bin, "-p", prompt, "--mcp-config="+mcpConfig, "--strict-mcp-config",
		"--allowedTools=mcp__akk__*", "--output-format=json")
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "TMPDIR=" + filepath.Join(root, "tmp"), "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin",
		"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=" + key, "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// Every akk tool in every request, none deferred behind a search.
		"ENABLE_TOOL_SEARCH=false"}
	// Its own process group, so that a deadline ends the host and the
	// akk mcp it started, and nothing else.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	reqs := log.Requests()
	var res struct {
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	jerr := json.Unmarshal(stdout.Bytes(), &res)
	if err != nil || jerr != nil || res.IsError || res.Result != hostDone {
		var choices []string
		for _, r := range reqs {
			if r.Kind == "main" {
				choices = append(choices, fmt.Sprintf("%d:%s:%s", r.Seq, r.Choice, r.Tool))
			}
		}
		t.Fatalf("claude@%s -p: %v (%v); result %q\nthe host model chose %v\nstdout: %s\nstderr: %s",
			hostClaude, err, jerr, res.Result, choices, stdout.Bytes(), stderr.Bytes())
	}
	return reqs
}

// rollout is the Codex pane's rollout, one decoded line each.
func rollout(t *testing.T, la *liveAgent) []map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(la.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("rollouts %v, want one", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			lines = append(lines, m)
		}
	}
	return lines
}

// payload is a rollout line's payload if the line is of typ and its
// payload of ptype.
func payload(m map[string]any, typ, ptype string) (map[string]any, bool) {
	p, _ := m["payload"].(map[string]any)
	return p, m["type"] == typ && p != nil && p["type"] == ptype
}

// rolloutCalls counts the function calls of tool (whose arguments contain
// sub), the outputs that answer them, and the command executions whose
// item contains sub (when sub is set).
func rolloutCalls(t *testing.T, la *liveAgent, tool, sub string) (calls, outputs, runs int) {
	t.Helper()
	lines := rollout(t, la)
	ids := map[string]bool{}
	for _, m := range lines {
		if p, ok := payload(m, "response_item", "function_call"); ok && p["name"] == tool && strings.Contains(fmt.Sprint(p["arguments"]), sub) {
			calls++
			ids[fmt.Sprint(p["call_id"])] = true
		}
	}
	for _, m := range lines {
		if p, ok := payload(m, "response_item", "function_call_output"); ok && ids[fmt.Sprint(p["call_id"])] {
			outputs++
		}
		if p, ok := payload(m, "event_msg", "item_completed"); ok && sub != "" {
			item, _ := p["item"].(map[string]any)
			if b, _ := json.Marshal(item); item["type"] == "CommandExecution" && strings.Contains(string(b), sub) {
				runs++
			}
		}
	}
	return calls, outputs, runs
}

// rolloutAnswers is what request_user_input returned to Codex's model,
// question id -> answers, as compact JSON.
func rolloutAnswers(t *testing.T, la *liveAgent) string {
	t.Helper()
	lines := rollout(t, la)
	ids := map[string]bool{}
	for _, m := range lines {
		if p, ok := payload(m, "response_item", "function_call"); ok && p["name"] == "request_user_input" {
			ids[fmt.Sprint(p["call_id"])] = true
		}
	}
	for _, m := range lines {
		p, ok := payload(m, "response_item", "function_call_output")
		if !ok || !ids[fmt.Sprint(p["call_id"])] {
			continue
		}
		var out struct {
			Answers map[string]struct {
				Answers []string `json:"answers"`
			} `json:"answers"`
		}
		if err := json.Unmarshal([]byte(fmt.Sprint(p["output"])), &out); err != nil {
			return fmt.Sprintf("unreadable output %v", p["output"])
		}
		flat := map[string][]string{}
		for q, a := range out.Answers {
			flat[q] = a.Answers
		}
		b, _ := json.Marshal(flat)
		return string(b)
	}
	return "no output"
}
