package watchers

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// TestResolveClaudeRegistered: a live process's session record
// (~/.claude/sessions/<pid>.json, beside the projects root) names its
// session exactly, where the transcript timing would be ambiguous (a
// /clear leaves two transcripts appended since the start); a record left
// by an earlier process with the pid, or of another cwd, is ignored and
// the old rule applies.
func TestResolveClaudeRegistered(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	d := filepath.Join(root, "-work-app")
	os.MkdirAll(d, 0o700)
	os.MkdirAll(filepath.Join(home, ".claude", "sessions"), 0o700)
	const first, second, fresh = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222",
		"33333333-3333-4333-8333-333333333333"
	appendFile(t, filepath.Join(d, first+".jsonl"), claudeLineFor(first, "/work/app", "u1", "hi"))
	appendFile(t, filepath.Join(d, second+".jsonl"), claudeLineFor(second, "/work/app", "u2", "/clear"))
	pid := os.Getpid()
	st, err := procid.ReadStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	record := func(session, cwd string, start uint64) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"pid": pid, "sessionId": session, "cwd": cwd, "procStart": strconv.FormatUint(start, 10)})
		if err := os.WriteFile(filepath.Join(home, ".claude", "sessions", strconv.Itoa(pid)+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	q := ClaudeQuery{ProjectsRoot: root, Cwd: "/work/app", PIDs: []int{pid}}
	for _, c := range []struct {
		name         string
		session, cwd string
		start        uint64
		state        contract.Identity
		want         string
	}{
		{"the record names the new conversation", second, "/work/app", st.StartTime, contract.IdentityResolved, second},
		{"the record names the earlier one (a /resume)", first, "/work/app", st.StartTime, contract.IdentityResolved, first},
		{"the record names a session with no transcript yet", fresh, "/work/app", st.StartTime, contract.IdentityVerifiedAbsent, ""},
		{"a record an earlier process left: the old rule", second, "/work/app", st.StartTime + 1, contract.IdentityAmbiguous, ""},
		{"a record of another cwd: the old rule", second, "/elsewhere", st.StartTime, contract.IdentityAmbiguous, ""},
		{"a record whose id names a path: unusable", "../x", "/work/app", st.StartTime, contract.IdentityUnavailable, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			record(c.session, c.cwd, c.start)
			id, err := ResolveClaude(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if id.State != c.state || id.SessionID != c.want {
				t.Fatalf("%s %q (%s), want %s %q", id.State, id.SessionID, id.Reason, c.state, c.want)
			}
		})
	}
}

// TestResolveCodexQuiet: rollouts the process left are no candidates while
// they do not grow (Codex keeps every rollout it wrote open).
func TestResolveCodexQuiet(t *testing.T) {
	root, day := sessionsTree(t)
	a := filepath.Join(day, "rollout-2026-11-30T10-00-00-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl")
	b := filepath.Join(day, "rollout-2026-11-30T10-05-00-bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb.jsonl")
	appendFile(t, a, metaLine("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "/work", "0.155.1")+"\n")
	appendFile(t, b, metaLine("bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", "/work", "0.155.1")+"\n")
	cmd := holder(t, "sleep 60", a, b)
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(quiet map[string]int64) NativeIdentity {
		t.Helper()
		id, err := ResolveCodex(context.Background(), CodexQuery{PIDs: []int{cmd.Process.Pid}, SessionsRoot: root, Quiet: quiet})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if id := resolve(nil); id.State != contract.IdentityAmbiguous {
		t.Fatalf("both open: %+v", id)
	}
	if id := resolve(map[string]int64{a: fi.Size()}); id.State != contract.IdentityResolved || id.Path != b {
		t.Fatalf("a left: %+v", id)
	}
	if id := resolve(map[string]int64{a: fi.Size(), b: 1 << 20}); id.State != contract.IdentityVerifiedAbsent {
		t.Fatalf("both left (a new conversation before its first prompt): %+v", id)
	}
	appendFile(t, a, `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`+"\n")
	if id := resolve(map[string]int64{a: fi.Size()}); id.State != contract.IdentityAmbiguous {
		t.Fatalf("a grew again (a person's /resume): %+v", id)
	}
}

// BenchmarkResolveClaude: a pane's identity among 1000 transcripts in 20
// projects, by the transcripts' records (every file's tail read) and by
// the process's session record (one name looked up per project).
func BenchmarkResolveClaude(b *testing.B) {
	home := b.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	var target string
	for p := range 20 {
		d := filepath.Join(root, "-work-p"+strconv.Itoa(p))
		os.MkdirAll(d, 0o700)
		for i := range 50 {
			id := "00000000-0000-4000-8000-" + strconv.Itoa(100000000000+p*1000+i)
			f, _ := os.Create(filepath.Join(d, id+".jsonl"))
			f.WriteString(claudeLineFor(id, "/work/p"+strconv.Itoa(p), "u", "hi"))
			f.Close()
			target = id
		}
	}
	os.MkdirAll(filepath.Join(home, ".claude", "sessions"), 0o700)
	pid := os.Getpid()
	st, _ := procid.ReadStat(pid)
	rec, _ := json.Marshal(map[string]any{"pid": pid, "sessionId": target, "cwd": "/work/p19", "procStart": strconv.FormatUint(st.StartTime, 10)})
	os.WriteFile(filepath.Join(home, ".claude", "sessions", strconv.Itoa(pid)+".json"), rec, 0o600)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		q    ClaudeQuery
	}{
		{"records", ClaudeQuery{ProjectsRoot: root, Cwd: "/work/p19", SessionID: target}},
		{"session-record", ClaudeQuery{ProjectsRoot: root, Cwd: "/work/p19", PIDs: []int{pid}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if id, err := ResolveClaude(ctx, c.q); err != nil || id.State != contract.IdentityResolved {
					b.Fatalf("%+v %v", id, err)
				}
			}
			b.ReportMetric(1000, "transcripts")
		})
	}
}
