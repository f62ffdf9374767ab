// Package agenttest holds what the tests of the agents' folders and of the
// engines that read their records share: record lines of the documented
// shapes, the recorded journals, a process holding files open. It imports
// no engine (the watchers' own tests use it).
package agenttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The agents whose journals are lines, by their names in evidence (their
// format packages' tests use this package: it cannot import them).
const (
	rolloutAgent    evidence.Agent = "codex"
	transcriptAgent evidence.Agent = "claude"
)

// awaitLimit bounds a wait on a process.
const awaitLimit = 20 * time.Second

// RolloutMeta is a session_meta line of the documented shape (agents-offline.md).
func RolloutMeta(id, cwd, version string) string {
	return `{"timestamp":"2026-11-30T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id +
		`","timestamp":"2026-11-30T10:00:00.000Z","cwd":"` + cwd + `","originator":"codex_cli_rs","cli_version":"` + version + `"}}` + "\n"
}

// RolloutTurnStarted is a rollout's task_started line of turn.
func RolloutTurnStarted(turn string) string {
	return `{"timestamp":"2026-11-30T10:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"` + turn + `"}}` + "\n"
}

// RolloutUserPrompt is a rollout's user message of turn.
func RolloutUserPrompt(turn, text string) string {
	return `{"timestamp":"2026-11-30T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":` +
		evidencetest.JSON(text) + `}],"internal_chat_message_metadata_passthrough":{"turn_id":"` + turn + `"}}}` + "\n"
}

// RolloutUserEvent is a rollout's user_message event.
func RolloutUserEvent(text string) string {
	return `{"timestamp":"2026-11-30T10:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":` + evidencetest.JSON(text) + `}}` + "\n"
}

// RolloutTurn is a turn's start and its prompt, as a rollout records
// them.
func RolloutTurn(turn, text string) string {
	return RolloutTurnStarted(turn) + RolloutUserPrompt(turn, text) + RolloutUserEvent(text)
}

// TranscriptPrompt is a transcript's user record of a prompt.
func TranscriptPrompt(session, cwd, uuid, text string) string {
	return `{"parentUuid":null,"isSidechain":false,"cwd":"` + cwd + `","sessionId":"` + session + `","version":"2.1.267","type":"user","message":{"role":"user","content":` +
		evidencetest.JSON(text) + `},"uuid":"` + uuid + `","timestamp":"2026-11-30T10:00:00.000Z"}` + "\n"
}

// TranscriptLine is a user record of the documented transcript shape.
func TranscriptLine(session, cwd, uuid, text string) string {
	return `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + session +
		`","version":"2.1.267","type":"user","message":{"role":"user","content":"` + text + `"},"uuid":"` + uuid +
		`","timestamp":"2026-11-30T10:00:00.000Z"}` + "\n"
}

// HoldOpen starts a process that holds files open (as descriptors 3, 4, ...)
// and kills it at the end of the test. script runs under sh; "sleep 60"
// keeps the descriptors open.
func HoldOpen(t *testing.T, script string, files ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	}
	// Its own process group, so the cleanup ends the sleep below sh too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return cmd
}

// AwaitChild waits until pid has a child process (the HoldOpen's sleep).
func AwaitChild(t *testing.T, pid int) {
	t.Helper()
	tmuxtest.Await(t, awaitLimit, tmuxtest.Until("the HoldOpen's child", func() bool {
		return len(procid.Descendants([]int{pid})) > 1
	}))
}

// AppendFile appends s to the file at path, creating it.
func AppendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// NewestPinned is the newest version of agent in the recorded corpus.
func NewestPinned(t *testing.T, agent string) string {
	t.Helper()
	c, err := recordings.LoadCorpus(evidencetest.CorpusDir())
	if err != nil {
		t.Fatal(err)
	}
	best := ""
	for _, v := range c.Versions {
		if v.Agent == agent && (best == "" || recognizers.VersionLess(best, v.Version)) {
			best = v.Version
		}
	}
	if best == "" {
		t.Fatalf("no %s version in the corpus", agent)
	}
	return best
}

// Journal is one recorded journal and the ids it carries.
type Journal struct {
	Agent   evidence.Agent
	Version string
	Data    []byte
	ID, Cwd string
}

func LoadJournal(t testing.TB, agent evidence.Agent, version, scenario string) Journal {
	t.Helper()
	kind := "transcript"
	if agent == rolloutAgent {
		kind = "rollout"
	}
	data, err := os.ReadFile(filepath.Join(evidencetest.CorpusDir(), string(agent), version, scenario+"."+kind+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	j := Journal{Agent: agent, Version: version, Data: data}
	for line := range bytes.Lines(data) {
		var m struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
			Payload   struct {
				ID  string `json:"id"`
				Cwd string `json:"cwd"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		if agent == rolloutAgent && m.Payload.ID != "" {
			j.ID, j.Cwd = m.Payload.ID, m.Payload.Cwd
			break
		}
		if agent == transcriptAgent && m.SessionID != "" && m.Cwd != "" {
			j.ID, j.Cwd = m.SessionID, m.Cwd
			break
		}
	}
	if j.ID == "" || j.Cwd == "" {
		t.Fatalf("%s %s %s: no id and cwd", agent, version, scenario)
	}
	return j
}

// as is the Journal with its id, cwd and day replaced (the day shifts
// every timestamp, so copies order by day).
func (j Journal) As(id, cwd string, day int) Journal {
	r := strings.NewReplacer(j.ID, id, j.Cwd, cwd, "2026-12-03T", fmt.Sprintf("2026-12-%02dT", day))
	j.Data, j.ID, j.Cwd = []byte(r.Replace(string(j.Data))), id, cwd
	return j
}
