package codexrig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's approval dialogs beyond the exec overlay of run-ls: a command
// that wraps (120 and 80 columns), a multi-line command, apply_patch's
// edit approval (approved and rejected), the request_permissions grant of
// network access, an MCP tool's approval (fakemcp's echo), and the idle
// and exec screens with Codex's own bundled bubblewrap on PATH (no startup
// warning). Every call is the model's; in code mode (0.171, and gpt-6-astra
// for MCP on 0.155) the nested tools are called from JavaScript in the
// freeform `exec` tool.

const (
	// the prompts that pick the fake model's replies
	codexLongWord  = "run-long"
	codexMultiWord = "run-multi"
	codexPatchWord = "patch-notes"
	codexMCPWord   = "mcp-echo"
	codexNetWord   = "net-grant"

	codexEditsQ = "Would you like to make the following edits?"
	codexGrantQ = "Would you like to grant these permissions?"
	// codexNotes is the file apply_patch edits (under the project).
	codexNotes      = "notes.txt"
	codexNotesText  = "# notes\ncolour: red\nsize: small\n"
	codexNotesAfter = "# notes\ncolour: blue\nsize: small\n"
	codexMCPText    = "hello from the fake MCP server"
	// codexStartupQuiet outlasts the startup warning's delay
	codexStartupQuiet = 2 * time.Second
	// the MCP tool's approval: a one-field form
	codexMCPQ   = `Allow the fakemcp MCP server to run tool "echo"?`
	codexMCPEnd = "enter to submit | esc to cancel"
)

// codexLongText is ~200 characters of words: `echo` of it wraps in the
// overlay at 120 and at 80 columns.
var codexLongText = "This is a deliberately long command line for the akk recordings of the Codex approval overlay, " +
	"written so that it wraps across several rows of the pane at one hundred and twenty columns and at eighty."

var codexLongCmd = "echo " + rig.ShellQuote(codexLongText)

// codexMultiCmd is a shell snippet with a heredoc: four lines.
const codexMultiCmd = "cat <<'EOF'\nalpha\nbeta\ngamma\nEOF"

// codexPatch edits notes.txt: colour red becomes blue.
const codexPatch = "*** Begin Patch\n*** Update File: " + codexNotes + "\n@@\n # notes\n-colour: red\n+colour: blue\n size: small\n*** End Patch\n"

// codexNestedCall is a call of a nested tool: a function call of the tool
// itself, or (code mode) JavaScript in `exec` calling tools.<name> with
// arg (a JSON value) and returning its result as text.
func codexNestedCall(version, name string, arg any) *fakemodel.ToolCall {
	return codexNested(codexCodeMode(version), name, arg)
}

func codexNested(codeMode bool, name string, arg any) *fakemodel.ToolCall {
	if !codeMode {
		return &fakemodel.ToolCall{Name: name, Input: arg}
	}
	js, _ := json.Marshal(arg)
	return &fakemodel.ToolCall{Name: "exec", Custom: true, Input: "const r = await tools." + name + "(" + string(js) + ");\n" +
		"text(typeof r === \"string\" ? r : JSON.stringify(r));\n"}
}

// codexEscalated is exec_command of cmd outside the sandbox (the read-only
// sandbox would run it without asking otherwise).
func codexEscalated(version, cmd, why string) *fakemodel.ToolCall {
	if codexCodeMode(version) {
		js, _ := json.Marshal(map[string]any{"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": why})
		return &fakemodel.ToolCall{Name: "exec", Custom: true,
			Input: "const r = await tools.exec_command(" + string(js) + ");\ntext(r.output);\n"}
	}
	return &fakemodel.ToolCall{Name: "exec_command", Input: map[string]any{"cmd": cmd,
		"sandbox_permissions": "require_escalated", "justification": why}}
}

// codexPatchCall is apply_patch of codexPatch: its freeform tool, or in
// code mode tools.apply_patch with the patch as a string.
func codexPatchCall(version string) *fakemodel.ToolCall {
	if codexCodeMode(version) {
		return codexNestedCall(version, "apply_patch", codexPatch)
	}
	return &fakemodel.ToolCall{Name: "apply_patch", Custom: true, Input: codexPatch}
}

// codexMCPModel: Codex offers an MCP tool to a function-calling model
// only inside a namespace (mcp__fakemcp, function echo), which a function
// call of the fake model cannot name (it sends no namespace field; the
// flat name mcp__fakemcp__echo is an "unsupported call"), and 0.155's
// gpt-5.5 defers it behind tool_search. Code mode's `exec` reaches it as
// tools.mcp__fakemcp__echo: gpt-6-astra on 0.155 (tool_mode
// code_mode_only), the default gpt-6-sol on 0.171.
func codexMCPModel(version string) string {
	if codexCodeMode(version) {
		return ""
	}
	return "gpt-6-astra"
}

// codexMCPTool is the name Codex gives fakemcp's echo.
const codexMCPTool = "mcp__fakemcp__echo"

func codexToolsScript(version string) fakemodel.Script {
	s := codexScript(version)
	s.Keywords = append([]fakemodel.Keyword{
		{Word: codexLongWord, Reply: fakemodel.Reply{Tool: codexEscalated(version, codexLongCmd,
			"Fake model wants to print a long line outside the sandbox.")}},
		{Word: codexMultiWord, Reply: fakemodel.Reply{Tool: codexEscalated(version, codexMultiCmd,
			"Fake model wants to run a heredoc outside the sandbox.")}},
		{Word: codexPatchWord, Reply: fakemodel.Reply{Tool: codexPatchCall(version)}},
		{Word: codexNetWord, Reply: fakemodel.Reply{Tool: codexNestedCall(version, "request_permissions", map[string]any{
			"permissions": map[string]any{"network": map[string]any{"enabled": true}},
			"reason":      "Fake model wants network access to fetch a page."})}},
		{Word: codexMCPWord, Reply: fakemodel.Reply{Tool: codexNested(true, codexMCPTool,
			map[string]any{"text": codexMCPText})}},
	}, s.Keywords...)
	return s
}

// codexTool is the tool the fake model's reply calls (what the request
// log names): exec in code mode, else name.
func codexTool(version, name string) string {
	if codexCodeMode(version) {
		return "exec"
	}
	return name
}

// dialog waits for a dialog's question and footer, quiet, and marks
// it awaiting approval.
func (s steps) dialog(m recordings.MarkerState, anchors ...string) {
	s.Screen(anchors...)
	s.Mark("awaiting_approval", m)
}

// the exec overlay's first and last options
const (
	codexYes = "Yes, proceed"
	codexNo  = "No, and tell Codex what to do differently"
)

// codexPrefixOption is the exec overlay's "don't ask again" option for a
// one-line command: the whole command is the prefix.
func codexPrefixOption(cmd string) string {
	return "Yes, and don't ask again for commands that start with `" + cmd + "`"
}

func codexPermission(prompt string, options ...string) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions: []recordings.Question{{Prompt: prompt, Options: options}}, Highlighted: recordings.Index(0)}
}

// codexMCPMarker: the MCP tool form is manual (approval_scope_unproven):
// Enter submits the highlighted row, and the rollout records the same
// McpToolCall for a one-time allow as for a session grant.
func codexMCPMarker() recordings.MarkerState {
	m := codexPermission(codexMCPQ, "Allow", "Allow for this session", "Always allow", "Cancel")
	m.Actionable = false
	return m
}

// codexSetupNotes writes notes.txt into the project.
func codexSetupNotes(h *rig.Home, _, _ string, env []string) ([]string, error) {
	return env, rig.WriteFile(filepath.Join(h.Work, codexNotes), codexNotesText)
}

// notesAre checks notes.txt on disk.
func (s steps) notesAre(want string) {
	s.Do(func() error {
		b, err := os.ReadFile(filepath.Join(s.d.Home.Work, codexNotes))
		if err != nil {
			return fmt.Errorf("rig: %w", err)
		}
		if string(b) != want {
			return fmt.Errorf("rig: %s is %q, want %q", codexNotes, b, want)
		}
		return nil
	})
}

// codexSetupMCP builds recordings/cmd/fakemcp into the run and configures
// it as Codex's MCP server fakemcp.
func codexSetupMCP(h *rig.Home, _, _ string, env []string) ([]string, error) {
	bin, err := rig.BuildFakeMCP(h)
	if err != nil {
		return env, err
	}
	cfg := filepath.Join(h.Home, ".codex", "config.toml")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return env, fmt.Errorf("rig: %w", err)
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "\n[mcp_servers.fakemcp]\ncommand = %q\n", bin)
	return env, err
}

// codexBwrapDir is the directory of the bubblewrap Codex's npm package
// ships for version.
func codexBwrapDir(version string) (string, error) {
	in, err := rig.Lookup("codex", version)
	if err != nil {
		return "", err
	}
	ms, _ := filepath.Glob(filepath.Join(in.Dir, "node_modules", "@openai", "codex-*", "vendor", "*", "codex-resources", "bwrap"))
	if len(ms) == 0 {
		return "", fmt.Errorf("rig: no bundled bwrap under %s", in.Dir)
	}
	return filepath.Dir(ms[0]), nil
}

// codexSetupBwrap puts the bundled bwrap's directory first on PATH.
func codexSetupBwrap(_ *rig.Home, version, _ string, env []string) ([]string, error) {
	dir, err := codexBwrapDir(version)
	if err != nil {
		return env, err
	}
	out := append([]string(nil), env...)
	for i, e := range out {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			out[i] = "PATH=" + dir + ":" + p
		}
	}
	return out, nil
}

// long asks for the long command and approves it.
func (s steps) long() {
	s.ask(codexLongWord, codexTool(s.d.Version, "exec_command"))
	s.dialog(codexPermission(codexApproval, codexYes, codexPrefixOption(codexLongCmd), codexNo),
		codexApproval, codexApprovalEnd, "$ echo", "3. No")
	s.approveThen("y", "eighty")
}

// patchAsk asks for the patch of notes.txt and marks its dialog.
func (s steps) patchAsk() {
	s.ask(codexPatchWord, codexTool(s.d.Version, "apply_patch"))
	s.dialog(codexPermission(codexEditsQ, codexYes, "Yes, and don't ask again for these files", codexNo),
		codexEditsQ, codexApprovalEnd, "3. No")
}

func toolScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	long := steps.long
	out = append(out,
		&rig.Scenario{Name: "exec-long", Agent: "codex", Script: codexToolsScript, Drive: drive(long)},
		&rig.Scenario{Name: "exec-long-80", Agent: "codex", Width: 80, Height: 24, Script: codexToolsScript, Drive: drive(long)},
		&rig.Scenario{Name: "exec-multiline", Agent: "codex", Script: codexToolsScript, Drive: drive(func(s steps) {
			s.ask(codexMultiWord, codexTool(s.d.Version, "exec_command"))
			s.dialog(codexPermission(codexApproval, codexYes, codexNo), codexApproval, codexApprovalEnd, "EOF", "2. No")
			s.approveThen("y", "gamma")
		})},
		&rig.Scenario{Name: "apply-patch-approve", Agent: "codex", Script: codexToolsScript, Setup: codexSetupNotes,
			Drive: drive(func(s steps) {
				s.patchAsk()
				s.Key("y")
				s.Journal("FileChange completed", rolloutHas("event_msg", "item_completed",
					`"type":"FileChange"`, `"status":"completed"`, "Updated the following files"))
				s.toolOutput()
				s.turnEnd(false)
				s.MarkIdle()
				s.notesAre(codexNotesAfter)
			})},
		&rig.Scenario{Name: "apply-patch-reject", Agent: "codex", Script: codexToolsScript, Setup: codexSetupNotes,
			Drive: drive(func(s steps) {
				s.patchAsk()
				s.Key("Escape")
				s.toolOutput("aborted by user")
				s.turnEnd(true)
				s.MarkInterrupted() // "■ Conversation interrupted ..."
				s.notesAre(codexNotesText)
			})},
		&rig.Scenario{Name: "mcp-tool-approve", Agent: "codex", Script: codexToolsScript, Setup: codexSetupMCP, Model: codexMCPModel,
			Drive: drive(func(s steps) {
				s.ask(codexMCPWord, "exec")
				s.dialog(codexMCPMarker(), codexMCPQ, "4. Cancel", codexMCPEnd)
				s.approveThen("Enter", codexMCPText)
			})},
		&rig.Scenario{Name: "network-approve", Agent: "codex", Script: codexToolsScript,
			Setup: func(h *rig.Home, _, _ string, env []string) ([]string, error) {
				return env, codexFeature(h, "request_permissions_tool")
			},
			Drive: drive(func(s steps) {
				s.ask(codexNetWord, codexTool(s.d.Version, "request_permissions"))
				s.dialog(codexPermission(codexGrantQ, "Yes, grant these permissions for this turn",
					"Yes, grant for this turn with strict auto review", "Yes, grant these permissions for this session",
					"No, continue without permissions"), codexGrantQ, codexApprovalEnd, "4. No")
				s.approveThen("y", "scope")
			})},
		&rig.Scenario{Name: "idle-bwrap", Agent: "codex", Script: codexToolsScript, Setup: codexSetupBwrap,
			Drive: drive(func(s steps) {
				s.idle()
				// the startup warning, when there is one, arrives about
				// 1 s after the composer (idle.cast: 1.3 s at 0.155.1,
				// 1.0 s at 0.171.0): a screen unchanged for longer
				// shows there is none
				s.Quiet(codexStartupQuiet)
				s.MarkIdle()
			})},
		&rig.Scenario{Name: "permission-bwrap", Agent: "codex", Script: codexToolsScript, Setup: codexSetupBwrap,
			Drive: drive(func(s steps) {
				s.approve()
				s.approveThen("y")
			})},
	)
	return out
}

// codexFeature turns a [features] flag on in the config the rig wrote.
func codexFeature(h *rig.Home, name string) error {
	cfg := filepath.Join(h.Home, ".codex", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	s := strings.Replace(string(b), "[features]\n", "[features]\n"+name+" = true\n", 1)
	if s == string(b) {
		return fmt.Errorf("rig: no [features] table in %s", cfg)
	}
	return os.WriteFile(cfg, []byte(s), 0o644)
}
