package recognizers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// TestExplainPinned pins `akk recognize --explain` on screens of every
// kind: actionable dialogs of both agents, plan mode, an idle screen, a
// version read generically, and screens akk refuses (a secret question,
// a changed menu). Rewrite with -rewrite and review the diff: a rule
// renamed or reordered shows here.
func TestExplainPinned(t *testing.T) {
	for _, tc := range []struct {
		name, agent, version, surface string
		marker                        int
		as                            string // the version to read it as ("": its own)
		mutate                        func(r *recognizers.Recognition, scr *vt.Screen)
	}{
		{"claude-edit", "claude", "2.1.267", "edit-approve", 0, "", nil},
		{"claude-plan", "claude", "2.1.332", "plan-approve", 0, "", nil},
		{"claude-idle", "claude", "2.1.332", "idle", 0, "", nil},
		{"claude-generic", "claude", "2.1.267", "permission-approve", 0, "2.1.999", nil},
		{"claude-secret", "claude", "2.1.267", "question-secret", 0, "", nil},
		{"claude-option-missing", "claude", "2.1.267", "edit-approve", 0, "", func(r *recognizers.Recognition, scr *vt.Screen) {
			screentest.BlankRow(scr, r.Prompt.Questions[0].Options[1].Row)
		}},
		{"codex-patch", "codex", "0.171.0", "apply-patch-approve", 0, "", nil},
		{"codex-exec", "codex", "0.155.1", "permission-approve", 0, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scr := screentest.MarkerScreen(t, tc.agent, tc.version, tc.surface, tc.marker)
			as := tc.version
			if tc.as != "" {
				as = tc.as
			}
			p := recognizers.Lookup(tc.agent, as)
			if tc.mutate != nil {
				r := recognizers.Recognize(p, scr, recognizers.TestKey)
				tc.mutate(&r, scr)
			}
			ex := recognizers.Explain(p, scr, recognizers.TestKey)
			var b bytes.Buffer
			ex.Write(&b)
			got := b.String()
			if want := recognizers.Recognize(p, scr, recognizers.TestKey); ex.Recognition.ScreenState != want.ScreenState ||
				ex.Recognition.Actionable() != want.Actionable() || ex.Recognition.Fingerprint != want.Fingerprint {
				t.Errorf("Explain's recognition %s/%v differs from Recognize's %s/%v", ex.Recognition.ScreenState,
					ex.Recognition.Actionable(), want.ScreenState, want.Actionable())
			}
			if !strings.Contains(got, "profile "+tc.agent+"@") || !strings.Contains(got, "\nresult ") {
				t.Errorf("no profile or result:\n%s", got)
			}
			path := filepath.Join("testdata", "explain", tc.name+".txt")
			want, err := os.ReadFile(path)
			switch {
			case *rewrite:
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			case err != nil:
				t.Fatalf("%v (create it with go test -run TestExplainPinned -rewrite)", err)
			case string(want) != got:
				t.Errorf("%s differs (go test -run TestExplainPinned -rewrite, then review the diff):\n%s", path, got)
			}
		})
	}
}
