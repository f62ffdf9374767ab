package supervisor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// dumpOnFailure registers, for a live test that fails, what tells an
// agent's stall from akk's: every request the fake model got (when, what
// it chose, whether its reply was written to the end), each pane's screen
// as tmux has it, and the kinds of the last lines of every rollout and
// transcript under the agent's HOME. Registered after the tmux server, so
// it runs before the server is killed.
func (la *liveAgent) dumpOnFailure(t *testing.T, log *fakemodel.Log) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "fake model requests:\n")
		for _, r := range log.Requests() {
			fmt.Fprintf(&b, "  %d %s %s %s kind=%s choice=%s tool=%s done=%v prompt=%.60q\n",
				r.Seq, r.Time.Format("15:04:05.000"), r.Method, r.Path, r.Kind, r.Choice, r.Tool, r.Done, r.Prompt)
		}
		if out, err := la.srv.Run("list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{pane_current_command}"); err == nil {
			for _, line := range strings.Fields(strings.ReplaceAll(string(out), " ", "_")) {
				id, _, _ := strings.Cut(line, "_")
				screen, _ := la.srv.Run("capture-pane", "-p", "-t", id)
				fmt.Fprintf(&b, "pane %s:\n%s\n", strings.ReplaceAll(line, "_", " "), strings.TrimRight(string(screen), "\n"))
			}
		}
		var logs []string
		for _, pat := range []string{".codex/sessions/*/*/*/rollout-*.jsonl", ".claude/projects/*/*.jsonl"} {
			m, _ := filepath.Glob(filepath.Join(la.home, pat))
			logs = append(logs, m...)
		}
		for _, path := range logs {
			fmt.Fprintf(&b, "%s, last lines:\n", filepath.Base(path))
			for _, k := range lastKinds(path, 15) {
				fmt.Fprintf(&b, "  %s\n", k)
			}
		}
		t.Log(b.String())
	})
}

// lastKinds is the type (and payload type) of the last n JSON lines of
// path: enough to see where an agent's turn stopped, no content.
func lastKinds(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return []string{err.Error()}
	}
	defer f.Close()
	var kinds []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m struct {
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
			Payload   struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		k := "(not JSON)"
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			k = strings.TrimSpace(m.Timestamp + " " + m.Type + " " + m.Payload.Type)
		}
		kinds = append(kinds, k)
	}
	if len(kinds) > n {
		kinds = kinds[len(kinds)-n:]
	}
	return kinds
}
