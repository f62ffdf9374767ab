package clauderig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

func TestToolScenarios(t *testing.T) {
	for _, n := range []string{"edit-approve", "edit-reject", "edit-escape", "write-create-approve", "write-create-reject",
		"write-overwrite-approve", "notebook-edit-approve", "webfetch-approve", "webfetch-reject", "mcp-tool-approve", "read-outside",
		"plan-approve", "plan-exit-empty", "bash-long", "bash-long-80"} {
		s, err := rig.FindScenario("claude", n)
		if err != nil || s.Setup == nil || s.Script == nil || s.Drive == nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		for _, v := range []string{"2.1.267", "2.1.332"} {
			if !s.Supports(v) || len(s.Script(v).Rules) == 0 {
				t.Errorf("%s on %s: no rules", n, v)
			}
		}
	}
	if s, _ := rig.FindScenario("claude", "bash-long-80"); s.Width != 80 || s.Height != 24 {
		t.Error("bash-long-80 is 80x24")
	}
}

func TestToolPaths(t *testing.T) {
	old := toolsHome.Load()
	defer toolsHome.Store(old)
	h, err := rig.NewHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	toolsHome.Store(h)
	b, _ := json.Marshal(map[string]any{"a": runPath("notes.txt"), "b": runPath("~/elsewhere/x.txt")})
	var got map[string]string
	json.Unmarshal(b, &got)
	if got["a"] != filepath.Join(h.Work, "notes.txt") || got["b"] != filepath.Join(h.Home, "elsewhere", "x.txt") {
		t.Errorf("runPath: %s", b)
	}
	if _, err := json.Marshal(planFile{}); err == nil {
		t.Error("a plan file without a request log")
	}
	plan := filepath.Join(h.Home, ".claude", "plans", "plan-notes-steady-haven.md")
	line, _ := json.Marshal(map[string]any{"seq": 3, "body": map[string]any{"messages": []any{
		"No plan file exists yet. You should create your plan at " + plan + " using the Write tool."}}})
	if err := os.WriteFile(filepath.Join(h.Root, "requests.jsonl"), append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := json.Marshal(planFile{}); err != nil || string(b) != `"`+plan+`"` {
		t.Errorf("planFile = %s, %v; want %s", b, err, plan)
	}
}
