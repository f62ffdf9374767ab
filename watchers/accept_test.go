package watchers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Lines of the documented shapes (agents-offline.md, akk-reference.md §4).

func anchor(t *testing.T, agent evidence.Agent, path string) Anchor {
	t.Helper()
	a, err := TakeAnchor(context.Background(), agent, path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func accept(t *testing.T, prompt string, anchors ...Anchor) Acceptance {
	t.Helper()
	r, err := Accept(context.Background(), prompt, 0, anchors...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const prompt = "Fix the failing test in store/\n"

func TestAcceptCodex(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	// The same prompt before the anchor does not count.
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("sess", "/src", "0.155.1")+agenttest.RolloutTurn("t1", prompt))
	a := anchor(t, rollout.Agent, p)
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("before: %+v", r)
	}
	agenttest.AppendFile(t, p, agenttest.RolloutTurn("t2", "something else"))
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("other prompt: %+v", r)
	}
	at := fileSize(t, p)
	agenttest.AppendFile(t, p, agenttest.RolloutTurn("t3", prompt))
	r := accept(t, prompt, a)
	if r.Verdict != Accepted || r.Match.TurnID != "t3" || r.Match.Offset != at+int64(len(agenttest.RolloutTurnStarted("t3"))) || r.Match.SessionID != "" {
		t.Fatalf("accepted: %+v", r)
	}
	// The same prompt accepted again later: two records match.
	agenttest.AppendFile(t, p, agenttest.RolloutTurn("t4", prompt))
	if r := accept(t, prompt, a); r.Verdict != Uncertain || len(r.Matches) != 2 {
		t.Fatalf("twice: %+v", r)
	}
}

// A prompt whose task_started precedes the anchor is not accepted after
// it, and a turn started twice is uncertain.
func TestAcceptCodexTurnBoundaries(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("sess", "/src", "0.155.1")+agenttest.RolloutTurnStarted("t1"))
	a := anchor(t, rollout.Agent, p)
	agenttest.AppendFile(t, p, agenttest.RolloutUserPrompt("t1", prompt))
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("turn started before the anchor: %+v", r)
	}
	agenttest.AppendFile(t, p, agenttest.RolloutTurnStarted("t2")+agenttest.RolloutTurnStarted("t2")+agenttest.RolloutUserPrompt("t2", prompt))
	if r := accept(t, prompt, a); r.Verdict != Uncertain {
		t.Fatalf("turn started twice: %+v", r)
	}
}

// A prompt steered into a working Codex is recorded under the running
// turn's id, whose task_started precedes the anchor: accepted when the
// anchor names that turn as running, not under another old turn.
func TestAcceptCodexSteered(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("sess", "/src", "0.155.1")+agenttest.RolloutTurn("t1", "slow task")+agenttest.RolloutTurnStarted("t2")+agenttest.RolloutUserPrompt("t2", "another"))
	a := anchor(t, rollout.Agent, p)
	a.Running = "t2"
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("before the steer: %+v", r)
	}
	agenttest.AppendFile(t, p, agenttest.RolloutUserPrompt("t1", prompt)) // an old turn's id: not ours
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("under a turn neither running nor started after the anchor: %+v", r)
	}
	agenttest.AppendFile(t, p, agenttest.RolloutUserPrompt("t2", prompt)+agenttest.RolloutUserEvent(prompt))
	if r := accept(t, prompt, a); r.Verdict != Accepted || r.Match.TurnID != "t2" {
		t.Fatalf("steered into the running turn: %+v", r)
	}
	without := a
	without.Running = ""
	if r := accept(t, prompt, without); r.Verdict != Pending {
		t.Fatalf("the same file, no running turn named: %+v", r)
	}
}

// A candidate set: several open rollouts anchored before the send; one
// accepts, or two do.
func TestAcceptCandidateSet(t *testing.T) {
	dir := t.TempDir()
	p1, p2 := filepath.Join(dir, "rollout-1.jsonl"), filepath.Join(dir, "rollout-2.jsonl")
	p3 := filepath.Join(dir, "rollout-3.jsonl") // opened after the send
	agenttest.AppendFile(t, p1, agenttest.RolloutMeta("s1", "/src", "0.155.1"))
	agenttest.AppendFile(t, p2, agenttest.RolloutMeta("s2", "/src", "0.155.1"))
	a1, a2, a3 := anchor(t, rollout.Agent, p1), anchor(t, rollout.Agent, p2), anchor(t, rollout.Agent, p3)
	if !a3.Absent {
		t.Fatal("missing file not anchored as absent")
	}
	a3.SessionID = "s3"
	agenttest.AppendFile(t, p3, agenttest.RolloutMeta("s3", "/src", "0.155.1")+agenttest.RolloutTurn("n1", prompt))
	if r := accept(t, prompt, a1, a2, a3); r.Verdict != Accepted || r.Match.Path != p3 {
		t.Fatalf("new rollout: %+v", r)
	}
	agenttest.AppendFile(t, p2, agenttest.RolloutTurn("x1", prompt))
	if r := accept(t, prompt, a1, a2, a3); r.Verdict != Uncertain || len(r.Matches) != 2 {
		t.Fatalf("two candidates: %+v", r)
	}
	// A new file of another session does not accept for s3.
	a3.SessionID = "other"
	if r := accept(t, prompt, a1, a3); r.Verdict != Pending {
		t.Fatalf("wrong session: %+v", r)
	}
}

func TestAcceptFileAuthorityChanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("s", "/src", "0.155.1")+agenttest.RolloutTurn("t1", "x"))
	a := anchor(t, rollout.Agent, p)
	os.Truncate(p, 10)
	if r := accept(t, prompt, a); r.Verdict != Uncertain {
		t.Fatalf("truncated: %+v", r)
	}
	os.Remove(p)
	if r := accept(t, prompt, a); r.Verdict != Uncertain {
		t.Fatalf("deleted: %+v", r)
	}
	// Recreated (the inode number may well be reused): other bytes before
	// the anchor.
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("s2", "/src", "0.155.1")+agenttest.RolloutTurn("t1", "y")+agenttest.RolloutTurn("t2", prompt))
	if r := accept(t, prompt, a); r.Verdict != Uncertain {
		t.Fatalf("replaced: %+v", r)
	}
}

func TestAcceptScanLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("s", "/src", "0.155.1"))
	a := anchor(t, rollout.Agent, p)
	for i := range 100 {
		agenttest.AppendFile(t, p, agenttest.RolloutTurn("t"+itoa(int64(i)), "other"))
	}
	agenttest.AppendFile(t, p, agenttest.RolloutTurn("last", prompt))
	r, err := Accept(context.Background(), prompt, 4096, a)
	if err != nil || r.Verdict != Uncertain {
		t.Fatalf("bounded scan: %+v %v", r, err)
	}
}

func TestTakeAnchorInsideLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	agenttest.AppendFile(t, p, `{"type":"user"`)
	if _, err := TakeAnchor(context.Background(), transcript.Agent, p); !errors.Is(err, ErrAnchor) {
		t.Fatalf("torn end: %v", err)
	}
}

func TestAcceptClaude(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s1.jsonl")
	agenttest.AppendFile(t, p, agenttest.TranscriptPrompt("s1", "/work/app", "u1", prompt))
	a := anchor(t, transcript.Agent, p)
	a.SessionID, a.Cwd = "s1", "/work/app"
	agenttest.AppendFile(t, p, agenttest.TranscriptPrompt("s2", "/work/app", "u2", prompt)) // another session's record
	agenttest.AppendFile(t, p, agenttest.TranscriptPrompt("s1", "/elsewhere", "u3", prompt))
	if r := accept(t, prompt, a); r.Verdict != Pending {
		t.Fatalf("other session or cwd: %+v", r)
	}
	agenttest.AppendFile(t, p, agenttest.TranscriptPrompt("s1", "/work/app", "u4", prompt+"  \n"))
	if r := accept(t, prompt, a); r.Verdict != Accepted || r.Match.TurnID != "u4" {
		t.Fatalf("accepted: %+v", r)
	}
}

// The Acceptor fed live from a Watcher reaches the same verdict, and a
// replacement after acceptance does not undo it.
func TestAcceptLive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("s", "/src", "0.155.1")+agenttest.RolloutTurn("t1", prompt))
	_, c := watchDir(t, flatCodex(), dir)
	c.wait(t, "history", func(evs []evidence.Event) bool { return countTurns(evs) == 1 })
	a := anchor(t, rollout.Agent, p)
	agenttest.AppendFile(t, p, agenttest.RolloutTurn("t2", prompt))
	evs := c.wait(t, "the prompt", func(evs []evidence.Event) bool {
		for _, ev := range evs {
			if p, ok := ev.(evidence.PromptAccepted); ok && p.TurnID == "t2" {
				return true
			}
		}
		return false
	})
	acc := NewAcceptor(prompt, a)
	for _, ev := range evs {
		acc.Observe(ev)
	}
	if r := acc.Result(); r.Verdict != Accepted || r.Match.TurnID != "t2" {
		t.Fatalf("live: %+v", r)
	}
	os.Remove(p)
	evs = c.wait(t, "deletion", func(evs []evidence.Event) bool { return len(fileEvents(evs)) == 2 })
	acc.Observe(evs[len(evs)-1])
	if r := acc.Result(); r.Verdict != Accepted {
		t.Fatalf("after deletion: %+v", r)
	}
	// Authority broken before any match: uncertain.
	acc2 := NewAcceptor("never sent", a)
	acc2.Observe(evs[len(evs)-1])
	if r := acc2.Result(); r.Verdict != Uncertain {
		t.Fatalf("broken first: %+v", r)
	}
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestPrompted: a file that took nothing after the anchor is not
// prompted; a turn started after it is; a replaced file is (nothing can
// be proven of it).
func TestPrompted(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout.jsonl")
	head := `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Which file?"}}` + "\n"
	if err := os.WriteFile(path, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	an, err := TakeAnchor(ctx, rollout.Agent, path)
	if err != nil {
		t.Fatal(err)
	}
	an.Guard = nil // what a stored settlement keeps: file, offset
	if p, why, err := Prompted(ctx, an, "t1"); p || err != nil {
		t.Fatalf("nothing after the anchor: prompted %v (%s) %v", p, why, err)
	}
	agenttest.AppendFile(t, path, `{"type":"event_msg","payload":{"type":"token_count"}}`+"\n")
	if p, why, err := Prompted(ctx, an, "t1"); p || err != nil {
		t.Fatalf("bookkeeping after the anchor: prompted %v (%s) %v", p, why, err)
	}
	// The ended turn's own start written after its end (Claude writes out
	// of order) is no new prompt.
	agenttest.AppendFile(t, path, `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`+"\n")
	if p, why, err := Prompted(ctx, an, "t1"); p || err != nil {
		t.Fatalf("the own turn's late start: prompted %v (%s) %v", p, why, err)
	}
	agenttest.AppendFile(t, path, `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`+"\n")
	if p, why, err := Prompted(ctx, an, "t1"); !p || err != nil || !strings.Contains(why, "t2") {
		t.Fatalf("a turn after the anchor: prompted %v (%s) %v", p, why, err)
	}
	if err := os.WriteFile(path+".new", []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if p, why, err := Prompted(ctx, an, "t1"); !p || err != nil || !strings.Contains(why, "replaced") {
		t.Fatalf("a replaced file: prompted %v (%s) %v", p, why, err)
	}
}

// TestPromptedClaudeOutOfOrder: Claude Code may write a turn's prompt
// record after its end; scanned past the end, that record is the ended
// turn's own, not a new prompt. A later prompt is one.
func TestPromptedClaudeOutOfOrder(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	rec := func(fields string) string {
		return `{"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.267","timestamp":"2026-12-02T02:39:27Z",` + fields + "}\n"
	}
	end := rec(`"parentUuid":"u1","type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Which file?"}],"stop_reason":"end_turn"}`) +
		rec(`"parentUuid":"a1","type":"system","subtype":"turn_duration","durationMs":40,"uuid":"d1"`)
	if err := os.WriteFile(path, []byte(end), 0o644); err != nil {
		t.Fatal(err)
	}
	an, err := TakeAnchor(ctx, transcript.Agent, path)
	if err != nil {
		t.Fatal(err)
	}
	agenttest.AppendFile(t, path, agenttest.TranscriptPrompt("s1", "/w", "u1", "fix-the-bug"))
	if p, why, err := Prompted(ctx, an, "u1"); p || err != nil {
		t.Fatalf("the ended turn's own prompt record, written late: prompted %v (%s) %v", p, why, err)
	}
	agenttest.AppendFile(t, path, agenttest.TranscriptPrompt("s1", "/w", "u2", "typed by hand"))
	if p, why, err := Prompted(ctx, an, "u1"); !p || err != nil || !strings.Contains(why, "u2") {
		t.Fatalf("a later prompt: prompted %v (%s) %v", p, why, err)
	}
}
