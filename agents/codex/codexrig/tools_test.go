package codexrig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// codexNestedArg is the JSON argument of tools.<name>(...) in a code-mode
// exec input.
func codexNestedArg(t *testing.T, tc *fakemodel.ToolCall, name string) any {
	t.Helper()
	in, ok := tc.Input.(string)
	if !ok || !tc.Custom || tc.Name != "exec" {
		t.Fatalf("not a code-mode exec call: %+v", tc)
	}
	_, rest, ok := strings.Cut(in, "await tools."+name+"(")
	if !ok {
		t.Fatalf("no tools.%s call in %q", name, in)
	}
	arg, _, ok := strings.Cut(rest, ");\n")
	if !ok {
		t.Fatalf("unterminated call in %q", in)
	}
	var v any
	if err := json.Unmarshal([]byte(arg), &v); err != nil {
		t.Fatalf("argument of tools.%s: %v", name, err)
	}
	return v
}

func TestCodexToolsScript(t *testing.T) {
	prompt := func(s fakemodel.Script, word string) *fakemodel.ToolCall {
		t.Helper()
		for _, k := range s.Keywords {
			if strings.Contains(word, k.Word) {
				if k.Reply.Tool == nil {
					t.Fatalf("%s: no tool call", word)
				}
				return k.Reply.Tool
			}
		}
		t.Fatalf("no keyword for %s", word)
		return nil
	}
	old := codexToolsScript("0.155.1")
	if tc := prompt(old, codexLongWord); tc.Name != "exec_command" || tc.Input.(map[string]any)["cmd"] != codexLongCmd {
		t.Errorf("0.155.1 run-long: %+v", tc)
	}
	if tc := prompt(old, codexPatchWord); tc.Name != "apply_patch" || !tc.Custom || tc.Input != codexPatch {
		t.Errorf("0.155.1 patch: %+v", tc)
	}
	if tc := prompt(old, codexNetWord); tc.Name != "request_permissions" {
		t.Errorf("0.155.1 net-grant: %+v", tc)
	}
	// run-ls of the corpus script is still there
	if tc := prompt(old, "run-ls"); tc.Name != "exec_command" {
		t.Errorf("0.155.1 run-ls: %+v", tc)
	}
	// MCP goes through code mode on both versions
	for _, v := range []string{"0.155.1", "0.171.0"} {
		arg := codexNestedArg(t, prompt(codexToolsScript(v), codexMCPWord), codexMCPTool)
		if arg.(map[string]any)["text"] != codexMCPText {
			t.Errorf("%s mcp-echo: %v", v, arg)
		}
	}
	cur := codexToolsScript("0.171.0")
	if arg := codexNestedArg(t, prompt(cur, codexMultiWord), "exec_command").(map[string]any); arg["cmd"] != codexMultiCmd ||
		arg["sandbox_permissions"] != "require_escalated" {
		t.Errorf("0.171.0 run-multi: %v", arg)
	}
	if arg := codexNestedArg(t, prompt(cur, codexPatchWord), "apply_patch"); arg != codexPatch {
		t.Errorf("0.171.0 patch: %v", arg)
	}
	if arg := codexNestedArg(t, prompt(cur, codexNetWord), "request_permissions").(map[string]any); arg["permissions"] == nil {
		t.Errorf("0.171.0 net-grant: %v", arg)
	}
}

// TestCodexPatch: the patch is one update hunk whose context and removed
// lines are notes.txt before, and context and added lines after.
func TestCodexPatch(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(codexPatch, "\n"), "\n")
	if lines[0] != "*** Begin Patch" || lines[1] != "*** Update File: "+codexNotes || lines[2] != "@@" ||
		lines[len(lines)-1] != "*** End Patch" {
		t.Fatalf("patch frame: %q", lines)
	}
	var before, after strings.Builder
	for _, l := range lines[3 : len(lines)-1] {
		switch l[0] {
		case ' ':
			before.WriteString(l[1:] + "\n")
			after.WriteString(l[1:] + "\n")
		case '-':
			before.WriteString(l[1:] + "\n")
		case '+':
			after.WriteString(l[1:] + "\n")
		default:
			t.Fatalf("hunk line %q", l)
		}
	}
	if before.String() != codexNotesText || after.String() != codexNotesAfter {
		t.Errorf("patch takes %q to %q, want %q to %q", before.String(), after.String(), codexNotesText, codexNotesAfter)
	}
}

func TestCodexFeature(t *testing.T) {
	h := configuredHome(t, "http://127.0.0.1:1")
	if err := codexFeature(h, "request_permissions_tool"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(h.Home, ".codex", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Count(s, "[features]\n") != 1 ||
		!strings.Contains(s, "[features]\nrequest_permissions_tool = true\ndefault_mode_request_user_input = true\n") {
		t.Errorf("config:\n%s", s)
	}
}

func TestCodexSetupBwrap(t *testing.T) {
	if _, err := rig.Lookup("codex", "0.171.0"); err != nil {
		t.Skip(err)
	}
	h, err := rig.NewHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env, err := codexSetupBwrap(h, "0.171.0", "", codexEnv(h))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			first, rest, _ := strings.Cut(p, ":")
			if st, err := os.Stat(filepath.Join(first, "bwrap")); err != nil || st.Mode()&0o111 == 0 {
				t.Errorf("no executable bwrap in %s: %v", first, err)
			}
			if rest != "/usr/local/bin:/usr/bin:/bin" {
				t.Errorf("PATH = %s", p)
			}
			return
		}
	}
	t.Errorf("no PATH in %q", env)
}
