package recognizers_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestBlockedStartupAndInterrupted: every recorded startup screen and
// interruption reads blocked with its reason and nothing to offer (no
// prompt, interaction, plan or clear); the interruption sits above the
// composer, empty; the startup dialogs have none. Changing the
// dialog's title text takes the block away (unknown: zero input still).
func TestBlockedStartupAndInterrupted(t *testing.T) {
	want := map[string]string{
		"startup-trust":      recognizers.BlockedTrust,
		"startup-login":      recognizers.BlockedLogin,
		"startup-api-key":    recognizers.BlockedLogin,
		"startup-onboarding": recognizers.BlockedOnboarding,
		"startup-update":     recognizers.BlockedUpdate,
		"interrupted":        recognizers.BlockedInterrupted,
		"permission-reject":  recognizers.BlockedInterrupted,
		"question-escape":    recognizers.BlockedInterrupted,
	}
	seen := map[string]int{}
	for _, b := range screentest.MarkedBlocked(t, func(surface string) bool { _, ok := want[surface]; return ok }) {
		f, k, scr, m := b.File, b.Marker, b.Screen, b.Mark
		reason := want[f.Surface]
		name := f.Agent + "/" + f.Version + "/" + f.Surface
		r := screentest.Recognize(scr, f.Agent, f.Version)
		switch {
		case r.ScreenState != contract.ScreenBlocked || r.Blocked == nil || r.Blocked.Reason != reason:
			t.Errorf("%s marker %d: %s %+v %v, want blocked %s", name, k, r.ScreenState, r.Blocked, r.Reasons, reason)
			continue
		case r.Prompt != nil || r.Interaction != nil || r.Plan != nil || r.Clear != nil || r.Actionable():
			t.Errorf("%s: a blocked screen offers input: %+v", name, r)
		case r.Composer != m.Expect.Composer:
			t.Errorf("%s: composer %s, marker %s", name, r.Composer, m.Expect.Composer)
		}
		seen[reason]++
		// The title (or note) row's first letter changed: no block.
		w, _ := scr.Size()
		y := r.Blocked.Row
		if f.Surface != "startup-login" || f.Agent == "codex" {
			for x := 0; x < w; x++ {
				if c := scr.Cell(x, y); c.Text != " " && c.Text != "─" && c.Text != "■" && c.Text != "⎿" && c.Text != "✨" && c.Width == 1 {
					screentest.SetText(scr, x, y, "Z")
					break
				}
			}
			if again := screentest.Recognize(scr, f.Agent, f.Version); again.ScreenState == contract.ScreenBlocked {
				t.Errorf("%s: still blocked with its title changed: %+v", name, again.Blocked)
			}
		}
	}
	for _, r := range []string{recognizers.BlockedTrust, recognizers.BlockedLogin, recognizers.BlockedOnboarding,
		recognizers.BlockedUpdate, recognizers.BlockedInterrupted} {
		if seen[r] == 0 {
			t.Errorf("no recorded screen reads %s", r)
		}
	}
	t.Logf("blocked screens by reason: %v", seen)
}
