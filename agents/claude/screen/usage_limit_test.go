package screen_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// usageLimitScreens are the corpus' Claude usage-limit screens.
func usageLimitScreens(t *testing.T) []screentest.BlockedScreen {
	return screentest.MarkedBlocked(t, func(surface string) bool { return strings.HasPrefix(surface, "usage-limit") })
}

// TestBlockedUsageLimit: Claude Code's usage-limit screen is blocked
// usage_limit with its reset time as printed ("9:36pm (UTC)", "10pm
// (UTC)") and AutoContinue (Claude continues by itself: not resumable),
// the composer read as empty, and offers nothing.
func TestBlockedUsageLimit(t *testing.T) {
	for _, b := range usageLimitScreens(t) {
		name := b.File.Version + "/" + b.File.Surface
		r := screentest.Recognize(b.Screen, b.File.Agent, b.File.Version)
		got := r.Blocked
		if r.ScreenState != contract.ScreenBlocked || got == nil {
			t.Errorf("%s: %s %v %v", name, r.ScreenState, got, r.Reasons)
			continue
		}
		hour := strings.HasSuffix(b.File.Surface, "-hour")
		at, zone, _ := strings.Cut(got.ResetsAt, " ")
		if got.Reason != recognizers.BlockedUsageLimit || got.Status != 0 || !got.AutoContinue || zone != "(UTC)" ||
			!strings.HasSuffix(at, "pm") || strings.Contains(at, ":") == hour {
			t.Errorf("%s: blocked %+v", name, *got)
		}
		if !printed(b.Screen, "resets "+got.ResetsAt) {
			t.Errorf("%s: resets_at %q is not the printed time", name, got.ResetsAt)
		}
		if r.Composer != contract.ComposerEmpty || !r.Exact || len(r.Reasons) != 0 {
			t.Errorf("%s: composer %s exact %v reasons %v", name, r.Composer, r.Exact, r.Reasons)
		}
		if r.Prompt != nil || r.Interaction != nil || r.Plan != nil || r.Clear != nil || r.Actionable() {
			t.Errorf("%s: the usage-limit screen offers input: %+v", name, r)
		}
	}
}

// TestBlockedUsageLimitMutations: the usage-limit screen changed in its
// text, colour, reset times, notices or composer is neither blocked nor
// idle.
func TestBlockedUsageLimitMutations(t *testing.T) {
	for _, b := range usageLimitScreens(t) {
		name := b.File.Version + "/" + b.File.Surface
		r := screentest.Recognize(b.Screen, b.File.Agent, b.File.Version)
		if r.Blocked == nil {
			continue // TestBlockedUsageLimit says why
		}
		w, h := b.Screen.Size()
		row, top := r.Blocked.Row, r.Region.Top
		foot := top + r.Region.Rows - 1
		notice := top + 3 // under the upper rule, the empty "❯" row and the lower rule
		clock, _, _ := strings.Cut(r.Blocked.ResetsAt, " ")
		for _, m := range []struct {
			name  string
			apply func(s *vt.Screen)
			why   string // the reason it must give, "" any
		}{
			{"limit text changed", func(s *vt.Screen) { screentest.SetText(s, 5, row, "X") }, recognizers.NoteUnknownAPIError},
			{"limit colour removed", func(s *vt.Screen) { screentest.Restyle(s, row, row, vt.DefaultStyle) }, recognizers.NoteUnknownAPIError},
			{"a reset time differs", func(s *vt.Screen) {
				x := screentest.Column(s, notice, clock)
				d := "8"
				if clock[0] == '8' {
					d = "9"
				}
				screentest.SetText(s, x, notice, d)
			}, recognizers.NoteUnknownAPIError},
			{"notices gone", func(s *vt.Screen) {
				screentest.CopyRow(s, foot, notice)
				for y := notice + 1; y < h; y++ {
					screentest.BlankRow(s, y)
				}
			}, recognizers.NoteUnknownAPIError},
			{"notice text changed", func(s *vt.Screen) { screentest.SetText(s, 4, notice, "X") }, ""},
			{"a draft", func(s *vt.Screen) { screentest.SetText(s, 2, top+1, "x") }, ""},
		} {
			s := screentest.CopyScreen(b.Screen, 0, w, h)
			m.apply(s)
			got := screentest.Recognize(s, b.File.Agent, b.File.Version)
			if got.ScreenState != contract.ScreenUnknown || got.Blocked != nil || got.Actionable() {
				t.Errorf("%s %s: %s %v %v, want unknown", name, m.name, got.ScreenState, got.Blocked, got.Reasons)
			}
			if m.why != "" && !screentest.HasReason(got, m.why) {
				t.Errorf("%s %s: reasons %v", name, m.name, got.Reasons)
			}
		}
		// The generic profile knows every recorded version's screen.
		if g := screentest.Recognize(b.Screen, b.File.Agent, "2.1.999"); g.ScreenState != contract.ScreenBlocked || g.Blocked == nil ||
			*g.Blocked != *r.Blocked || g.Exact || g.Actionable() {
			t.Errorf("%s generic: %s %v %v", name, g.ScreenState, g.Blocked, g.Reasons)
		}
	}
}

// printed reports whether a row of s shows sub.
func printed(s *vt.Screen, sub string) bool {
	_, h := s.Size()
	for y := 0; y < h; y++ {
		if screentest.Column(s, y, sub) >= 0 {
			return true
		}
	}
	return false
}
