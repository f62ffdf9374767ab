package screentest

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Source is an actionable screen of the corpus.
type Source struct {
	Name     string
	Surface  string
	Marker   int
	Kind     contract.Kind
	Expect   []string // decisions, or option labels offered
	Versions []string // where the surface is recorded with this shape
}

// AssertActionable checks that the unmutated copy is what the
// recording proves.
func AssertActionable(t *testing.T, name string, r *recognizers.Recognition, src Source) {
	t.Helper()
	if !r.Actionable() || r.Interaction.Kind != src.Kind {
		t.Fatalf("%s: source not actionable as %s: %s %v %v", name, src.Kind, r.ScreenState, r.Interaction, r.Reasons)
	}
	var got []string
	if src.Kind == contract.KindPermission {
		for _, d := range r.Interaction.Decisions {
			got = append(got, string(d))
		}
	} else if len(r.Interaction.Questions) > 0 {
		for _, o := range r.Interaction.Questions[0].Options {
			got = append(got, o.Label)
		}
	}
	if !slices.Equal(got, src.Expect) {
		t.Fatalf("%s: source offers %q, want %q", name, got, src.Expect)
	}
}

// RecordedSource replays src's surface on agent@version to its marker and
// recognizes a copy of that screen, which must be actionable as src says
// (AssertActionable): the screen and its recognition, what a test then
// changes. A nil screen when the version records no such surface.
func RecordedSource(t *testing.T, agent, version string, src Source) (*vt.Screen, recognizers.Recognition) {
	t.Helper()
	scr := RecordedScreen(t, agent, version, src.Surface, src.Marker)
	if scr == nil {
		return nil, recognizers.Recognition{}
	}
	w, h := scr.Size()
	r := Recognize(CopyScreen(scr, 0, w, h), agent, version)
	AssertActionable(t, agent+"@"+version+"/"+src.Name, &r, src)
	return scr, r
}

// RecognizeShot reads sh's screen with its own profile and fails t unless
// it reads as state with composer.
func RecognizeShot(t *testing.T, sh Shot, state contract.ScreenState, composer contract.Composer) recognizers.Recognition {
	t.Helper()
	r := Recognize(sh.Screen(t), sh.Agent, sh.Version)
	if r.ScreenState != state || r.Composer != composer {
		t.Fatalf("read %s composer %s, want %s composer %s (%v)", r.ScreenState, r.Composer, state, composer, ReasonCodes(r))
	}
	return r
}

// CheckClear fails t unless r offers want's clear when offered is true
// (its keys, stashing or not) and none when it is false.
func CheckClear(t *testing.T, r recognizers.Recognition, offered bool, want recognizers.Clear) {
	t.Helper()
	switch {
	case !offered && r.Clear != nil:
		t.Errorf("clear %q offered, want none", r.Clear.Keys)
	case offered && (r.Clear == nil || !bytes.Equal(r.Clear.Keys, want.Keys) || r.Clear.Stash != want.Stash):
		t.Errorf("clear %+v, want %+v", r.Clear, want)
	}
}

// Options are the rows of the recognition's first question (nil without
// a prompt).
func Options(r *recognizers.Recognition) []recognizers.Option {
	if r.Prompt == nil || len(r.Prompt.Questions) == 0 {
		return nil
	}
	var out []recognizers.Option
	for _, o := range r.Prompt.Questions[0].Options {
		if o.Role != recognizers.RoleChat {
			out = append(out, o)
		}
	}
	return out
}

// CheckCompletion reads the recorded screen's completion as want, and
// each case of it (one change at a time) as "".
func CheckCompletion(t *testing.T, sh Shot, want string, cases []Change, others ...string) {
	t.Helper()
	if r := Recognize(sh.Screen(t), sh.Agent, sh.Version); r.ScreenState != contract.ScreenIdle || r.Draft != want || r.Completion != want {
		t.Errorf("%s: %s draft %q completion %q, want idle, draft and completion %q", sh, r.ScreenState, r.Draft, r.Completion, want)
	}
	for _, c := range cases {
		if r := Recognize(c.Mut(sh.Screen(t)), sh.Agent, sh.Version); r.Completion != "" {
			t.Errorf("%s, %s: completion %q (%s, draft %q), want none", sh, c.Name, r.Completion, r.ScreenState, r.Draft)
		}
	}
	// Another version's profile, and the generic one, read no completion.
	for _, v := range others {
		if r := Recognize(sh.Screen(t), sh.Agent, v); r.Completion != "" {
			t.Errorf("%s read by %s: completion %q, want none", sh, v, r.Completion)
		}
	}
}

// Carried is a status row carried as drawn; redacted one withheld.
func Carried(name, value string) recognizers.StatusField {
	return recognizers.StatusField{Name: name, Value: value}
}

// CheckStatusLayout checks a grammar's status layout (id names it): at
// most MaxStatusFields rows (so no result holds more: each name is read
// once), each name once, within MaxStatusName runes and without a colon,
// each row's group 0 or 1.
func CheckStatusLayout(t *testing.T, id string, l *recognizers.StatusLayout) {
	t.Helper()
	if len(l.Rows) > recognizers.MaxStatusFields {
		t.Errorf("%s: %d rows", id, len(l.Rows))
	}
	seen := map[string]bool{}
	for _, r := range l.Rows {
		if utf8.RuneCountInString(r.Name) > recognizers.MaxStatusName || strings.Contains(r.Name, ":") || seen[r.Name] || r.Group < 0 || r.Group > 1 {
			t.Errorf("%s: row %q", id, r.Name)
		}
		seen[r.Name] = true
	}
}

// CheckStatus reads the recorded screen's status as want with the state
// and composer given, each case (one change at a time) as no status, and
// the screen under the other versions (and the generic profile) as no
// status.
func CheckStatus(t *testing.T, sh Shot, state contract.ScreenState, composer contract.Composer,
	want []recognizers.StatusField, cases []Change, others ...string) {
	t.Helper()
	r := Recognize(sh.Screen(t), sh.Agent, sh.Version)
	if r.ScreenState != state || r.Composer != composer || r.Interaction != nil || r.Plan != nil {
		t.Errorf("%s: %s composer %s interaction %v plan %v, want %s, %s, nothing to act on", sh, r.ScreenState, r.Composer, r.Interaction, r.Plan, state, composer)
	}
	if r.Status == nil || !reflect.DeepEqual(r.Status.Fields, want) {
		t.Errorf("%s: status %+v, want %+v", sh, r.Status, want)
	}
	for _, c := range cases {
		if r := Recognize(c.Mut(sh.Screen(t)), sh.Agent, sh.Version); r.Status != nil {
			t.Errorf("%s, %s: status %+v (%s), want none", sh, c.Name, r.Status.Fields, r.ScreenState)
		}
	}
	for _, v := range others {
		if r := Recognize(sh.Screen(t), sh.Agent, v); r.Status != nil {
			t.Errorf("%s read as %s: status %+v, want none", sh, v, r.Status.Fields)
		}
	}
}

// CheckPicker reads the recorded picker as menu_or_viewer with nothing
// to act on, and each case of it as unknown.
func CheckPicker(t *testing.T, sh Shot, cases []Change, others ...string) {
	t.Helper()
	r := Recognize(sh.Screen(t), sh.Agent, sh.Version)
	if r.ScreenState != contract.ScreenMenuOrViewer || r.Composer != contract.ComposerAbsent || r.Prompt != nil || r.Interaction != nil || r.Plan != nil {
		t.Errorf("%s: %s composer %s prompt %v interaction %v plan %v, want menu_or_viewer, absent, nothing to act on",
			sh, r.ScreenState, r.Composer, r.Prompt, r.Interaction, r.Plan)
	}
	for _, c := range cases {
		r := Recognize(c.Mut(sh.Screen(t)), sh.Agent, sh.Version)
		if r.ScreenState != contract.ScreenUnknown || r.Interaction != nil || r.Plan != nil {
			t.Errorf("%s, %s: %s %v, want unknown", sh, c.Name, r.ScreenState, ReasonCodes(r))
		}
	}
	// Another version's picker is not this version's.
	for _, v := range others {
		if r := Recognize(sh.Screen(t), sh.Agent, v); r.ScreenState != contract.ScreenUnknown {
			t.Errorf("%s read by %s: %s, want unknown", sh, v, r.ScreenState)
		}
	}
}

// CheckPickerRows reads the recorded picker's rows as want, and each case
// of it (one change at a time) as no picker, whatever its state.
func CheckPickerRows(t *testing.T, sh Shot, want *recognizers.Picker, cases []Change, others ...string) {
	t.Helper()
	r := Recognize(sh.Screen(t), sh.Agent, sh.Version)
	if !reflect.DeepEqual(r.Picker, want) {
		t.Errorf("%s: picker %+v, want %+v", sh, r.Picker, want)
	}
	for _, c := range cases {
		if r := Recognize(c.Mut(sh.Screen(t)), sh.Agent, sh.Version); r.Picker != nil {
			t.Errorf("%s, %s: picker %+v (%s), want none", sh, c.Name, r.Picker, r.ScreenState)
		}
	}
	for _, v := range others {
		if r := Recognize(sh.Screen(t), sh.Agent, v); r.Picker != nil {
			t.Errorf("%s read by %s: picker %+v, want none", sh, v, r.Picker)
		}
	}
}

// Recognize reads scr with the profile of agent@version (exact or
// generic), ids under recognizers.TestKey.
func Recognize(scr *vt.Screen, agent, version string) recognizers.Recognition {
	return recognizers.Recognize(recognizers.Lookup(agent, version), scr, recognizers.TestKey)
}

// ReasonCodes are the codes of r's reasons, in order.
func ReasonCodes(r recognizers.Recognition) []string {
	var out []string
	for _, rs := range r.Reasons {
		out = append(out, rs.Code)
	}
	return out
}

// HasReason reports whether r has a reason with one of codes.
func HasReason(r recognizers.Recognition, codes ...string) bool {
	for _, rs := range r.Reasons {
		if slices.Contains(codes, rs.Code) {
			return true
		}
	}
	return false
}
