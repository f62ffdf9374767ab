package gemini

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// TestProjectHash: the hash Gemini CLI 0.61.0 wrote for /tmp/gh/home/project
// (docs/research/gemini-opencode-offline.md's probe).
func TestProjectHash(t *testing.T) {
	if got := ProjectHash("/tmp/gh/home/project/"); got != "810943070316c1c828178cfb45e12f4901322ac307280f41be668bdf5eee96fc" {
		t.Fatalf("ProjectHash = %s", got)
	}
}

// Testresolve: a process's conversation is the one main session of
// its cwd that started or grew since it started; anything else is
// absent, ambiguous or unavailable, never a guess.
func TestResolve(t *testing.T) {
	start := time.Date(2026, 12, 6, 2, 0, 0, 0, time.UTC)
	const cwd = "/home/u/project"
	type file struct {
		dir, name, header string
		mtime             time.Time
	}
	head := func(id, dir, kind string, at time.Time) string {
		return fmt.Sprintf(`{"sessionId":%q,"projectHash":%q,"startTime":%q,"lastUpdated":%q,"kind":%q}`+"\n",
			id, ProjectHash(dir), at.Format(time.RFC3339Nano), at.Format(time.RFC3339Nano), kind)
	}
	old := start.Add(-time.Hour)
	after := start.Add(2 * time.Second)
	cases := []struct {
		name    string
		files   []file
		exclude []string
		state   contract.Identity
		session string
	}{
		{"a fresh session", []file{{"project", "session-a.jsonl", head("a", cwd, "main", after), after}}, nil, contract.IdentityResolved, "a"},
		{"started within the clock's slack", []file{{"project", "session-a.jsonl", head("a", cwd, "main", start.Add(-300*time.Millisecond)), after}}, nil, contract.IdentityResolved, "a"},
		{"a resumed session appended since", []file{{"project", "session-r.jsonl", head("r", cwd, "main", old), after}}, nil, contract.IdentityResolved, "r"},
		{"an old session not touched since", []file{{"project", "session-o.jsonl", head("o", cwd, "main", old), old}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"another project's session", []file{{"project", "session-x.jsonl", head("x", "/home/u/other", "main", after), after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"the directory name is not trusted", []file{{"other", "session-a.jsonl", head("a", cwd, "main", after), after}}, nil, contract.IdentityResolved, "a"},
		{"a subagent's session", []file{{"project", "session-s.jsonl", head("s", cwd, "subagent", after), after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"a header not yet whole", []file{{"project", "session-t.jsonl", `{"sessionId":"t","projectHa`, after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"not a session file", []file{{"project", "notes.jsonl", head("n", cwd, "main", after), after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"two sessions since", []file{{"project", "session-a.jsonl", head("a", cwd, "main", after), after},
			{"project", "session-b.jsonl", head("b", cwd, "main", after), after}}, nil, contract.IdentityAmbiguous, ""},
		{"one of two excluded", []file{{"project", "session-a.jsonl", head("a", cwd, "main", after), after},
			{"project", "session-b.jsonl", head("b", cwd, "main", after), after}}, []string{"a"}, contract.IdentityResolved, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.files {
				p := filepath.Join(root, f.dir, "chats", f.name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(f.header), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
					t.Fatal(err)
				}
			}
			id, err := resolve(context.Background(), query{TmpRoot: root, Cwd: cwd, Since: start, Exclude: tc.exclude})
			if err != nil {
				t.Fatal(err)
			}
			if id.State != tc.state || id.SessionID != tc.session {
				t.Fatalf("state %s session %q (%s), want %s %q", id.State, id.SessionID, id.Reason, tc.state, tc.session)
			}
		})
	}
	id, _ := resolve(context.Background(), query{TmpRoot: filepath.Join(t.TempDir(), "none"), Cwd: cwd, Since: start})
	if id.State != contract.IdentityVerifiedAbsent {
		t.Errorf("no tmp root: %s, want verified_absent", id.State)
	}
}
