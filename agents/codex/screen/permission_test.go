package screen_test

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestCodexWrappedGrant: the exec overlay whose persistent row wraps is
// actionable at the widths its recordings show; the same screen widened
// (the footer's dim padding drawn to the new edge) is not, and a
// continuation row in the highlight style is not either.
func TestCodexWrappedGrant(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		scr := screentest.MarkerScreen(t, "codex", v, "exec-long", 0)
		w, h := scr.Size()
		r := screentest.Recognize(screentest.CopyScreen(scr, 0, w, h), "codex", v)
		if !r.Actionable() || !slices.Equal(r.Interaction.Decisions, []contract.Decision{contract.DecisionApproveOnce}) {
			t.Fatalf("%s: exec-long not actionable: %v", v, r.Reasons)
		}
		foot := r.Region.Bottom()
		wide := screentest.CopyScreen(scr, 0, w+8, h)
		pad := scr.Cell(w-1, foot)
		for x := w; x < w+8; x++ {
			wide.SetCell(x, foot, pad)
		}
		if got := screentest.Recognize(wide, "codex", v); got.Actionable() || !slices.Equal(screentest.ReasonCodes(got), []string{recognizers.ReasonWrappedLabel}) {
			t.Errorf("%s: widened to %d: %s %v, want only %s", v, w+8, got.ScreenState, screentest.ReasonCodes(got), recognizers.ReasonWrappedLabel)
		}
		lit := screentest.CopyScreen(scr, 0, w, h)
		opts := r.Prompt.Questions[0].Options
		hl := scr.Cell(0, opts[0].Row).Style
		y := opts[1].Row + 1
		for x := 0; x < w; x++ {
			if c := lit.Cell(x, y); c.Text != " " && c.Text != "" {
				c.Style = hl
				lit.SetCell(x, y, c)
			}
		}
		if got := screentest.Recognize(lit, "codex", v); got.Actionable() || !screentest.HasReason(got, recognizers.ReasonHighlightUnproven) {
			t.Errorf("%s: lit continuation row: %s %v", v, got.ScreenState, screentest.ReasonCodes(got))
		}
	}
}

// TestCodexBareHints: Codex 0.171.0 with a draft and nothing in the hints
// row (bubblewrap on PATH, permission-bwrap while "run-ls" is typed) is
// idle with the draft; the blank hints row proves nothing else: not
// under the placeholder, and not with the status line off the pane's
// second-last row.
func TestCodexBareHints(t *testing.T) {
	rec := screentest.LoadCast(t, screentest.CastPath("codex", "0.171.0", "permission-bwrap"))
	scr := screentest.ScreenAtTime(t, rec, 1.6)
	r := screentest.Recognize(scr, "codex", "0.171.0")
	if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != "run-ls" {
		t.Fatalf("draft without hints: %s/%s %q %v", r.ScreenState, r.Composer, r.Draft, screentest.ReasonCodes(r))
	}
	w, h := scr.Size()
	p := r.Region.Top
	empty := screentest.CopyScreen(scr, 0, w, h)
	src := screentest.MarkerScreen(t, "codex", "0.171.0", "idle-bwrap", 0)
	ip := screentest.Recognize(src, "codex", "0.171.0").Region.Top
	for x := 0; x < w; x++ {
		empty.SetCell(x, p, src.Cell(x, ip))
	}
	if got := screentest.Recognize(empty, "codex", "0.171.0"); got.ScreenState == contract.ScreenIdle {
		t.Errorf("placeholder over a blank hints row read as idle")
	}
	up := screentest.CopyScreen(scr, 1, w, h) // everything one row up: two blank rows under the status line
	if got := screentest.Recognize(up, "codex", "0.171.0"); got.ScreenState == contract.ScreenIdle {
		t.Errorf("status line off the pane's second-last row read as idle")
	}
}

// TestCodexUserVerification: an approval overlay whose title ends "needs
// your approval." (Codex's MCP user verification, seed 000: it needs the
// person at the terminal) is blocked with user_verification and no plan,
// on every Codex profile with an exec overlay. No recording shows one
// (it needs a platform verification offline runs cannot trigger), so the
// recorded exec overlay is retitled; the same screen with its own title
// stays actionable.
func TestCodexUserVerification(t *testing.T) {
	const title = "Would you like to run the following command?"
	for _, v := range []string{"0.153.4", "0.154.0", "0.155.1", "0.171.0"} {
		scr := screentest.MarkerScreen(t, "codex", v, "permission-approve", 0)
		w, h := scr.Size()
		if r := screentest.Recognize(screentest.CopyScreen(scr, 0, w, h), "codex", v); !r.Actionable() {
			t.Fatalf("%s: the recorded overlay is not actionable: %v", v, screentest.ReasonCodes(r))
		}
		y := -1
		for row := 0; row < h && y < 0; row++ {
			if screentest.FindText(scr, row, title) >= 0 {
				y = row
			}
		}
		if y < 0 || !screentest.ReplaceText(scr, y, title, "fakemcp needs your approval.") {
			t.Fatalf("%s: no title row", v)
		}
		r := screentest.Recognize(scr, "codex", v)
		if r.Actionable() || r.ScreenState != contract.ScreenBlocked || !screentest.HasReason(r, recognizers.ReasonUserVerification) || r.Plan != nil {
			t.Errorf("%s: retitled overlay: %s %v (plan %v), want blocked with %s", v, r.ScreenState, screentest.ReasonCodes(r), r.Plan != nil, recognizers.ReasonUserVerification)
		}
	}
}
