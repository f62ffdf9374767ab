package watchers

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// metaLine is a session_meta line of the documented shape (agents-offline.md).
func metaLine(id, cwd, version string) string {
	return `{"timestamp":"2026-11-30T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id +
		`","timestamp":"2026-11-30T10:00:00.000Z","cwd":"` + cwd + `","originator":"codex_cli_rs","cli_version":"` + version + `"}}` + "\n"
}

// holder starts a process that holds files open (as descriptors 3, 4, ...)
// and kills it at the end of the test. script runs under sh; "sleep 60"
// keeps the descriptors open.
func holder(t *testing.T, script string, files ...string) *exec.Cmd {
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

// waitChild waits until pid has a child process (the holder's sleep).
func waitChild(t *testing.T, pid int) {
	t.Helper()
	tmuxtest.Await(t, waitLimit, tmuxtest.Until("the holder's child", func() bool {
		return len(procid.Descendants([]int{pid})) > 1
	}))
}

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
	appendFile(t, p, metaLine("abc", "/src/app", "0.155.1"))
	// The launcher (sh) runs the native process (sleep) as its child; both
	// hold the rollout, which counts once.
	cmd := holder(t, "sleep 60 & wait", p)
	waitChild(t, cmd.Process.Pid)
	id, err := ResolveCodex(context.Background(), CodexQuery{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root})
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
	appendFile(t, a, metaLine("a", "/src", "0.155.1"))
	appendFile(t, b, metaLine("b", "/src", "0.155.1"))
	outside := filepath.Join(t.TempDir(), "rollout-x.jsonl")
	appendFile(t, outside, metaLine("x", "/src", "0.155.1"))
	ctx := context.Background()
	resolve := func(pids ...int) NativeIdentity {
		t.Helper()
		id, err := ResolveCodex(ctx, CodexQuery{PIDs: pids, SessionsRoot: root})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}

	two := holder(t, "exec sleep 60", a, b)
	if id := resolve(two.Process.Pid); id.State != contract.IdentityAmbiguous || len(id.Candidates) != 2 {
		t.Fatalf("two rollouts: %+v", id)
	}
	none := holder(t, "exec sleep 60", outside)
	if id := resolve(none.Process.Pid); id.State != contract.IdentityVerifiedAbsent || id.Checked == 0 {
		t.Fatalf("no rollout: %+v", id)
	}

	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if id := resolve(gone.Process.Pid); id.State != contract.IdentityUnavailable {
		t.Fatalf("exited process: %+v", id)
	}

	c := filepath.Join(day, "rollout-c.jsonl")
	appendFile(t, c, metaLine("c", "/src", "0.155.1"))
	del := holder(t, "exec sleep 60", c)
	os.Remove(c)
	if id := resolve(del.Process.Pid); id.State != contract.IdentityUnavailable || !strings.Contains(id.Reason, "deleted") {
		t.Fatalf("deleted rollout: %+v", id)
	}

	bad := filepath.Join(day, "rollout-bad.jsonl")
	appendFile(t, bad, `{"type":"event_msg","payload":{"type":"task_started"}}`+"\n")
	noMeta := holder(t, "exec sleep 60", bad)
	if id := resolve(noMeta.Process.Pid); id.State != contract.IdentityUnavailable {
		t.Fatalf("rollout without session_meta: %+v", id)
	}

	if id, err := ResolveCodex(ctx, CodexQuery{PIDs: []int{two.Process.Pid}, SessionsRoot: filepath.Join(root, "missing")}); err != nil || id.State != contract.IdentityUnavailable {
		t.Fatalf("missing root: %+v %v", id, err)
	}
	if _, err := ResolveCodex(ctx, CodexQuery{SessionsRoot: root}); err == nil {
		t.Fatal("no pids: no error")
	}
}

// claudeLineFor is a user record of the documented transcript shape.
func claudeLineFor(session, cwd, uuid, text string) string {
	return `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + session +
		`","version":"2.1.267","type":"user","message":{"role":"user","content":"` + text + `"},"uuid":"` + uuid +
		`","timestamp":"2026-11-30T10:00:00.000Z"}` + "\n"
}

func TestResolveClaude(t *testing.T) {
	root := t.TempDir()
	mk := func(slug, name, body string) string {
		d := filepath.Join(root, slug)
		os.MkdirAll(d, 0o700)
		p := filepath.Join(d, name)
		appendFile(t, p, body)
		return p
	}
	// s1 sits in the slug directory of /work/app; s2 carries /work/app in
	// its records but sits under another slug; s3 sits under /work/app's
	// slug but its records say another cwd.
	s1 := mk("-work-app", "s1.jsonl", claudeLineFor("s1", "/work/app", "u1", "hi"))
	s2 := mk("-elsewhere", "s2.jsonl", claudeLineFor("s2", "/work/app", "u2", "hi"))
	mk("-work-app", "s3.jsonl", claudeLineFor("s3", "/other", "u3", "hi"))
	ctx := context.Background()
	resolve := func(q ClaudeQuery) NativeIdentity {
		t.Helper()
		q.ProjectsRoot = cmpOrString(q.ProjectsRoot, root)
		id, err := ResolveClaude(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if id := resolve(ClaudeQuery{Cwd: "/work/app"}); id.State != contract.IdentityAmbiguous || len(id.Candidates) != 2 {
		t.Fatalf("two transcripts: %+v", id)
	}
	if id := resolve(ClaudeQuery{Cwd: "/work/app", SessionID: "s2"}); id.State != contract.IdentityResolved || id.Path != s2 {
		t.Fatalf("by session id: %+v", id)
	}
	// The timing of appends: s1 was last written before the process began.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(s1, old, old)
	if id := resolve(ClaudeQuery{Cwd: "/work/app", Since: time.Now().Add(-time.Minute)}); id.State != contract.IdentityResolved || id.SessionID != "s2" {
		t.Fatalf("since: %+v", id)
	}
	if id := resolve(ClaudeQuery{Cwd: "/nowhere"}); id.State != contract.IdentityVerifiedAbsent || id.Checked != 3 {
		t.Fatalf("no transcript: %+v", id)
	}
	if id := resolve(ClaudeQuery{Cwd: "/work/app", ProjectsRoot: filepath.Join(root, "missing")}); id.State != contract.IdentityVerifiedAbsent {
		t.Fatalf("missing root: %+v", id)
	}
}

// The last record with a sessionId decides; when the end of the file has
// none, the head is read.
func TestResolveClaudeReadsTailThenHead(t *testing.T) {
	root := t.TempDir()
	d := filepath.Join(root, "-p")
	os.MkdirAll(d, 0o700)
	p := filepath.Join(d, "s.jsonl")
	body := claudeLineFor("s", "/old", "u1", "first") + claudeLineFor("s", "/p", "u2", "moved")
	for range 50 {
		body += `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n"
	}
	appendFile(t, p, body)
	id, err := ResolveClaude(context.Background(), ClaudeQuery{ProjectsRoot: root, Cwd: "/p", TailBytes: 200})
	if err != nil {
		t.Fatal(err)
	}
	if id.State != contract.IdentityResolved || id.Candidates[0].Offset != int64(len(claudeLineFor("s", "/old", "u1", "first"))) {
		t.Fatalf("identity %+v", id)
	}
}

func cmpOrString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// A recorded transcript in a projects tree: found by the cwd its records
// carry, also when the window read at its end starts in mid-chain (its
// first records' parents lie before the window).
func TestResolveClaudeRecordedTranscript(t *testing.T) {
	for _, f := range evidencetest.Journals(t) {
		if f.Agent != "claude" || f.Surface != "permission-approve" {
			continue
		}
		data, err := os.ReadFile(f.Journal)
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := parseFile(t, evidence.Claude, f.Journal, data)
		var want evidence.SessionIdentity
		for _, ev := range evs {
			if si, ok := ev.(evidence.SessionIdentity); ok && si.Cwd != "" {
				want = si
			}
		}
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "-somewhere-else"), 0o700)
		appendFile(t, filepath.Join(root, "-somewhere-else", want.SessionID+".jsonl"), string(data))
		for _, tail := range []int64{0, 3000} {
			// HeadBytes too short for a line: only the end can decide.
			id, err := ResolveClaude(context.Background(), ClaudeQuery{ProjectsRoot: root, Cwd: want.Cwd, TailBytes: tail, HeadBytes: 100})
			if err != nil {
				t.Fatal(err)
			}
			if id.State != contract.IdentityResolved || id.SessionID != want.SessionID || id.Version != f.Version {
				t.Fatalf("%s, tail %d: %+v", f.Journal, tail, id)
			}
		}
	}
}

// A recorded rollout of every pinned Codex version held open: resolved
// from its real session_meta line (~20 KB, several times the reader's
// buffer).
func TestResolveCodexRecordedRollouts(t *testing.T) {
	versions := map[string]bool{}
	for _, f := range evidencetest.Journals(t) {
		if f.Agent != "codex" || f.Surface != "send" {
			continue
		}
		data, err := os.ReadFile(f.Journal)
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := parseFile(t, evidence.Codex, f.Journal, data)
		want, ok := evs[0].(evidence.SessionIdentity)
		if !ok {
			t.Fatalf("%s: first event %s", f.Journal, describe(evs[0]))
		}
		root, day := sessionsTree(t)
		p := filepath.Join(day, "rollout-2026-11-30T04-00-00-"+want.SessionID+".jsonl")
		appendFile(t, p, string(data))
		cmd := holder(t, "exec sleep 60", p)
		id, err := ResolveCodex(context.Background(), CodexQuery{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root})
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
	appendFile(t, a, metaLine("a", "/src", "0.155.1"))
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
	appendFile(t, bad, `{"type":"event_msg","payload":{"type":"task_started"}}`+"\n")
	badLink := filepath.Join(link, "9")
	if err := os.Symlink(bad, badLink); err != nil {
		t.Fatal(err)
	}
	if c, ok := rolloutCandidate(42, procid.FD{N: 9, Target: bad, Path: badLink}, root); !ok || c.SessionID != "" {
		t.Fatalf("a rollout without session_meta: %+v %v", c, ok)
	}
}
