package qualify

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
)

// TestJudge: a marker passes only when read as marked, as the base's
// surface, with the base's plan and the effect after it; a run cut short
// leaves its later markers not reached and fails the last one it drew.
func TestJudge(t *testing.T) {
	const perm, idle = recognizers.Surface("permission.shell"), recognizers.SurfaceComposerIdle
	ok := func(s recognizers.Surface) replaycheck.Mark { return replaycheck.Mark{Surface: s, Exact: true} }
	timeout := errors.New("waiting for the tool's output: deadline")
	for _, tc := range []struct {
		name     string
		expected []recognizers.Surface
		marks    []replaycheck.Mark
		err      error
		want     []Outcome
	}{
		{"all held", []recognizers.Surface{perm, idle}, []replaycheck.Mark{ok(perm), ok(idle)}, nil, []Outcome{Passed, Passed}},
		{"never drawn", []recognizers.Surface{perm, idle}, nil, timeout, []Outcome{NotReached, NotReached}},
		{"no effect after the answer", []recognizers.Surface{perm, idle}, []replaycheck.Mark{ok(perm)}, timeout, []Outcome{Failed, NotReached}},
		{"read differently", []recognizers.Surface{perm, idle},
			[]replaycheck.Mark{{Surface: perm, Problems: []string{"actionable: marker true, recognized false"}}, ok(idle)}, nil, []Outcome{Failed, Passed}},
		{"another surface", []recognizers.Surface{perm}, []replaycheck.Mark{ok(recognizers.SurfaceNone)}, nil, []Outcome{Failed}},
		{"native keys", []recognizers.Surface{perm}, []replaycheck.Mark{{Surface: perm, Exact: true, Unplanned: true}}, nil, []Outcome{ReadOnly}},
		{"native keys, then no effect", []recognizers.Surface{perm}, []replaycheck.Mark{{Surface: perm, Exact: true, Unplanned: true}}, timeout, []Outcome{Failed}},
		{"a marker with no surface is no finding", []recognizers.Surface{recognizers.SurfaceNone, idle}, []replaycheck.Mark{ok(""), ok(idle)}, nil, []Outcome{Passed}},
	} {
		var got []Outcome
		for _, f := range Judge(tc.expected, tc.marks, tc.err) {
			got = append(got, f.Outcome)
			if f.Outcome != Passed && f.Detail == "" {
				t.Errorf("%s: marker %d %s without a detail", tc.name, f.Marker, f.Outcome)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSummarize: one failure anywhere fails the surface; a pass with the
// rest not reached passes it.
func TestSummarize(t *testing.T) {
	got := Summarize([]ScenarioResult{
		{Name: "a", Findings: []Finding{{Surface: "x", Outcome: Passed}, {Surface: "y", Outcome: NotReached}}},
		{Name: "b", Findings: []Finding{{Surface: "x", Outcome: Failed}, {Surface: "y", Outcome: Passed}, {Surface: "z", Outcome: NotReached}}},
		{Name: "c", Findings: []Finding{{Surface: "y", Outcome: ReadOnly}, {Surface: "w", Outcome: ReadOnly}}},
	})
	want := []SurfaceResult{{"w", ReadOnly, []string{"c"}}, {"x", Failed, []string{"a", "b"}}, {"y", Passed, []string{"a", "b", "c"}}, {"z", NotReached, []string{"b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// TestNearest: the pinned version that shares the most leading
// components, then the closest in the first that differs.
func TestNearest(t *testing.T) {
	for _, tc := range []struct{ a, b, c string }{
		{"2.1.337", "2.1.332", "2.1.267"}, // b nearer than c
		{"0.170.0", "0.171.0", "0.155.1"},
		{"0.171.5", "0.171.0", "0.170.9"},
		{"3.0.0", "2.9.0", "1.0.0"},
	} {
		if !distanceOf(tc.a, tc.b).less(distanceOf(tc.a, tc.c)) {
			t.Errorf("%s: %s is not nearer than %s", tc.a, tc.b, tc.c)
		}
	}
	for _, agent := range []string{"claude", "codex"} {
		bases := Bases(agent)
		newest := bases[len(bases)-1]
		if got, err := Nearest(agent, newest); err != nil || got != newest {
			t.Errorf("Nearest(%s, %s) = %s %v: a pinned version is its own nearest", agent, newest, got, err)
		}
	}
	if _, err := Nearest("nobody", "1.0"); err == nil {
		t.Error("an agent with no recordings has a base")
	}
}
