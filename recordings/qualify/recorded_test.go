package qualify

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
)

// recorded are qualification runs of two unpinned versions kept in
// testdata (akk qualify --out), with what each marker must be judged:
// Claude Code 2.1.337 draws its questionnaire's top rule in the default
// colour where 2.1.332 drew it grey, so its question fails while its
// permission passes; Codex 0.170.0 draws every core surface as 0.171.0.
var recorded = []struct {
	agent, version, base, scenario string
	want                           string // the findings, "surface outcome" joined by ", "
	diff                           string // a failure's first differing check names this
}{
	{"claude", "2.1.337", "2.1.332", "permission-approve", "permission.shell passed, composer.idle passed", ""},
	{"claude", "2.1.337", "2.1.332", "question-digit", "question.single failed, composer.idle passed", "claude21.dialogTopRule"},
	{"codex", "0.170.0", "0.171.0", "send", "composer.idle passed", ""},
	{"codex", "0.170.0", "0.171.0", "permission-approve", "permission.shell passed, composer.idle passed", ""},
	{"codex", "0.170.0", "0.171.0", "permission-reject", "permission.shell read_only, blocked passed", ""},
	{"codex", "0.170.0", "0.171.0", "question-digit", "question.single passed, composer.idle passed", ""},
	{"codex", "0.170.0", "0.171.0", "question-notes", "question.single passed, question.single passed, free_text passed, composer.idle passed", ""},
	{"codex", "0.170.0", "0.171.0", "question-unanswered", "confirmation passed, composer.idle passed", ""},
}

// TestReplayQualifyRecorded judges recorded runs of unpinned binaries
// with their bases, as akk qualify does after each run.
func TestReplayQualifyRecorded(t *testing.T) {
	for _, tc := range recorded {
		t.Run(tc.agent+"/"+tc.version+"/"+tc.scenario, func(t *testing.T) {
			if base, err := Nearest(tc.agent, tc.version); err != nil || base != tc.base {
				t.Fatalf("Nearest = %s %v, want %s", base, err, tc.base)
			}
			rec := screentest.LoadCast(t, filepath.Join("testdata", tc.agent, tc.version, tc.scenario+".cast"))
			if rec.Header.Akk.Version != tc.version {
				t.Fatalf("the recording says version %s", rec.Header.Akk.Version)
			}
			marks, err := replaycheck.Read(rec, recognizers.Lookup(tc.agent, tc.base))
			if err != nil {
				t.Fatal(err)
			}
			expected, ok := Expected(tc.agent, tc.base, tc.scenario)
			if !ok {
				t.Fatal("no expected surfaces")
			}
			var got []string
			for _, f := range Judge(expected, marks, nil) {
				got = append(got, fmt.Sprintf("%s %s", f.Surface, f.Outcome))
				if f.Outcome == Failed && !strings.Contains(f.Detail, tc.diff) {
					t.Errorf("marker %d: %s, want the first differing check %s", f.Marker, f.Detail, tc.diff)
				}
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("findings %q, want %q", g, tc.want)
			}
		})
	}
}
