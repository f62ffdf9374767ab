package replaycheck

import (
	"fmt"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// Mark is one marker of a recording read under a profile: what the
// profile made of the marked screen, and whether the keys the rig sent
// from there are keys the profile's plan would send.
type Mark struct {
	Event   int // the marker's event index
	Marker  recordings.Marker
	Surface recognizers.Surface
	Exact   bool
	// Problems are the differences between the marker and the reading
	// (Compare); none: the profile reads the screen as the rig marked it.
	Problems []string
	// Sent is what the rig typed between this marker and the next.
	Sent []byte
	// Planned: the reading is actionable, the rig answered it (Sent), and
	// a choice of its plan sends exactly that (PlanSends). False where
	// the rig sent nothing or the screen offers no action.
	Planned bool
	// Unplanned: the rig answered an actionable reading with keys no
	// choice of its plan sends.
	Unplanned bool
	// Text is the marked screen's text, for a report of a difference.
	Text string
	// FirstDiff, when the reading differs from the marker, is the
	// profile's deepest failed check on the screen and its first
	// differing cell ("claude21.dialogTopRule row 24 col 0: expected
	// ...", recognizers.Explain): where the drawing changed.
	FirstDiff string
}

// Read replays rec and reads every marked screen with p (not the
// profile the recording's header names: a qualification reads a new
// binary's screens with its pinned base).
func Read(rec *recordings.Recording, p recognizers.Profile) ([]Mark, error) {
	_, at, err := recordings.Markers(rec)
	if err != nil {
		return nil, fmt.Errorf("replaycheck: %w", err)
	}
	r := recognizers.NewRecognizer(p, recognizers.TestKey)
	var out []Mark
	_, err = recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Marker == nil {
			return nil
		}
		got := r.Recognize(s.Screen)
		m := Mark{Event: s.Index, Marker: *s.Marker, Surface: got.Surface, Exact: got.Exact,
			Problems: Compare(*s.Marker, &got), Text: s.Screen.String()}
		end := len(rec.Events)
		if k := len(out) + 1; k < len(at) {
			end = at[k]
		}
		for _, e := range rec.Events[s.Index:end] {
			if e.Code == recordings.Input {
				m.Sent = append(m.Sent, e.Data...)
			}
		}
		if len(m.Problems) > 0 {
			m.FirstDiff = firstDiff(recognizers.Explain(p, s.Screen, recognizers.TestKey))
		}
		if got.Exact && got.Actionable() && len(m.Sent) > 0 {
			m.Planned = PlanSends(got.Plan, m.Sent)
			m.Unplanned = !m.Planned
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("replaycheck: %w", err)
	}
	return out, nil
}

// firstDiff is the deepest failed check with a differing cell in the
// first profile the explanation tried (the exact one), the last of the
// deepest: the innermost rule the screen broke.
func firstDiff(ex recognizers.Explanation) string {
	if len(ex.Sections) == 0 {
		return ""
	}
	var best *recognizers.TraceStep
	for i, st := range ex.Sections[0].Steps {
		if !st.Pass && st.Diff != nil && (best == nil || st.Depth >= best.Depth) {
			best = &ex.Sections[0].Steps[i]
		}
	}
	if best == nil {
		return ""
	}
	return fmt.Sprintf("%s row %d col %d: expected %q, got %q", best.Rule, best.Row, best.Diff.Col, best.Diff.Expected, best.Diff.Got)
}
