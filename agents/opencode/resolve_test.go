package opencode

import (
	"context"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The recorded store of a task run (sessiondb/testdata/README.md says
// where it comes from): two main sessions of one cwd.
const (
	runTask = "sessiondb/testdata/run-task.db"
	cwd     = "/tmp/oc-home/work"
)

func TestResolve(t *testing.T) {
	ms := func(n int64) time.Time { return time.UnixMilli(n) }
	const first, second = "ses_db6631c93ffettAvkBlgg82toA", "ses_db6630993ffe4GdbI7XRSND7jq"
	for _, tc := range []struct {
		name    string
		q       query
		state   contract.Identity
		session string
	}{
		{"two main sessions since", query{Since: ms(1796531348000)}, contract.IdentityAmbiguous, ""},
		{"any time", query{}, contract.IdentityAmbiguous, ""},
		{"the later one", query{Since: ms(1796531353000)}, contract.IdentityResolved, second},
		{"the earlier excluded", query{Since: ms(1796531348000), Exclude: []string{first}}, contract.IdentityResolved, second},
		{"the earlier quiet", query{Quiet: map[string]time.Time{first: ms(1796531350884)}}, contract.IdentityResolved, second},
		{"the earlier, updated since quiet", query{Quiet: map[string]time.Time{second: ms(1796531355847), first: ms(1796531350000)}}, contract.IdentityResolved, first},
		{"started after both", query{Since: ms(1796531360000)}, contract.IdentityVerifiedAbsent, ""},
		{"another cwd", query{Cwd: "/tmp/elsewhere"}, contract.IdentityVerifiedAbsent, ""},
		{"no store", query{DB: "sessiondb/testdata/none.db"}, contract.IdentityVerifiedAbsent, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			if q.DB == "" {
				q.DB = runTask
			}
			if q.Cwd == "" {
				q.Cwd = cwd + "/"
			}
			id, err := resolve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if id.State != tc.state || id.SessionID != tc.session || id.Agent != sessiondb.Agent {
				t.Fatalf("got %s %q (%s), want %s %q", id.State, id.SessionID, id.Reason, tc.state, tc.session)
			}
			if id.State == contract.IdentityResolved && (id.Path != runTask || id.Cwd != cwd || id.Version != "1.18.33" || id.File == (evidence.FileID{})) {
				t.Fatalf("resolved: %+v", id)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := resolve(ctx, query{DB: runTask, Cwd: cwd}); err == nil {
		t.Error("a cancelled ctx: no error")
	}
}
