package qualify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
)

// Judge turns one scenario's markers, read with the base profile, into
// findings: expected are the surfaces the base's recording shows at each
// marker (Table), marks what the binary's run drew, runErr the rig's
// error (nil: every wait and effect of the scenario held).
//
// A marker the run did not draw is not reached. A drawn marker fails when
// the base profile reads it otherwise than the rig marked it, names
// another surface than the base's recording. When the run failed after
// its last drawn marker, the keys sent there did not have their recorded
// effect: that marker fails too. A marker read exactly but answered with
// keys no choice of its plan sends (a native alternative akk never uses)
// is read_only: it proves the reading, not the effect of akk's keys.
func Judge(expected []recognizers.Surface, marks []replaycheck.Mark, runErr error) []Finding {
	var out []Finding
	for i, want := range expected {
		if want == recognizers.SurfaceNone {
			continue
		}
		f := Finding{Marker: i, Surface: want}
		switch {
		case i >= len(marks):
			f.Outcome, f.Detail = NotReached, "the run ended before this screen"
			if runErr != nil {
				f.Detail += ": " + runErr.Error()
			}
		case len(marks[i].Problems) > 0:
			f.Outcome, f.Detail = Failed, "read differently: "+strings.Join(marks[i].Problems, "; ")
			if d := marks[i].FirstDiff; d != "" {
				f.Detail += "; first differing check: " + d
			}
		case marks[i].Surface != want:
			f.Outcome, f.Detail = Failed, "read as "+marks[i].Surface.Name()+", the base shows "+string(want)
		case runErr != nil && i == len(marks)-1:
			f.Outcome, f.Detail = Failed, "its keys did not have the recorded effect: "+runErr.Error()
		case marks[i].Unplanned:
			f.Outcome, f.Detail = ReadOnly, "read exactly; the scenario answers with a native key akk never sends, so it proves no effect of akk's"
		default:
			f.Outcome = Passed
		}
		if f.Outcome == Failed && i < len(marks) {
			f.Screen = marks[i].Text
		}
		out = append(out, f)
	}
	return out
}

// Summarize gives each surface one outcome over every scenario: failed if
// any marker of it failed, else passed if one passed, else read_only if
// one was read, else not reached.
func Summarize(scenarios []ScenarioResult) []SurfaceResult {
	by := map[recognizers.Surface]*SurfaceResult{}
	rank := map[Outcome]int{NotReached: 0, ReadOnly: 1, Passed: 2, Failed: 3}
	for _, sc := range scenarios {
		for _, f := range sc.Findings {
			r := by[f.Surface]
			if r == nil {
				r = &SurfaceResult{Surface: f.Surface, Outcome: NotReached}
				by[f.Surface] = r
			}
			if rank[f.Outcome] > rank[r.Outcome] {
				r.Outcome = f.Outcome
			}
			if len(r.Scenarios) == 0 || r.Scenarios[len(r.Scenarios)-1] != sc.Name {
				r.Scenarios = append(r.Scenarios, sc.Name)
			}
		}
	}
	out := make([]SurfaceResult, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Surface < out[j].Surface })
	return out
}

// Outcomes is the scenario's findings as a person reads them:
// "permission.shell passed, composer.idle passed".
func (sr ScenarioResult) Outcomes() string {
	parts := make([]string, len(sr.Findings))
	for i, f := range sr.Findings {
		parts[i] = string(f.Surface) + " " + string(f.Outcome)
	}
	return strings.Join(parts, ", ")
}

// Line is the scenario's progress line: its name, time, findings and the
// first line of the run's error.
func (sr ScenarioResult) Line() string {
	line := fmt.Sprintf("%-22s %5.1fs  %s", sr.Name, sr.Took.Seconds(), sr.Outcomes())
	if sr.Err != "" {
		first, _, _ := strings.Cut(sr.Err, "\n")
		line += "  (" + first + ")"
	}
	return line
}
