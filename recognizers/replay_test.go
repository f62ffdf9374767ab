package recognizers_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// rigMarkerProblems are markers the rig wrote wrongly, with the number of
// problems each recording shows: the marker names text that is not on
// its screen (recordings.Verify reports the same). They are reported,
// never hidden; the test fails when one goes away so the entry goes too.
var rigMarkerProblems = map[string]int{}

// screenCannotTell are markers whose truth the screen alone does not
// show, with the number of such markers in each recording; each entry
// says where akk learns it instead. The test fails when one goes away.
var screenCannotTell = map[string]int{
	// Codex hides its status line while it streams a reply: the screen
	// reads idle under a running turn. The rollout says so (task_started,
	// no task_complete): terminal.NativeBusy keeps send away from it.
	"codex/0.155.1/interrupted": 1,
	"codex/0.171.0/interrupted": 1,
}

// notYetProfiled are the recordings of dialogs no profile reads yet
// (issue "every dialog the agents really show"), with the number of
// marker problems each shows: akk keeps them manual_required or unknown
// (zero input) until a profile proves them. The rig marks what a profile
// must read; the test fails when a count changes, so an entry shrinks
// as profiles land. (Issue 21's thread transitions, the resume pickers
// and Codex 0.155.1's slash completion, are read; so is 0.155.1's
// composer holding "/status" or "/statu" over its two-row completion
// list, /status over /statusline: codex_completion.go. Issue 22's
// status panels, /model pickers, effort popups and Claude's switch
// confirmation are read: claude_status.go, codex_status.go,
// claude_model.go, codex_model.go.)
var notYetProfiled = map[string]int{}

// TestReplayCorpusMarkers is `akk replay --check` over the whole corpus:
// every marker's state, composer, kind, actionability, questions, options
// and highlighted row match the recognition of its screen.
func TestReplayCorpusMarkers(t *testing.T) {
	total, byProfile := 0, map[string]int{}
	for _, f := range screentest.CorpusCasts(t) {
		name := f.Agent + "/" + f.Version + "/" + f.Surface
		t.Run(name, func(t *testing.T) {
			res, err := replaycheck.Check(screentest.LoadCast(t, f.Cast))
			if err != nil {
				t.Fatal(err)
			}
			total += res.Markers
			byProfile[res.Profile] += res.Markers
			want := rigMarkerProblems[name] + screenCannotTell[name] + notYetProfiled[name]
			switch {
			case len(res.Problems) == want && want > 0:
				t.Logf("known marker problem (the rig's, or what no screen shows): %q", res.Problems)
			case len(res.Problems) != want:
				for _, p := range res.Problems {
					t.Error(p)
				}
				if want > 0 {
					t.Errorf("rigMarkerProblems, screenCannotTell and notYetProfiled expect %d problems here, got %d: update the lists", want, len(res.Problems))
				}
			}
			if !f.Listed {
				t.Logf("not in corpus.json yet (being recorded)")
			}
		})
	}
	t.Logf("%d markers checked: %v", total, byProfile)
}

// TestReplayIncrementalEqualsFresh: a Recognizer reading only dirty rows
// gives the same recognition as a full read, after every event of every
// recording.
func TestReplayIncrementalEqualsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every event twice")
	}
	for _, f := range screentest.CorpusCasts(t) {
		rec := screentest.LoadCast(t, f.Cast)
		p := recognizers.Lookup(f.Agent, f.Version)
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
			if s.Event.Code == recordings.Input {
				return nil
			}
			inc := r.Recognize(s.Screen)
			fresh := recognizers.Recognize(p, s.Screen, recognizers.TestKey)
			if a, b := summary(&inc), summary(&fresh); a != b {
				return fmt.Errorf("event %d: incremental %s, fresh %s", s.Index, a, b)
			}
			return nil
		})
		if err != nil {
			t.Errorf("%s: %v", f.Cast, err)
		}
	}
}

func summary(r *recognizers.Recognition) string {
	id := ""
	if r.Interaction != nil {
		id = r.Interaction.InteractionID + " " + string(r.Interaction.State)
	}
	clear := ""
	if r.Clear != nil {
		clear = fmt.Sprintf("%q/%v", r.Clear.Keys, r.Clear.Stash)
	}
	return fmt.Sprintf("%s/%s/%q fp %x %s %v plan=%v clear=%s stashed=%v restored=%v", r.ScreenState, r.Composer, r.Draft,
		r.Fingerprint[:6], id, r.Reasons, r.Plan != nil, clear, r.Stashed, r.DraftRestored)
}

// notPlanned are actionable markers after which the rig sent a key no plan
// sends, each for a reason.
var notPlanned = map[string]string{
	"question-enter":             "Enter on the highlighted row: the native alternative to the digit akk sends",
	"question-escape":            "Esc cancels the question; it is not an answer",
	"permission-reject/codex":    "Esc cancels Codex's request; reject is not offered for Codex",
	"apply-patch-reject/codex":   "Esc cancels Codex's request (turn_aborted); reject is not offered for Codex",
	"async-question/2":           "ctrl+] skips the question; skipping is not an answer",
	"edit-escape":                "Esc cancels the dialog; it is not a decision",
	"webfetch-reject":            "the Fetch dialog's 'No, and tell Claude what to do differently (esc)' row is Esc's cancel path; reject is not offered",
	"permission-reject/gemini":   "Gemini's 'No, suggest changes (esc)' cancels the tool and the request; reject is not offered",
	"permission-escape/gemini":   "Esc cancels Gemini's tool and the request; it is not a decision",
	"edit-reject/gemini":         "Gemini's 'No, suggest changes (esc)' cancels the edit and the request; reject is not offered",
	"permission-escape/opencode": "Esc is bound to OpenCode's Reject; akk rejects with ← and Enter, Esc being cancel (invariant 9)",
	"permission-always/0":        "→ selects OpenCode's 'Allow always', a persistent grant akk never offers",
}

// TestReplayPlansMatchRecordedInput: where the rig answered an actionable
// prompt, the key plan has a choice that sends exactly the recorded bytes
// (the dispatch tests replay the same recordings with a strict replica).
func TestReplayPlansMatchRecordedInput(t *testing.T) {
	checked := 0
	for _, f := range screentest.CorpusCasts(t) {
		rec := screentest.LoadCast(t, f.Cast)
		ms, at, err := recordings.Markers(rec)
		if err != nil {
			t.Fatal(err)
		}
		for k := range ms {
			scr, _ := screentest.ScreenAt(t, rec, k)
			got := screentest.Recognize(scr, f.Agent, f.Version)
			if !got.Actionable() || !got.Exact {
				continue
			}
			end := len(rec.Events)
			if k+1 < len(at) {
				end = at[k+1]
			}
			var sent []byte
			for _, e := range rec.Events[at[k]:end] {
				if e.Code == recordings.Input {
					sent = append(sent, e.Data...)
				}
			}
			if len(sent) == 0 {
				continue
			}
			if why, ok := skipPlan(f, k); ok {
				t.Logf("%s marker %d: not planned: %s", f.Cast, k, why)
				continue
			}
			checked++
			if !replaycheck.PlanSends(got.Plan, sent) {
				t.Errorf("%s marker %d: no plan choice sends the recorded %q", filepath.ToSlash(f.Cast), k, sent)
			}
		}
	}
	t.Logf("%d recorded answers produced by a plan", checked)
	if checked < 20 {
		t.Errorf("only %d answers checked", checked)
	}
}

func skipPlan(f screentest.CastFile, k int) (string, bool) {
	for _, key := range []string{f.Surface, f.Surface + "/" + f.Agent, fmt.Sprintf("%s/%d", f.Surface, k)} {
		if why, ok := notPlanned[key]; ok {
			return why, true
		}
	}
	return "", false
}
