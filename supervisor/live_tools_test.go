package supervisor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// The permission dialogs of Claude Code's tools other than Bash, driven
// live through akk alone: an Edit approved once (the file holds the edit,
// the transcript the tool's successful result), a Write rejected (no file,
// the transcript's result is the rejection), and a plan approved with its
// one-time row (the transcript's ExitPlanMode result is not an error and
// the session left plan mode without switching to auto mode). Each is its
// own session: the fake model's rules are one script per session.

const liveNotes = "alpha\nbeta\ngamma\n"

// projectPath is a file of the live run's project, by absolute path when
// the fake model sends it.
type projectPath struct {
	la   *liveAgent
	name string
}

func (p projectPath) abs() string                  { return filepath.Join(p.la.work, p.name) }
func (p projectPath) MarshalJSON() ([]byte, error) { return json.Marshal(p.abs()) }

// planPath is the plan file Claude Code's plan-mode reminder names ("create
// your plan at <path>"; random per session), read from the requests the
// agent sent so far.
type planPath struct{ log *fakemodel.Log }

var livePlanFile = regexp.MustCompile(`create your plan at (/[^ "\\]+?\.md)`)

func (p planPath) MarshalJSON() ([]byte, error) {
	for _, r := range slices.Backward(p.log.Requests()) {
		if m := livePlanFile.FindSubmatch(r.Body); m != nil {
			return json.Marshal(string(m[1]))
		}
	}
	return nil, fmt.Errorf("no plan file named in the requests so far")
}

func toolEnd(tool string) []fakemodel.Rule {
	return []fakemodel.Rule{{Name: "done", After: tool, Text: "Done."}, {Name: "refused", After: tool, Error: true, Text: "Not done."}}
}

func TestLiveClaudeToolDialogs(t *testing.T) {
	const version = "2.1.267"
	t.Run("edit-approve", func(t *testing.T) {
		var notes projectPath
		ld := startToolSession(t, version, "", func(la *liveAgent, _ *fakemodel.Log) []fakemodel.Rule {
			notes = projectPath{la, "notes.txt"}
			writeFileT(t, notes.abs(), liveNotes)
			return append([]fakemodel.Rule{
				{Name: "read", Call: "Read", Input: map[string]any{"file_path": notes}},
				{Name: "edit", After: "Read", Call: "Edit", Input: map[string]any{"file_path": notes, "old_string": "beta", "new_string": "beta, edited"}}},
				toolEnd("Edit")...)
		})
		turn := ld.send("edit-notes")
		ld.awaitDialog(contract.ToolEdit, contract.DecisionApproveOnce, contract.DecisionReject)
		ld.decide(turn, contract.DecisionApproveOnce)
		ld.idle()
		fileHolds(t, notes.abs(), "alpha\nbeta, edited\ngamma\n")
		ld.toolResult("Edit", false)
	})
	t.Run("write-reject", func(t *testing.T) {
		var created projectPath
		ld := startToolSession(t, version, "", func(la *liveAgent, _ *fakemodel.Log) []fakemodel.Rule {
			created = projectPath{la, "created.txt"}
			return append([]fakemodel.Rule{{Name: "write", Call: "Write", Input: map[string]any{"file_path": created, "content": "new\n"}}},
				toolEnd("Write")...)
		})
		turn := ld.send("write-create")
		ld.awaitDialog(contract.ToolWrite, contract.DecisionApproveOnce, contract.DecisionReject)
		ld.decide(turn, contract.DecisionReject)
		// A rejected Write ends the turn: the composer is empty and takes
		// the next send.
		ld.idle()
		if _, err := os.Stat(created.abs()); !os.IsNotExist(err) {
			t.Errorf("the rejected Write created its file: %v", err)
		}
		ld.toolResult("Write", true)
	})
	t.Run("plan-approve", func(t *testing.T) {
		ld := startToolSession(t, version, "plan", func(la *liveAgent, log *fakemodel.Log) []fakemodel.Rule {
			notes := projectPath{la, "notes.txt"}
			writeFileT(t, notes.abs(), liveNotes)
			return append([]fakemodel.Rule{
				{Name: "read", Call: "Read", Input: map[string]any{"file_path": notes}},
				{Name: "plan", After: "Read", Call: "Write", Input: map[string]any{"file_path": planPath{log}, "content": "# Plan\n\n1. Append a line.\n"}},
				{Name: "exit", After: "Write", Call: "ExitPlanMode", Input: map[string]any{}}},
				toolEnd("ExitPlanMode")...)
		})
		turn := ld.send("plan-notes")
		row := ld.awaitDialog(contract.ToolPlan, contract.DecisionApproveOnce)
		if slices.Contains(row.Interaction.Decisions, contract.DecisionReject) {
			t.Errorf("the plan dialog offers reject: %v", row.Interaction.Decisions)
		}
		ld.decide(turn, contract.DecisionApproveOnce)
		ld.idle()
		ld.toolResult("ExitPlanMode", false)
		// "Yes, manually approve edits" leaves plan mode for the default
		// mode: the footer says manual mode, not auto mode.
		if screen := ld.la.srv.MustRun("capture-pane", "-p", "-t", ld.la.pane); !regexp.MustCompile(`⏸ manual mode on`).Match(screen) {
			t.Errorf("after the plan's approval the footer is not manual mode:\n%s", screen)
		}
	})
}

// startToolSession starts Claude Code in its own tmux server with the
// rules mk makes (mode: Claude's defaultMode, "" for "default") and a
// daemon watching it, and waits for its idle composer.
func startToolSession(t *testing.T, version, mode string, mk func(*liveAgent, *fakemodel.Log) []fakemodel.Rule) *liveDispatch {
	la := prepareLiveWith(t, "claude", version, "", func(la *liveAgent, log *fakemodel.Log) fakemodel.Script {
		return fakemodel.Script{Rules: mk(la, log)}
	})
	if mode != "" {
		writeJSON(t, filepath.Join(la.home, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{"defaultMode": mode}})
	}
	la.openPane(t)
	ld := liveDispatchOn(t, la, "claude", daemonOpts{claudeProjects: filepath.Join(la.home, ".claude", "projects")}, 3*time.Minute)
	return ld
}

// awaitDialog waits for the permission dialog for tool with exactly the
// decisions want pending.
func (ld *liveDispatch) awaitDialog(tool contract.Tool, want ...contract.Decision) api.Terminal {
	ld.t.Helper()
	row := ld.awaitScreen(contract.ScreenAwaitingApproval)
	in := row.Interaction
	if in.Tool != tool || !slices.Equal(in.Decisions, want) {
		ld.t.Fatalf("want the %s dialog with %v, got %+v", tool, want, in)
	}
	return row
}

// decide is approve with respond's patience: a refusal because the dialog
// was still drawing since the status sent nothing, so it looks again, at
// most three times.
func (ld *liveDispatch) decide(turn string, decision contract.Decision) {
	ld.t.Helper()
	var res api.ActionResult
	for range 3 {
		res = ld.approve(turn, decision)
		if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonPromptChanged) {
			break
		}
		ld.t.Logf("%s: %s; looking again", res.Op, res.Reason)
		time.Sleep(200 * time.Millisecond)
	}
	ld.accept(res)
}

// toolResult waits for the transcript to hold the result of the newest
// call of tool, an error (a rejection) or not: Claude Code appends its
// records after it draws.
func (ld *liveDispatch) toolResult(tool string, isError bool) {
	ld.t.Helper()
	tmuxtest.Await(ld.t, 15*time.Second, func() string {
		files, _ := filepath.Glob(filepath.Join(ld.la.home, ".claude", "projects", "*", "*.jsonl"))
		var got []bool
		seen := map[string]bool{}
		for _, f := range files {
			r, names := toolResults(f, tool)
			got = append(got, r...)
			for _, n := range names {
				seen[n] = true
			}
		}
		if len(got) == 0 || got[len(got)-1] != isError {
			return fmt.Sprintf("transcript %v: %s results (is_error) %v, want the newest %v; tools called %v", files, tool, got, isError, seen)
		}
		return ""
	})
}

// toolResults reads a transcript: the is_error of every result of tool,
// in order, and the names of all tools called.
func toolResults(path, tool string) ([]bool, []string) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer fh.Close()
	ids := map[string]bool{}
	var got []bool
	var names []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var rec struct {
			Message struct {
				Content []struct {
					Type      string `json:"type"`
					ID        string `json:"id"`
					Name      string `json:"name"`
					ToolUseID string `json:"tool_use_id"`
					IsError   bool   `json:"is_error"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue // a prompt's content is a string
		}
		for _, c := range rec.Message.Content {
			switch {
			case c.Type == "tool_use":
				names = append(names, c.Name)
				ids[c.ID] = c.Name == tool
			case c.Type == "tool_result" && ids[c.ToolUseID]:
				got = append(got, c.IsError)
			}
		}
	}
	return got, names
}

func writeFileT(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func fileHolds(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("%s: %q (%v), want %q", path, b, err, want)
	}
}

// TestLiveCodexApplyPatch: Codex's edit approval approved once through akk
// alone, on both installed versions: the file holds the patch and the
// rollout completes its FileChange.
func TestLiveCodexApplyPatch(t *testing.T) {
	for _, version := range []string{"0.155.1", "0.171.0"} {
		t.Run(version, func(t *testing.T) {
			la := prepareLiveModel(t, "codex", version, codexrig.Model(version), codexrig.ToolScript(version))
			notes := filepath.Join(la.work, codexrig.PatchFile)
			writeFileT(t, notes, codexrig.PatchBefore)
			la.openPane(t)
			sessions := filepath.Join(la.home, ".codex", "sessions")
			ld := liveDispatchOn(t, la, "codex", daemonOpts{codexSessions: sessions}, 3*time.Minute)
			turn := ld.send(codexrig.PatchWord)
			ld.awaitDialog(contract.ToolEdit, contract.DecisionApproveOnce)
			ld.decide(turn, contract.DecisionApproveOnce)
			ld.idle()
			fileHolds(t, notes, codexrig.PatchAfter)
			tmuxtest.Await(t, 15*time.Second, func() string {
				if !rolloutHas(sessions, `"item_completed"`, `"FileChange"`, `"status":"completed"`) {
					return "no completed FileChange in the rollout"
				}
				return ""
			})
		})
	}
}

// rolloutHas reports whether a line of a rollout under root holds every sub.
func rolloutHas(root string, subs ...string) bool {
	found := false
	filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".jsonl") || found {
			return nil
		}
		b, _ := os.ReadFile(path)
		for _, line := range strings.Split(string(b), "\n") {
			all := true
			for _, s := range subs {
				all = all && strings.Contains(line, s)
			}
			found = found || all
		}
		return nil
	})
	return found
}
