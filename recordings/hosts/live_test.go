package hosts

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The live tier's hosts: the pinned OpenClaw and Pi, installed with
// their own Node by the rig (.ci/run runs `go run ./recordings/cmd/rig
// -install openclaw@... pi@...`), against the fake model. Each is its own
// tier (AKK_REQUIRE=openclaw,pi fails a run without them).

func TestMain(m *testing.M) { akkbin.Main(m) }

// requireHost finds name@version in the hosts cache.
func requireHost(t *testing.T, name, version string) rig.InstalledHost {
	t.Helper()
	in, err := rig.LookupHost(name, version)
	tmuxtest.Require(t, name, err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v",
		name, version, name, version, err))
	return in
}

// smokeServers are the MCP servers of a smoke run: the real `akk mcp`
// (no daemon behind it: its tools list, which is what the host shows the
// model) and fakemcp, whose echo the model calls.
func smokeServers(t *testing.T) map[string]MCPServer {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakemcp")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/agent-knock-knock/akk/recordings/cmd/fakemcp").CombinedOutput()
	if err != nil {
		t.Fatalf("go build fakemcp: %v\n%s", err, out)
	}
	sock := filepath.Join(t.TempDir(), "no-daemon.sock")
	return map[string]MCPServer{
		"akk":  {Command: akkbin.Build(t), Args: []string{"mcp", "--socket", sock, "--controller", "smoke"}},
		"echo": {Command: bin},
	}
}

// smokeText is the model's last word.
const smokeText = "smoke: the echo came back"

// smokeRules: any prompt makes the model call echo (as the host names
// it) with "smoke"; its result, read as JSON, ends the turn.
func smokeRules(echo string) []fakemodel.Rule {
	return []fakemodel.Rule{
		{Name: "echo", Call: echo, Input: map[string]any{"text": "smoke"}},
		{Name: "done", After: echo, When: []fakemodel.Cond{fakemodel.Eq("$.echo", "smoke")}, Text: smokeText},
	}
}

// startModel is a fake Anthropic server driven by rules, its log written
// to the test's log directory too.
func startModel(t *testing.T, rules []fakemodel.Rule) (*fakemodel.Server, *fakemodel.Log) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	log := fakemodel.NewLog(f)
	srv, err := fakemodel.Anthropic(fakemodel.Script{Rules: rules}, log, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, log
}

// toolNames are the tools a logged request offered its model.
func toolNames(t *testing.T, r fakemodel.Request) []string {
	t.Helper()
	var body struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request %d: %v", r.Seq, err)
	}
	var names []string
	for _, tool := range body.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// checkTools: the request offered every one of want.
func checkTools(t *testing.T, r fakemodel.Request, want ...string) {
	t.Helper()
	names := toolNames(t, r)
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Errorf("request %d offers %v, want %s among them", r.Seq, names, w)
		}
	}
}

// mainChoices are the rules the main requests took, in order.
func mainChoices(log *fakemodel.Log) []string {
	var cs []string
	for _, r := range log.Requests() {
		if r.Kind == "main" {
			cs = append(cs, r.Choice)
		}
	}
	return cs
}
