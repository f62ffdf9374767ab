package codex

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func sessionsTree(t *testing.T) (root, day string) {
	root = t.TempDir()
	day = filepath.Join(root, "2026", "11", "30")
	if err := os.MkdirAll(day, 0o700); err != nil {
		t.Fatal(err)
	}
	return root, day
}

func TestResolveCodexResolvedThroughLauncher(t *testing.T) {
	root, day := sessionsTree(t)
	p := filepath.Join(day, "rollout-2026-11-30T10-00-00-abc.jsonl")
	agenttest.AppendFile(t, p, agenttest.RolloutMeta("abc", "/src/app", "0.155.1"))
	// The launcher (sh) runs the native process (sleep) as its child; both
	// hold the rollout, which counts once.
	cmd := agenttest.HoldOpen(t, "sleep 60 & wait", p)
	agenttest.AwaitChild(t, cmd.Process.Pid)
	id, err := resolve(context.Background(), query{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if id.State != contract.IdentityResolved || id.SessionID != "abc" || id.Cwd != "/src/app" || id.Version != "0.155.1" || id.Path != p {
		t.Fatalf("identity %+v", id)
	}
	if c := id.Candidates[0]; c.FD != 3 || c.File == (evidence.FileID{}) {
		t.Fatalf("candidate %+v", c)
	}
}

func TestResolveCodexStates(t *testing.T) {
	root, day := sessionsTree(t)
	a := filepath.Join(day, "rollout-a.jsonl")
	b := filepath.Join(day, "rollout-b.jsonl")
	agenttest.AppendFile(t, a, agenttest.RolloutMeta("a", "/src", "0.155.1"))
	agenttest.AppendFile(t, b, agenttest.RolloutMeta("b", "/src", "0.155.1"))
	outside := filepath.Join(t.TempDir(), "rollout-x.jsonl")
	agenttest.AppendFile(t, outside, agenttest.RolloutMeta("x", "/src", "0.155.1"))
	ctx := context.Background()
	resolvePIDs := func(pids ...int) watchers.NativeIdentity {
		t.Helper()
		id, err := resolve(ctx, query{PIDs: pids, SessionsRoot: root})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}

	two := agenttest.HoldOpen(t, "exec sleep 60", a, b)
	if id := resolvePIDs(two.Process.Pid); id.State != contract.IdentityAmbiguous || len(id.Candidates) != 2 {
		t.Fatalf("two rollouts: %+v", id)
	}
	none := agenttest.HoldOpen(t, "exec sleep 60", outside)
	if id := resolvePIDs(none.Process.Pid); id.State != contract.IdentityVerifiedAbsent || id.Checked == 0 {
		t.Fatalf("no rollout: %+v", id)
	}

	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if id := resolvePIDs(gone.Process.Pid); id.State != contract.IdentityUnavailable {
		t.Fatalf("exited process: %+v", id)
	}

	c := filepath.Join(day, "rollout-c.jsonl")
	agenttest.AppendFile(t, c, agenttest.RolloutMeta("c", "/src", "0.155.1"))
	del := agenttest.HoldOpen(t, "exec sleep 60", c)
	os.Remove(c)
	if id := resolvePIDs(del.Process.Pid); id.State != contract.IdentityUnavailable || !strings.Contains(id.Reason, "deleted") {
		t.Fatalf("deleted rollout: %+v", id)
	}

	bad := filepath.Join(day, "rollout-bad.jsonl")
	agenttest.AppendFile(t, bad, `{"type":"event_msg","payload":{"type":"task_started"}}`+"\n")
	noMeta := agenttest.HoldOpen(t, "exec sleep 60", bad)
	if id := resolvePIDs(noMeta.Process.Pid); id.State != contract.IdentityUnavailable {
		t.Fatalf("rollout without session_meta: %+v", id)
	}

	if id, err := resolve(ctx, query{PIDs: []int{two.Process.Pid}, SessionsRoot: filepath.Join(root, "missing")}); err != nil || id.State != contract.IdentityUnavailable {
		t.Fatalf("missing root: %+v %v", id, err)
	}
	if _, err := resolve(ctx, query{SessionsRoot: root}); err == nil {
		t.Fatal("no pids: no error")
	}
}

// A recorded rollout of every pinned Codex version held open: resolved
// from its real session_meta line (~20 KB, several times the reader's
// buffer).
func TestResolveCodexRecordedRollouts(t *testing.T) {
	versions := map[string]bool{}
	for _, f := range evidencetest.RecordedJournals(t, rollout.Format, "send") {
		want, ok := f.Events[0].(evidence.SessionIdentity)
		if !ok {
			t.Fatalf("%s: first event %s", f.Journal, evidencetest.Describe(f.Events[0]))
		}
		root, day := sessionsTree(t)
		p := filepath.Join(day, "rollout-2026-11-30T04-00-00-"+want.SessionID+".jsonl")
		agenttest.AppendFile(t, p, string(f.Data))
		cmd := agenttest.HoldOpen(t, "exec sleep 60", p)
		id, err := resolve(context.Background(), query{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root})
		if err != nil {
			t.Fatal(err)
		}
		if id.State != contract.IdentityResolved || id.SessionID != want.SessionID || id.Cwd != want.Cwd || id.Version != f.Version || id.Path != p {
			t.Fatalf("%s: %+v", f.Journal, id)
		}
		versions[f.Version] = true
	}
	if len(versions) < 2 {
		t.Fatalf("recorded Codex versions checked: %v", versions)
	}
}

// TestRolloutCandidateClosed: a descriptor listed under a rollout's name
// that can no longer be opened (closed meanwhile, or its process exited:
// an exec child ending while the binder looks) holds nothing; one that
// opens is the rollout, and one whose first line is no session_meta is a
// candidate without a session (unavailable, not skipped).
func TestRolloutCandidateClosed(t *testing.T) {
	root, day := sessionsTree(t)
	a := filepath.Join(day, "rollout-a.jsonl")
	agenttest.AppendFile(t, a, agenttest.RolloutMeta("a", "/src", "0.155.1"))
	link := filepath.Join(t.TempDir(), "fd")
	if err := os.MkdirAll(link, 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(link, "7") // a dangling link: the fd is closed
	if err := os.Symlink(filepath.Join(day, "rollout-gone.jsonl"), gone); err != nil {
		t.Fatal(err)
	}
	if c, ok := rolloutCandidate(42, procid.FD{N: 7, Target: filepath.Join(day, "rollout-gone.jsonl"), Path: gone}, root); ok {
		t.Fatalf("a closed descriptor is a candidate: %+v", c)
	}
	open := filepath.Join(link, "8")
	if err := os.Symlink(a, open); err != nil {
		t.Fatal(err)
	}
	c, ok := rolloutCandidate(42, procid.FD{N: 8, Target: a, Path: open}, root)
	if !ok || c.SessionID != "a" || c.File == (evidence.FileID{}) {
		t.Fatalf("the open rollout: %+v %v", c, ok)
	}
	bad := filepath.Join(day, "rollout-bad.jsonl")
	agenttest.AppendFile(t, bad, `{"type":"event_msg","payload":{"type":"task_started"}}`+"\n")
	badLink := filepath.Join(link, "9")
	if err := os.Symlink(bad, badLink); err != nil {
		t.Fatal(err)
	}
	if c, ok := rolloutCandidate(42, procid.FD{N: 9, Target: bad, Path: badLink}, root); !ok || c.SessionID != "" {
		t.Fatalf("a rollout without session_meta: %+v %v", c, ok)
	}
}

// TestResolveCodexQuiet: rollouts the process left are no candidates while
// they do not grow (Codex keeps every rollout it wrote open).
func TestResolveCodexQuiet(t *testing.T) {
	root, day := sessionsTree(t)
	a := filepath.Join(day, "rollout-2026-11-30T10-00-00-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl")
	b := filepath.Join(day, "rollout-2026-11-30T10-05-00-bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb.jsonl")
	agenttest.AppendFile(t, a, agenttest.RolloutMeta("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "/work", "0.155.1")+"\n")
	agenttest.AppendFile(t, b, agenttest.RolloutMeta("bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", "/work", "0.155.1")+"\n")
	cmd := agenttest.HoldOpen(t, "sleep 60", a, b)
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	resolveQuiet := func(quiet map[string]int64) watchers.NativeIdentity {
		t.Helper()
		id, err := resolve(context.Background(), query{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root, Quiet: quiet})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if id := resolveQuiet(nil); id.State != contract.IdentityAmbiguous {
		t.Fatalf("both open: %+v", id)
	}
	if id := resolveQuiet(map[string]int64{a: fi.Size()}); id.State != contract.IdentityResolved || id.Path != b {
		t.Fatalf("a left: %+v", id)
	}
	if id := resolveQuiet(map[string]int64{a: fi.Size(), b: 1 << 20}); id.State != contract.IdentityVerifiedAbsent {
		t.Fatalf("both left (a new conversation before its first prompt): %+v", id)
	}
	agenttest.AppendFile(t, a, `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`+"\n")
	if id := resolveQuiet(map[string]int64{a: fi.Size()}); id.State != contract.IdentityAmbiguous {
		t.Fatalf("a grew again (a person's /resume): %+v", id)
	}
}
