package recognizers_test

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// TestReplaySurfaces reads every marker of the corpus three ways: with its
// pinned profile; as an unpinned binary qualified against that version on
// exactly the marker's surface; and qualified on every other surface. The
// first names a surface that agrees with the marker (an actionable marker
// always has one); the second reads the screen exactly as the pinned
// profile does, under its own ids; the third proves nothing there: no
// action, unqualified_surface, and nothing of the composer proven.
func TestReplaySurfaces(t *testing.T) {
	all := recognizers.Surfaces()
	seen := map[string]map[recognizers.Surface]bool{}
	for _, f := range screentest.CorpusCasts(t) {
		profile := f.Agent + "@" + f.Version
		if seen[profile] == nil {
			seen[profile] = map[recognizers.Surface]bool{}
		}
		pinned := recognizers.Lookup(f.Agent, f.Version)
		if !pinned.Exact {
			continue
		}
		t.Run(f.Agent+"/"+f.Version+"/"+f.Surface, func(t *testing.T) {
			rec := screentest.LoadCast(t, f.Cast)
			_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
				if s.Marker == nil {
					return nil
				}
				want := recognizers.Recognize(pinned, s.Screen, recognizers.TestKey)
				seen[profile][want.Surface] = true
				checkSurface(t, s.Index, *s.Marker, &want)
				if want.Surface == recognizers.SurfaceNone {
					return nil
				}
				on := qualified(t, f.Agent, f.Version, "on", want.Surface)
				got := recognizers.Recognize(on, s.Screen, recognizers.TestKey)
				sameReading(t, s.Index, &want, &got, on.ID())
				var others []recognizers.Surface
				for _, o := range all {
					if o != want.Surface {
						others = append(others, o)
					}
				}
				off := recognizers.Recognize(qualified(t, f.Agent, f.Version, "off", others...), s.Screen, recognizers.TestKey)
				switch {
				case off.Exact || off.Actionable() || off.Clear != nil || off.Completion != "" || off.Status != nil || off.Picker != nil:
					t.Errorf("event %d: %s read exactly by a qualification without it", s.Index, want.Surface)
				case off.Prompt != nil && !screentest.HasReason(off, recognizers.ReasonUnqualifiedSurface):
					t.Errorf("event %d: %s without it: reasons %v", s.Index, want.Surface, off.Reasons)
				case off.QualifiedAs != f.Version || len(off.Warnings) == 0:
					t.Errorf("event %d: qualified as %q, warnings %q", s.Index, off.QualifiedAs, off.Warnings)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	var lines []string
	for p, ss := range seen {
		var names []string
		for s := range ss {
			if s != recognizers.SurfaceNone {
				names = append(names, string(s))
			}
		}
		sort.Strings(names)
		lines = append(lines, p+": "+strings.Join(names, " "))
	}
	sort.Strings(lines)
	t.Logf("surfaces the corpus shows:\n%s", strings.Join(lines, "\n"))
}

// qualified is agent@"0.0.0-unpinned" qualified against base.
func qualified(t *testing.T, agent, base, tag string, passed ...recognizers.Surface) recognizers.Profile {
	t.Helper()
	p, err := recognizers.Qualified(agent, "0.0.0-unpinned", recognizers.Qualification{Base: base, Tag: tag, Passed: passed})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSurface: the surface agrees with what the rig marked.
func checkSurface(t *testing.T, at int, m recordings.Marker, r *recognizers.Recognition) {
	t.Helper()
	s := string(r.Surface)
	var ok bool
	switch kind := ""; {
	case m.Expect.Kind != nil && *m.Expect.Kind == string(contract.KindPermission):
		ok = strings.HasPrefix(s, string(recognizers.SurfacePermission))
	case m.Expect.Kind != nil && (*m.Expect.Kind == string(contract.KindQuestionnaire)) && m.State == contract.ScreenQuestionnaire:
		ok = strings.HasPrefix(s, "question.")
	case m.State == contract.ScreenIdle && m.Expect.Composer != contract.ComposerAbsent && kind == "":
		ok = r.ScreenState != contract.ScreenIdle || slices.Contains([]recognizers.Surface{recognizers.SurfaceComposerIdle,
			recognizers.SurfaceCompletion}, r.Surface) || r.Blocked != nil
	case m.State == contract.ScreenWorking && m.Expect.Composer != contract.ComposerAbsent:
		ok = r.ScreenState != contract.ScreenWorking || r.Surface == recognizers.SurfaceComposerWorking
	default:
		ok = true
	}
	if !ok {
		t.Errorf("event %d: marker %s %v, surface %q", at, m.State, deref(m.Expect.Kind), s)
	}
	if m.Expect.Actionable && r.Actionable() && r.Surface == recognizers.SurfaceNone {
		t.Errorf("event %d: an actionable screen with no surface", at)
	}
}

// sameReading: a qualification that passed the surface reads the screen
// as the pinned profile does; only the ids (which name the profile) and
// QualifiedAs differ.
func sameReading(t *testing.T, at int, want, got *recognizers.Recognition, id string) {
	t.Helper()
	if got.Profile != id || got.QualifiedAs != want.Version || !got.Exact {
		t.Errorf("event %d: profile %q qualified as %q exact %v", at, got.Profile, got.QualifiedAs, got.Exact)
	}
	if got.ScreenState != want.ScreenState || got.Composer != want.Composer || got.Surface != want.Surface ||
		got.Actionable() != want.Actionable() || got.Fingerprint != want.Fingerprint || got.Draft != want.Draft ||
		(got.Clear == nil) != (want.Clear == nil) || got.Completion != want.Completion || !slices.Equal(got.Reasons, want.Reasons) {
		t.Errorf("event %d: qualified reading differs from the pinned one:\n got %s %s %s %v %v\nwant %s %s %s %v %v", at,
			got.ScreenState, got.Composer, got.Surface, got.Actionable(), got.Reasons,
			want.ScreenState, want.Composer, want.Surface, want.Actionable(), want.Reasons)
	}
	if (got.Plan == nil) != (want.Plan == nil) {
		t.Fatalf("event %d: plan %v, pinned %v", at, got.Plan != nil, want.Plan != nil)
	}
	if want.Plan == nil {
		return
	}
	if got.Plan.InteractionID == want.Plan.InteractionID {
		t.Errorf("event %d: the qualified reading's offer has the pinned one's id %s", at, got.Plan.InteractionID)
	}
	if len(got.Plan.Choices) != len(want.Plan.Choices) {
		t.Fatalf("event %d: %d choices, pinned %d", at, len(got.Plan.Choices), len(want.Plan.Choices))
	}
	for i := range want.Plan.Choices {
		// The ids name the profile; everything else is the same plan.
		g, w := got.Plan.Choices[i], want.Plan.Choices[i]
		g.QuestionID, g.OptionID, w.QuestionID, w.OptionID = "", "", "", ""
		if !reflect.DeepEqual(g, w) {
			t.Errorf("event %d: choice %d differs from the pinned plan:\n got %+v\nwant %+v", at, i, g, w)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
