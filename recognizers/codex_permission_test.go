package recognizers_test

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestCodexWrappedGrant: the exec overlay whose persistent row wraps is
// actionable at the widths its recordings show; the same screen widened
// (the footer's dim padding drawn to the new edge) is not, and a
// continuation row in the highlight style is not either.
func TestCodexWrappedGrant(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		scr := markerScreen(t, "codex", v, "exec-long", 0)
		w, h := scr.Size()
		r := recognize(copyScreen(scr, 0, w, h), "codex", v)
		if !r.Actionable() || !slices.Equal(r.Interaction.Decisions, []contract.Decision{contract.DecisionApproveOnce}) {
			t.Fatalf("%s: exec-long not actionable: %v", v, r.Reasons)
		}
		foot := r.Region.Bottom()
		wide := copyScreen(scr, 0, w+8, h)
		pad := scr.Cell(w-1, foot)
		for x := w; x < w+8; x++ {
			wide.SetCell(x, foot, pad)
		}
		if got := recognize(wide, "codex", v); got.Actionable() || !slices.Equal(reasonCodes(got), []string{recognizers.ReasonWrappedLabel}) {
			t.Errorf("%s: widened to %d: %s %v, want only %s", v, w+8, got.ScreenState, reasonCodes(got), recognizers.ReasonWrappedLabel)
		}
		lit := copyScreen(scr, 0, w, h)
		opts := r.Prompt.Questions[0].Options
		hl := scr.Cell(0, opts[0].Row).Style
		y := opts[1].Row + 1
		for x := 0; x < w; x++ {
			if c := lit.Cell(x, y); c.Text != " " && c.Text != "" {
				c.Style = hl
				lit.SetCell(x, y, c)
			}
		}
		if got := recognize(lit, "codex", v); got.Actionable() || !hasReason(got, recognizers.ReasonHighlightUnproven) {
			t.Errorf("%s: lit continuation row: %s %v", v, got.ScreenState, reasonCodes(got))
		}
	}
}

// TestCodexBareHints: Codex 0.171.0 with a draft and nothing in the hints
// row (bubblewrap on PATH, permission-bwrap while "run-ls" is typed) is
// idle with the draft; the blank hints row proves nothing else: not
// under the placeholder, and not with the status line off the pane's
// second-last row.
func TestCodexBareHints(t *testing.T) {
	rec := loadCast(t, castPath("codex", "0.171.0", "permission-bwrap"))
	scr := screenAtTime(t, rec, 1.6)
	r := recognize(scr, "codex", "0.171.0")
	if r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerDraft || r.Draft != "run-ls" {
		t.Fatalf("draft without hints: %s/%s %q %v", r.ScreenState, r.Composer, r.Draft, reasonCodes(r))
	}
	w, h := scr.Size()
	p := r.Region.Top
	empty := copyScreen(scr, 0, w, h)
	src := markerScreen(t, "codex", "0.171.0", "idle-bwrap", 0)
	ip := recognize(src, "codex", "0.171.0").Region.Top
	for x := 0; x < w; x++ {
		empty.SetCell(x, p, src.Cell(x, ip))
	}
	if got := recognize(empty, "codex", "0.171.0"); got.ScreenState == contract.ScreenIdle {
		t.Errorf("placeholder over a blank hints row read as idle")
	}
	up := copyScreen(scr, 1, w, h) // everything one row up: two blank rows under the status line
	if got := recognize(up, "codex", "0.171.0"); got.ScreenState == contract.ScreenIdle {
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
		scr := markerScreen(t, "codex", v, "permission-approve", 0)
		w, h := scr.Size()
		if r := recognize(copyScreen(scr, 0, w, h), "codex", v); !r.Actionable() {
			t.Fatalf("%s: the recorded overlay is not actionable: %v", v, reasonCodes(r))
		}
		y := -1
		for row := 0; row < h && y < 0; row++ {
			if findText(scr, row, title) >= 0 {
				y = row
			}
		}
		if y < 0 || !replaceText(scr, y, title, "fakemcp needs your approval.") {
			t.Fatalf("%s: no title row", v)
		}
		r := recognize(scr, "codex", v)
		if r.Actionable() || r.ScreenState != contract.ScreenBlocked || !hasReason(r, recognizers.ReasonUserVerification) || r.Plan != nil {
			t.Errorf("%s: retitled overlay: %s %v (plan %v), want blocked with %s", v, r.ScreenState, reasonCodes(r), r.Plan != nil, recognizers.ReasonUserVerification)
		}
	}
}
