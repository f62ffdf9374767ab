package recordings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// modelLogSince is the header timestamp of the first recording whose rig
// wrote the fake model's replies beside it (NAME.model.jsonl): every
// recording since must have one.
const modelLogSince = 1796199011

// TestReplayCorpusEvidence: every recording since the model log names its
// recorder (akk-rig/N), has the fake model's replies beside it (each line
// a JSON object) and the agent's own transcript or rollout; a recording
// of a permission dialog shows the tool call in all three: the model's
// reply that called the tool, the call in the journal, the dialog on screen.
func TestReplayCorpusEvidence(t *testing.T) {
	checked, dialogs := 0, 0
	for _, f := range loadCorpus(t).Files(corpusDir) {
		rec := decodeFile(t, f.Cast)
		if rec.Header.Timestamp < modelLogSince {
			continue
		}
		checked++
		name := f.Agent + "/" + f.Version + "/" + f.Surface
		if a := rec.Header.Akk; a == nil || !strings.HasPrefix(a.Recorder, "akk-rig/") {
			t.Errorf("%s: recorder %+v, want akk-rig/N", name, rec.Header.Akk)
		}
		tools, err := modelTools(strings.TrimSuffix(f.Cast, ".cast") + ".model.jsonl")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		journal, err := os.ReadFile(f.Journal)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !hasPermissionMarker(t, rec) {
			continue
		}
		dialogs++
		if len(tools) == 0 {
			t.Errorf("%s: a permission dialog, and the fake model called no tool", name)
		}
		if !journalCalls(f.Agent, journal, tools) {
			t.Errorf("%s: the %s shows none of the tool calls %v", name, f.Journal, tools)
		}
	}
	t.Logf("%d recordings since the model log, %d of them permission dialogs", checked, dialogs)
	if dialogs < 40 {
		t.Errorf("only %d permission dialogs checked", dialogs)
	}
}

func decodeFile(t *testing.T, path string) *Recording {
	t.Helper()
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec
}

// modelTools reads a model log: the tools its replies called, in order.
func modelTools(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tools []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<22)
	for n := 1; sc.Scan(); n++ {
		var line struct {
			Tool string `json:"tool"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, n, err)
		}
		if line.Tool != "" {
			tools = append(tools, line.Tool)
		}
	}
	return tools, sc.Err()
}

func hasPermissionMarker(t *testing.T, rec *Recording) bool {
	ms, _, err := Markers(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Expect.Kind != nil && *m.Expect.Kind == "permission" {
			return true
		}
	}
	return false
}

// journalCalls reports whether a record of the agent's journal calls one
// of tools: in Claude's transcript a tool_use of that name, in Codex's
// rollout a function or custom tool call of it (0.171's code mode calls
// every tool from its exec tool), in OpenCode's log a tool part of it.
func journalCalls(agent string, journal []byte, tools []string) bool {
	kinds := map[string][]string{"claude": {`"type":"tool_use"`}, "codex": {`"type":"function_call"`, `"type":"custom_tool_call"`},
		"gemini": {`"toolCalls":[`}, "opencode": {`"type":"tool"`}}[agent]
	// OpenCode's tool parts name the tool as "tool", the others as "name".
	field := map[string]string{"opencode": "tool"}[agent]
	if field == "" {
		field = "name"
	}
	for _, line := range bytes.Split(journal, []byte("\n")) {
		for _, tool := range tools {
			for _, kind := range kinds {
				if bytes.Contains(line, []byte(kind)) && bytes.Contains(line, []byte(`"`+field+`":"`+tool+`"`)) {
					return true
				}
			}
		}
	}
	return false
}
