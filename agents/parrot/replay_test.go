package parrot_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/parrot/sessions"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// surfaces are Parrot's recorded surfaces (its rig's scenarios), in
// testdata/<version>: a missing one fails.
var surfaces = []string{"draft", "hello", "idle", "permission-approve", "permission-escape", "permission-reject"}

// surface is one recorded surface: its recording, final screen and
// session file.
type surface struct {
	name    string
	rec     *recordings.Recording
	final   recordings.Screen
	journal []byte
}

func loadSurface(t *testing.T, name string) surface {
	t.Helper()
	base := filepath.Join("testdata", version, name)
	s := surface{name: name, rec: screentest.LoadCast(t, base+".cast")}
	b, err := os.ReadFile(base + ".final.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s.final, err = recordings.ParseScreen(b); err != nil {
		t.Fatal(err)
	}
	if s.journal, err = os.ReadFile(base + ".session.jsonl"); err != nil {
		t.Fatal(err)
	}
	if a := s.rec.Header.Akk; a == nil || a.Agent != "parrot" || a.Version != version || a.Scenario != name {
		t.Fatalf("%s: header %+v", name, a)
	}
	return s
}

// TestReplayParrotMarkers is `akk replay --check` over Parrot's
// recordings: every marker's state, composer, kind, actionability,
// question, options and highlighted row match the recognition of its
// screen under Parrot's exact profile, and the final screen is the
// replay's.
func TestReplayParrotMarkers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", version, "*.cast"))
	if len(files) != len(surfaces) {
		t.Errorf("%d recordings, want %d (%v)", len(files), len(surfaces), surfaces)
	}
	for _, name := range surfaces {
		s := loadSurface(t, name)
		res, err := replaycheck.Check(s.rec)
		if err != nil {
			t.Fatal(err)
		}
		if res.Profile != "parrot@"+version || res.Markers == 0 || len(res.Problems) > 0 {
			t.Errorf("%s: %s, %d markers, problems %q", name, res.Profile, res.Markers, res.Problems)
		}
		if problems, err := recordings.Verify(s.rec, s.final); err != nil || len(problems) > 0 {
			t.Errorf("%s: final screen %q %v", name, problems, err)
		}
	}
}

// TestReplayParrotPlans: at the permission, the key plan offers
// approve_once and reject, and the key the rig pressed is exactly the
// plan's of its decision ("1", "2"); Esc, a cancel, is no plan's.
func TestReplayParrotPlans(t *testing.T) {
	want := map[string]contract.Decision{"permission-approve": contract.DecisionApproveOnce, "permission-reject": contract.DecisionReject,
		"permission-escape": ""}
	for name, decision := range want {
		s := loadSurface(t, name)
		ms, at, err := recordings.Markers(s.rec)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(ms, func(m recordings.Marker) bool { return m.Expect.Actionable })
		if k < 0 || k+1 >= len(at) {
			t.Fatalf("%s: no actionable marker before another", name)
		}
		scr, _ := screentest.ScreenAt(t, s.rec, k)
		r := screentest.Recognize(scr, "parrot", version)
		if !r.Actionable() || !r.Exact || !slices.Equal(r.Interaction.Decisions, []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject}) {
			t.Fatalf("%s: actionable %v exact %v, reasons %v", name, r.Actionable(), r.Exact, r.Reasons)
		}
		var sent []byte
		for _, e := range s.rec.Events[at[k]:at[k+1]] {
			if e.Code == recordings.Input {
				sent = append(sent, e.Data...)
			}
		}
		var by contract.Decision
		for _, c := range r.Plan.Choices {
			if len(c.Steps) == 1 && bytes.Equal(c.Steps[0].Keys, sent) && !c.Steps[0].Text {
				by = c.Decision
			}
		}
		if by != decision {
			t.Errorf("%s: the recorded %q is the plan's %q, want %q", name, sent, by, decision)
		}
	}
}

// TestReplayParrotJournals: each recording's session file reads, with
// Parrot's format, as what the scenario did: the session, each prompt
// (its hash the recorded typed text's), the command's call and its
// result, the turn's end.
func TestReplayParrotJournals(t *testing.T) {
	want := map[string][]string{
		"idle":               {"session"},
		"draft":              {"session"},
		"hello":              {"session", "started", "prompt hello parrot", "completed text"},
		"permission-approve": {"session", "started", "prompt run touch notes.txt", "pending run", "result ok", "completed text"},
		"permission-reject":  {"session", "started", "prompt run touch notes.txt", "pending run", "result rejected", "aborted rejected"},
		"permission-escape":  {"session", "started", "prompt run touch notes.txt", "pending run", "result rejected", "aborted rejected"},
	}
	for _, name := range surfaces {
		s := loadSurface(t, name)
		typed := map[[32]byte]string{}
		for _, in := range recordings.Inputs(s.rec) {
			typed[evidence.PromptHash(string(in.Data))] = string(in.Data)
		}
		evs, stats := evidencetest.ParseFile(t, sessions.Format, name, s.journal)
		var got []string
		for _, ev := range evs {
			got = append(got, brief(ev, typed))
		}
		if strings.Join(got, "|") != strings.Join(want[name], "|") || stats.Malformed > 0 || len(stats.Unknown) > 0 {
			t.Errorf("%s: %q (%+v), want %q", name, got, *stats, want[name])
		}
	}
}

// brief is an event in brief: a prompt by the typed text its hash is.
func brief(ev evidence.Event, typed map[[32]byte]string) string {
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		return "session"
	case evidence.TurnStarted:
		return "started"
	case evidence.PromptAccepted:
		return "prompt " + typed[e.SHA256]
	case evidence.ToolPending:
		return "pending " + e.Name
	case evidence.ToolResult:
		return map[bool]string{false: "result ok", true: "result rejected"}[e.Rejected]
	case evidence.TurnCompleted:
		return map[bool]string{false: "completed notext", true: "completed text"}[e.EndedWithText]
	case evidence.TurnAborted:
		return "aborted " + e.Reason
	}
	return fmt.Sprintf("%T", ev)
}

// TestReplayParrotGeneric: a version akk does not pin is read with the
// generic profile: the states as recorded, every permission
// manual_required (unknown_version).
func TestReplayParrotGeneric(t *testing.T) {
	s := loadSurface(t, "permission-approve")
	ms, _, _ := recordings.Markers(s.rec)
	for k, m := range ms {
		scr, _ := screentest.ScreenAt(t, s.rec, k)
		r := screentest.Recognize(scr, "parrot", "1.0.1")
		if r.Exact || r.ScreenState != m.State || r.Actionable() || m.Expect.Actionable && !screentest.HasReason(r, recognizers.ReasonUnknownVersion) {
			t.Errorf("marker %d (%s): %s exact %v actionable %v %v", k, m.State, r.ScreenState, r.Exact, r.Actionable(), r.Reasons)
		}
	}
}
