package parrot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/contract"
)

// TestResolve: a process's session is the one of its cwd that started or
// grew since it started; anything else is absent, ambiguous or
// unavailable, never a guess.
func TestResolve(t *testing.T) {
	start := time.Date(2026, 12, 6, 2, 0, 0, 0, time.UTC)
	const cwd = "/home/u/project"
	type file struct {
		name, header string
		mtime        time.Time
	}
	head := func(id, dir string, at time.Time) string {
		return fmt.Sprintf(`{"type":"session","time":%q,"session":%q,"cwd":%q,"version":"1.0.0"}`+"\n", at.Format(time.RFC3339Nano), id, dir)
	}
	old, after := start.Add(-time.Hour), start.Add(2*time.Second)
	for _, tc := range []struct {
		name    string
		files   []file
		quiet   []string
		state   contract.Identity
		session string
	}{
		{"a fresh session", []file{{"a.jsonl", head("a", cwd, after), after}}, nil, contract.IdentityResolved, "a"},
		{"started within the clock's slack", []file{{"a.jsonl", head("a", cwd, start.Add(-300*time.Millisecond)), after}}, nil, contract.IdentityResolved, "a"},
		{"an old session appended since", []file{{"r.jsonl", head("r", cwd, old), after}}, nil, contract.IdentityResolved, "r"},
		{"an old session not touched since", []file{{"o.jsonl", head("o", cwd, old), old}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"another directory's session", []file{{"x.jsonl", head("x", "/home/u/other", after), after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"the file's name is not trusted", []file{{"b.jsonl", head("a", cwd, after), after}}, nil, contract.IdentityResolved, "a"},
		{"a header not yet whole", []file{{"t.jsonl", `{"type":"session","session":"t"`, after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"not a header", []file{{"p.jsonl", `{"type":"prompt","turn":"t","text":"x"}` + "\n", after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"not a session file", []file{{"notes.txt", head("n", cwd, after), after}}, nil, contract.IdentityVerifiedAbsent, ""},
		{"two sessions since", []file{{"a.jsonl", head("a", cwd, after), after}, {"b.jsonl", head("b", cwd, after), after}}, nil, contract.IdentityAmbiguous, ""},
		{"one of two quiet", []file{{"a.jsonl", head("a", cwd, after), after}, {"b.jsonl", head("b", cwd, after), after}}, []string{"a.jsonl"}, contract.IdentityResolved, "b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			quiet := map[string]int64{}
			for _, f := range tc.files {
				p := filepath.Join(root, f.name)
				if err := os.WriteFile(p, []byte(f.header), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range tc.quiet {
				quiet[filepath.Join(root, q)] = int64(len(head("a", cwd, after)))
			}
			id := Agent.Resolve(context.Background(), root, agents.SessionQuery{Cwd: cwd, Since: start, Quiet: quiet})
			if id.State != tc.state || id.SessionID != tc.session {
				t.Fatalf("state %s session %q (%s), want %s %q", id.State, id.SessionID, id.Reason, tc.state, tc.session)
			}
		})
	}
	if id := Agent.Resolve(context.Background(), filepath.Join(t.TempDir(), "none"), agents.SessionQuery{Cwd: cwd, Since: start}); id.State != contract.IdentityVerifiedAbsent {
		t.Errorf("no sessions directory: %s, want verified_absent", id.State)
	}
	if id := Agent.Resolve(context.Background(), "", agents.SessionQuery{Cwd: cwd, Since: start}); id.State != contract.IdentityUnavailable {
		t.Errorf("no root named: %s, want unavailable", id.State)
	}
}

// TestAgent: Parrot is akk's test agent: its rule names only its own
// program, its records have no root on a user's machine, and it is
// marked TestOnly (kept out of the users' lists).
func TestAgent(t *testing.T) {
	r := Agent.Process()
	if r.Agent != Name || len(r.Exes) != 1 || r.Exes[0] != Program || r.NodePackage != "" || r.InstallDir != "" {
		t.Errorf("process rule %+v", r)
	}
	if Agent.Root("/h", func(string) string { return "/x" }) != "" || !Agent.Traits().TestOnly || Agent.Records().Agent != "parrot" {
		t.Errorf("root %q, traits %+v, records %q", Agent.Root("/h", nil), Agent.Traits(), Agent.Records().Agent)
	}
	if SessionsDir("/h") != "/h/.parrot/sessions" {
		t.Errorf("sessions dir %q", SessionsDir("/h"))
	}
}
