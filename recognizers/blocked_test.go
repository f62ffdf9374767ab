package recognizers_test

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// blockedWant is what each blocked surface of the corpus must read as.
var blockedWant = map[string]recognizers.Block{
	"api-error-429":               {Reason: recognizers.BlockedRateLimited, Status: 429},
	"api-error-overloaded":        {Reason: recognizers.BlockedOverloaded},
	"api-error-overloaded-stream": {Reason: recognizers.BlockedOverloaded},
	"api-error-500":               {Reason: recognizers.BlockedAPIError},
	"api-usage-limit":             {Reason: recognizers.BlockedUsageLimit, Status: 429},
}

// blockedScreens are the corpus screens marked blocked (API errors).
func blockedScreens(t *testing.T) []screentest.BlockedScreen {
	return screentest.MarkedBlocked(t, func(surface string) bool { _, ok := blockedWant[surface]; return ok })
}

// TestBlockedZeroInput: every recorded error screen is blocked with its
// surface's reason (a usage limit with its reset time as printed), and
// offers nothing: no prompt, interaction, plan or clear. The screen after
// the next prompt got through is not blocked.
func TestBlockedZeroInput(t *testing.T) {
	for _, b := range blockedScreens(t) {
		name := b.File.Agent + "/" + b.File.Version + "/" + b.File.Surface
		want := blockedWant[b.File.Surface]
		if b.File.Agent == "claude" && b.File.Surface == "api-error-overloaded" {
			want.Status = 529
		}
		if b.File.Agent == "claude" && b.File.Surface == "api-error-500" {
			want.Status = 500
		}
		r := screentest.Recognize(b.Screen, b.File.Agent, b.File.Version)
		got := r.Blocked
		switch {
		case r.ScreenState != contract.ScreenBlocked || got == nil:
			t.Errorf("%s marker %d: %s %v %v", name, b.Marker, r.ScreenState, got, r.Reasons)
			continue
		case got.Reason != want.Reason || got.Status != want.Status:
			t.Errorf("%s: blocked %+v, want %+v", name, *got, want)
		case (b.File.Surface == "api-usage-limit") != (got.ResetsAt != ""):
			t.Errorf("%s: resets_at %q", name, got.ResetsAt)
		case got.ResetsAt != "" && !strings.HasSuffix(got.ResetsAt, " AM") && !strings.HasSuffix(got.ResetsAt, " PM"):
			t.Errorf("%s: resets_at %q is not the printed time", name, got.ResetsAt)
		}
		if r.Prompt != nil || r.Interaction != nil || r.Plan != nil || r.Clear != nil || r.Actionable() {
			t.Errorf("%s: a blocked screen offers input: %+v", name, r)
		}
		if next, _, ok := screentest.ScreenAtOK(t, screentest.LoadCast(t, b.File.Cast), b.Marker+1); ok {
			if r := screentest.Recognize(next, b.File.Agent, b.File.Version); r.ScreenState != contract.ScreenIdle || r.Blocked != nil {
				t.Errorf("%s marker %d: after the next reply %s %v", name, b.Marker+1, r.ScreenState, r.Blocked)
			}
		}
	}
}

// TestBlockedMutations: an error screen changed in its text, its colour
// or what follows it is not blocked: a changed text of Claude's "API
// Error" is unknown (api_error_unknown_shape), anything else keeps the
// composer's state (Codex prints notes in the same colours).
func TestBlockedMutations(t *testing.T) {
	for _, b := range blockedScreens(t) {
		name := b.File.Agent + "/" + b.File.Version + "/" + b.File.Surface
		r := screentest.Recognize(b.Screen, b.File.Agent, b.File.Version)
		if r.Blocked == nil {
			continue // TestBlockedZeroInput says why
		}
		w, h := b.Screen.Size()
		row, x := r.Blocked.Row, 2 // the error's first letter after its bullet
		if b.File.Agent == "claude" {
			x = 2 + len("API Error: ")
		}
		for _, m := range []struct {
			name  string
			apply func(s *vt.Screen)
			want  contract.ScreenState
		}{
			{"text changed", func(s *vt.Screen) { screentest.SetText(s, x, row, "X") }, map[string]contract.ScreenState{"claude": contract.ScreenUnknown, "codex": contract.ScreenIdle}[b.File.Agent]},
			{"colour removed", func(s *vt.Screen) {
				for cx := 0; cx < w; cx++ {
					c := s.Cell(cx, row)
					if c.Width != 0 {
						c.Style = vt.DefaultStyle
						s.SetCell(cx, row, c)
					}
				}
			}, contract.ScreenIdle},
			{"a reply below it", func(s *vt.Screen) {
				y := row + 1
				for y < h && !blankRowText(s, y) {
					y++
				}
				bullet := map[string]string{"claude": "●", "codex": "•"}[b.File.Agent]
				screentest.SetText(s, 0, y, bullet)
				screentest.SetText(s, 2, y, "o")
				screentest.SetText(s, 3, y, "k")
			}, contract.ScreenIdle},
		} {
			s := screentest.CopyScreen(b.Screen, 0, w, h)
			m.apply(s)
			got := screentest.Recognize(s, b.File.Agent, b.File.Version)
			if got.ScreenState != m.want || got.Blocked != nil {
				t.Errorf("%s %s: %s %v %v, want %s", name, m.name, got.ScreenState, got.Blocked, got.Reasons, m.want)
			}
			if m.want == contract.ScreenUnknown && !screentest.HasReason(got, recognizers.NoteUnknownAPIError) {
				t.Errorf("%s %s: reasons %v", name, m.name, got.Reasons)
			}
		}
	}
}

// blankRowText reports whether row y shows only spaces.
func blankRowText(s *vt.Screen, y int) bool {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		if c := s.Cell(x, y); c.Width != 0 && strings.TrimSpace(c.Text) != "" {
			return false
		}
	}
	return true
}
