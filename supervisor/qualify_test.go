package supervisor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
)

// TestQualifierStart: a qualification request is checked before anything
// runs: a daemon without a qualify directory, a request naming both a
// terminal and a binary or neither, a program that is no agent, a pinned
// version without a base are refused; a second request while one is
// queued is refused as running.
func TestQualifierStart(t *testing.T) {
	fake := func(version string) string {
		dir := t.TempDir()
		pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
		bin := filepath.Join(pkg, "bin", "claude.exe")
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"`+version+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, []byte("ELF"), 0o755); err != nil {
			t.Fatal(err)
		}
		return bin
	}
	cl := procid.NewClassifier(procid.Options{Rules: agentreg.ProcessRules()})
	q := &qualifier{dir: t.TempDir(), lg: testLogger(t), ident: cl, profiles: &qualifiedProfiles{ident: cl},
		jobs: make(chan qualifyJob, 1), now: time.Now}
	noView := func(string) (*procid.Identity, bool) { return nil, false }
	unpinned := fake("2.1.999")
	for _, tc := range []struct {
		name string
		q    *qualifier
		req  api.QualifyRequest
		want string
	}{
		{"no qualify directory", &qualifier{}, api.QualifyRequest{Binary: unpinned}, "runs no qualification"},
		{"both", q, api.QualifyRequest{TerminalID: "term_x", Binary: unpinned}, "not both"},
		{"neither", q, api.QualifyRequest{}, "is required"},
		{"an unknown terminal", q, api.QualifyRequest{TerminalID: "term_x"}, "no terminal"},
		{"not an agent", q, api.QualifyRequest{Binary: "/bin/sh"}, "no package.json"},
		{"pinned", q, api.QualifyRequest{Binary: fake("2.1.332")}, "is pinned"},
		{"a base without recordings", q, api.QualifyRequest{Binary: unpinned, Base: "2.1.100"}, "not a pinned version with recordings"},
	} {
		_, err := tc.q.start(tc.req, noView)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	started, err := q.start(api.QualifyRequest{Binary: unpinned}, noView)
	if err != nil || started.Agent != "claude" || started.Version != "2.1.999" || started.Base != "2.1.332" || started.Scenarios == 0 {
		t.Fatalf("start: %+v %v", started, err)
	}
	if _, err := q.start(api.QualifyRequest{Binary: unpinned}, noView); err == nil || !strings.Contains(err.Error(), api.ReasonQualifyBusy) {
		t.Errorf("a second start while one is queued: %v", err)
	}
	if job := <-q.jobs; job.run != started.Run || job.cfg.Parent != q.dir {
		t.Errorf("the queued job %+v", job)
	}
}
