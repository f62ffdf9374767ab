package recordings

import (
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/vt"
)

// Verify replays rec and checks it against what the recorder saw: the
// final screen must equal final cell by cell (vt.ParseCapture through
// controlmode.CompareSeed, never byte by byte), and every marker's screen
// must show what the marker says is there (MarkerProblems). It returns
// every problem found; none means the recording holds.
func Verify(rec *Recording, final Screen) ([]string, error) {
	var problems []string
	scr, err := Replay(rec, vt.Options{Scrollback: -1}, func(s Step) error {
		if s.Marker == nil {
			return nil
		}
		for _, p := range MarkerProblems(*s.Marker, s.Screen) {
			problems = append(problems, fmt.Sprintf("marker at event %d (%s): %s", s.Index, s.Marker.State, p))
		}
		return nil
	})
	if err != nil {
		return problems, err
	}
	for _, d := range final.Compare(scr) {
		problems = append(problems, "final screen: "+d)
	}
	return problems, nil
}

// MarkerProblems checks that the text a marker names (question headers,
// prompts and option labels) is on the screen. It proves the marker was
// placed on the screen it describes; it is not recognition: states and
// highlights are not checked here.
func MarkerProblems(m Marker, scr *vt.Screen) []string {
	text := normalize(scr.String())
	bare := strings.ReplaceAll(text, " ", "")
	var out []string
	need := func(what, s string) {
		// A word longer than a row (a path) is broken at the pane's
		// edge, not at a space: the text is there without its spaces.
		if s != "" && !strings.Contains(text, normalize(s)) && !strings.Contains(bare, strings.ReplaceAll(normalize(s), " ", "")) {
			out = append(out, fmt.Sprintf("%s %q not on screen", what, s))
		}
	}
	for _, q := range m.Expect.Questions {
		need("header", q.Header)
		need("prompt", q.Prompt)
		for _, o := range q.Options {
			need("option", o)
		}
	}
	return out
}

// normalize folds what terminals vary in (no-break spaces, runs of
// spaces, line ends) so that text can be found across soft wraps.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	return strings.Join(strings.Fields(s), " ")
}
