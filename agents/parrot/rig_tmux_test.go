package parrot_test

import (
	"context"
	"flag"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	_ "github.com/agent-knock-knock/akk/agents/parrot/parrotrig" // its rig part: rig.Run finds the agent

	"github.com/agent-knock-knock/akk/agents/parrot/sessions"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// record: TestTmuxParrotRig writes its recordings into testdata/<version>
// (go test ./agents/parrot -run TestTmuxParrotRig -record), where the
// replay tests read them.
var record = flag.Bool("record", false, "write the rig's recordings into testdata/"+version)

// version is the Parrot the recordings are of.
const version = "1.0.0"

func requireTmux(t *testing.T) {
	t.Helper()
	_, err := exec.LookPath("tmux")
	tmuxtest.Require(t, "tmux", err == nil, "tmux not found in PATH")
}

// TestTmuxParrotRig: the rig builds Parrot from this folder's source
// (no npm, no model) and records each of its scenarios in tmux: every
// marker reads as marked with Parrot's profile, the final screen is the
// replay's, and the journal is its session file, read without a
// malformed line.
func TestTmuxParrotRig(t *testing.T) {
	requireTmux(t)
	names := rig.ScenarioNames("parrot")
	if !slices.Equal(names, surfaces) {
		t.Fatalf("scenarios %v, want %v", names, surfaces)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out := ""
			if *record {
				out = filepath.Join("testdata", version)
			}
			res, err := rig.Run(ctx, rig.Config{Agent: "parrot", Version: version, Scenario: name, OutDir: out})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", name, res.Summary())
			check, err := replaycheck.Check(res.Recording)
			if err != nil || check.Markers == 0 || len(check.Problems) > 0 || check.Profile != "parrot@"+version {
				t.Errorf("%s: %d markers, %v, %v", check.Profile, check.Markers, check.Problems, err)
			}
			if problems, err := recordings.Verify(res.Recording, res.Final); err != nil || len(problems) > 0 {
				t.Errorf("final screen: %v %v", problems, err)
			}
			evs, stats := evidencetest.ParseFile(t, sessions.Format, "session.jsonl", res.Journal)
			if len(evs) == 0 || stats.Malformed > 0 || len(stats.Unknown) > 0 {
				t.Errorf("journal: %d events, %+v", len(evs), *stats)
			}
		})
	}
}
