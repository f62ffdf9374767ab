package claude

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func TestResolve(t *testing.T) {
	root := t.TempDir()
	mk := func(slug, name, body string) string {
		d := filepath.Join(root, slug)
		os.MkdirAll(d, 0o700)
		p := filepath.Join(d, name)
		agenttest.AppendFile(t, p, body)
		return p
	}
	// s1 sits in the slug directory of /work/app; s2 carries /work/app in
	// its records but sits under another slug; s3 sits under /work/app's
	// slug but its records say another cwd.
	s1 := mk("-work-app", "s1.jsonl", agenttest.TranscriptLine("s1", "/work/app", "u1", "hi"))
	s2 := mk("-elsewhere", "s2.jsonl", agenttest.TranscriptLine("s2", "/work/app", "u2", "hi"))
	mk("-work-app", "s3.jsonl", agenttest.TranscriptLine("s3", "/other", "u3", "hi"))
	ctx := context.Background()
	resolve := func(q query) watchers.NativeIdentity {
		t.Helper()
		q.ProjectsRoot = cmpOrString(q.ProjectsRoot, root)
		id, err := resolve(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if id := resolve(query{Cwd: "/work/app"}); id.State != contract.IdentityAmbiguous || len(id.Candidates) != 2 {
		t.Fatalf("two transcripts: %+v", id)
	}
	if id := resolve(query{Cwd: "/work/app", SessionID: "s2"}); id.State != contract.IdentityResolved || id.Path != s2 {
		t.Fatalf("by session id: %+v", id)
	}
	// The timing of appends: s1 was last written before the process began.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(s1, old, old)
	if id := resolve(query{Cwd: "/work/app", Since: time.Now().Add(-time.Minute)}); id.State != contract.IdentityResolved || id.SessionID != "s2" {
		t.Fatalf("since: %+v", id)
	}
	if id := resolve(query{Cwd: "/nowhere"}); id.State != contract.IdentityVerifiedAbsent || id.Checked != 3 {
		t.Fatalf("no transcript: %+v", id)
	}
	if id := resolve(query{Cwd: "/work/app", ProjectsRoot: filepath.Join(root, "missing")}); id.State != contract.IdentityVerifiedAbsent {
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
	body := agenttest.TranscriptLine("s", "/old", "u1", "first") + agenttest.TranscriptLine("s", "/p", "u2", "moved")
	for range 50 {
		body += `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n"
	}
	agenttest.AppendFile(t, p, body)
	id, err := resolve(context.Background(), query{ProjectsRoot: root, Cwd: "/p", TailBytes: 200})
	if err != nil {
		t.Fatal(err)
	}
	if id.State != contract.IdentityResolved || id.Candidates[0].Offset != int64(len(agenttest.TranscriptLine("s", "/old", "u1", "first"))) {
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
	for _, f := range evidencetest.RecordedJournals(t, transcript.Format, "permission-approve") {
		var want evidence.SessionIdentity
		for _, ev := range f.Events {
			if si, ok := ev.(evidence.SessionIdentity); ok && si.Cwd != "" {
				want = si
			}
		}
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "-somewhere-else"), 0o700)
		agenttest.AppendFile(t, filepath.Join(root, "-somewhere-else", want.SessionID+".jsonl"), string(f.Data))
		for _, tail := range []int64{0, 3000} {
			// HeadBytes too short for a line: only the end can decide.
			id, err := resolve(context.Background(), query{ProjectsRoot: root, Cwd: want.Cwd, TailBytes: tail, HeadBytes: 100})
			if err != nil {
				t.Fatal(err)
			}
			if id.State != contract.IdentityResolved || id.SessionID != want.SessionID || id.Version != f.Version {
				t.Fatalf("%s, tail %d: %+v", f.Journal, tail, id)
			}
		}
	}
}

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
	agenttest.AppendFile(t, filepath.Join(d, first+".jsonl"), agenttest.TranscriptLine(first, "/work/app", "u1", "hi"))
	agenttest.AppendFile(t, filepath.Join(d, second+".jsonl"), agenttest.TranscriptLine(second, "/work/app", "u2", "/clear"))
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
	q := query{ProjectsRoot: root, Cwd: "/work/app", PIDs: []int{pid}}
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
			id, err := resolve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if id.State != c.state || id.SessionID != c.want {
				t.Fatalf("%s %q (%s), want %s %q", id.State, id.SessionID, id.Reason, c.state, c.want)
			}
		})
	}
}

// BenchmarkResolveClaude: a pane's identity among 1000 transcripts in 20
// projects, by the transcripts' records (every file's tail read) and by
// the process's session record (one name looked up per project).
func BenchmarkResolve(b *testing.B) {
	home := b.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	var target string
	for p := range 20 {
		d := filepath.Join(root, "-work-p"+strconv.Itoa(p))
		os.MkdirAll(d, 0o700)
		for i := range 50 {
			id := "00000000-0000-4000-8000-" + strconv.Itoa(100000000000+p*1000+i)
			f, _ := os.Create(filepath.Join(d, id+".jsonl"))
			f.WriteString(agenttest.TranscriptLine(id, "/work/p"+strconv.Itoa(p), "u", "hi"))
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
		q    query
	}{
		{"records", query{ProjectsRoot: root, Cwd: "/work/p19", SessionID: target}},
		{"session-record", query{ProjectsRoot: root, Cwd: "/work/p19", PIDs: []int{pid}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if id, err := resolve(ctx, c.q); err != nil || id.State != contract.IdentityResolved {
					b.Fatalf("%+v %v", id, err)
				}
			}
			b.ReportMetric(1000, "transcripts")
		})
	}
}
