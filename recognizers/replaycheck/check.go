// Package replaycheck checks a recording's markers against the
// recognizers: at every marker, the recognition of the replayed screen
// must show the marker's screen state, composer, interaction kind,
// actionability, questions, options and highlighted row. Markers are
// ground truth written by the recording rig, never by akk's recognizers,
// so a recording can prove a profile wrong.
//
// It does no I/O: callers load the recording (akk replay --check, the
// TestReplay tests).
package replaycheck

import (
	"fmt"
	"slices"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// Result is what Check found.
type Result struct {
	Profile  string   // the profile the recording was read with
	Markers  int      // markers checked
	Problems []string // one line per mismatch; none means every marker matched
}

// Check replays rec and compares every marker with the recognition of
// its screen under the profile of the recording's agent and version.
func Check(rec *recordings.Recording) (Result, error) {
	var res Result
	if rec.Header.Akk == nil || rec.Header.Akk.Agent == "" {
		return res, fmt.Errorf("replaycheck: the recording names no agent")
	}
	p := recognizers.Lookup(rec.Header.Akk.Agent, rec.Header.Akk.Version)
	res.Profile = p.ID()
	r := recognizers.NewRecognizer(p, recognizers.TestKey)
	_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Marker == nil {
			return nil
		}
		res.Markers++
		got := r.Recognize(s.Screen)
		for _, d := range Compare(*s.Marker, &got) {
			res.Problems = append(res.Problems, fmt.Sprintf("marker at event %d (t=%.3f, %s): %s", s.Index, s.Event.Time, s.Marker.State, d))
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("replaycheck: %w", err)
	}
	return res, nil
}

// Compare lists the differences between a marker and a recognition.
func Compare(m recordings.Marker, r *recognizers.Recognition) []string {
	var out []string
	diff := func(what string, want, got any) {
		out = append(out, fmt.Sprintf("%s: marker %v, recognized %v", what, want, got))
	}
	if r.ScreenState != m.State {
		diff("screen_state", m.State, r.ScreenState)
	}
	if r.Composer != m.Expect.Composer {
		diff("composer", m.Expect.Composer, r.Composer)
	}
	kind := "null"
	if r.Interaction != nil {
		kind = string(r.Interaction.Kind)
	}
	if want := deref(m.Expect.Kind); want != kind {
		diff("kind", want, kind)
	}
	if m.Expect.Actionable != r.Actionable() {
		diff("actionable", m.Expect.Actionable, fmt.Sprintf("%v %v", r.Actionable(), r.Reasons))
	}
	var qs []recognizers.Question
	h := -1
	if r.Prompt != nil {
		qs, h = r.Prompt.Questions, r.Prompt.Highlighted
	}
	if len(m.Expect.Questions) != len(qs) {
		diff("questions", len(m.Expect.Questions), len(qs))
	} else {
		for i, mq := range m.Expect.Questions {
			out = append(out, compareQuestion(i, mq, qs[i])...)
		}
	}
	wantH := -1
	if m.Expect.Highlighted != nil {
		wantH = *m.Expect.Highlighted
	}
	if wantH != h {
		diff("highlighted", wantH, h)
	}
	return out
}

func compareQuestion(i int, m recordings.Question, q recognizers.Question) []string {
	var out []string
	if m.Header != q.Header {
		out = append(out, fmt.Sprintf("question %d header: marker %q, recognized %q", i, m.Header, q.Header))
	}
	if m.Prompt != q.Prompt {
		out = append(out, fmt.Sprintf("question %d prompt: marker %q, recognized %q", i, m.Prompt, q.Prompt))
	}
	all, model := labels(q.Options, false), labels(q.Options, true)
	switch {
	case m.Options == nil && q.Options == nil:
	case m.Options == nil || q.Options == nil:
		out = append(out, fmt.Sprintf("question %d options: marker %q, recognized %q", i, m.Options, all))
	case slices.Equal(m.Options, all), slices.Equal(m.Options, model):
		// The rig lists every native row for some questions and only the
		// model's answers for others (several-questions, multi-select):
		// either list must be exactly what the screen shows.
	default:
		out = append(out, fmt.Sprintf("question %d options: marker %q, recognized %q", i, m.Options, all))
	}
	return out
}

// labels lists option labels: every row, or only the model's answers.
func labels(opts []recognizers.Option, modelOnly bool) []string {
	if opts == nil {
		return nil
	}
	out := []string{}
	for _, o := range opts {
		if !modelOnly || o.Role == recognizers.RoleChoice {
			out = append(out, o.Label)
		}
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
