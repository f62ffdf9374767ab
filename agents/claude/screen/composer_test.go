package screen_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

var ctrlS = []byte{0x13}

type stashCase struct {
	screentest.Shot
	state             contract.ScreenState
	composer          contract.Composer
	clear             bool
	stashed, restored bool
}

// TestClaudeStash: Claude Code's draft is cleared by stashing it with
// ctrl+s, offered only while no stash chip is shown (a second ctrl+s would
// replace the stash); the chip and the "Draft restored" notice after a
// submit are read apart.
func TestClaudeStash(t *testing.T) {
	cases := []stashCase{}
	for _, v := range []string{"2.1.267", "2.1.332"} {
		chipDraft, workingChipDraft := 12.4, 4.37
		if v == "2.1.332" {
			chipDraft, workingChipDraft = 12.0, 4.51
		}
		cases = append(cases, []stashCase{
			{screentest.Shot{Agent: "claude", Version: v, Surface: "draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// A draft; stashed (the chip, an empty composer); another draft
			// typed under the chip; submitted: the stash is back with the
			// notice while the turn runs; the turn over, no notice.
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-send", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-send", Marker: 1}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-send", Marker: 0, At: chipDraft}, contract.ScreenIdle, contract.ComposerDraft, false, true, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-send", Marker: 2}, contract.ScreenWorking, contract.ComposerDraft, true, false, true},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-send", Marker: 3}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// ctrl+s on an empty composer brings the stash back (marker 2).
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-empty", Marker: 1}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-empty", Marker: 2}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// Two rows stash whole.
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-multiline", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-multiline", Marker: 1}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			// While a turn runs.
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-working", Marker: 0}, contract.ScreenWorking, contract.ComposerDraft, true, false, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-working", Marker: 1}, contract.ScreenWorking, contract.ComposerEmpty, false, true, false},
			{screentest.Shot{Agent: "claude", Version: v, Surface: "stash-working", Marker: 0, At: workingChipDraft}, contract.ScreenWorking, contract.ComposerDraft, false, true, false},
		}...)
	}
	// Versions without a stash recording are offered no clear.
	cases = append(cases, []stashCase{
		{screentest.Shot{Agent: "claude", Version: "2.1.263", Surface: "draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, false, false, false},
		{screentest.Shot{Agent: "claude", Version: "2.1.266", Surface: "draft", Marker: 0}, contract.ScreenIdle, contract.ComposerDraft, false, false, false},
	}...)
	for _, c := range cases {
		t.Run(c.Shot.String(), func(t *testing.T) {
			r := screentest.RecognizeShot(t, c.Shot, c.state, c.composer)
			screentest.CheckClear(t, r, c.clear, recognizers.Clear{Keys: ctrlS, Stash: true})
			if r.Stashed != c.stashed || r.DraftRestored != c.restored {
				t.Errorf("stashed=%v restored=%v, want %v %v", r.Stashed, r.DraftRestored, c.stashed, c.restored)
			}
		})
	}
}

// TestClaudeStashChipProven: the chip and the notice count only in their
// recorded style at the right end of the row above the composer; a chip
// that cannot be proven still forbids ctrl+s.
func TestClaudeStashChipProven(t *testing.T) {
	grey := vt.Style{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(244))}
	for _, c := range []struct {
		version string
		chipAt  float64
	}{{"2.1.267", 12.4}, {"2.1.332", 12.0}} {
		base := screentest.Shot{Agent: "claude", Version: c.version, Surface: "stash-send", Marker: 0, At: c.chipAt}.Screen(t)
		r := screentest.Recognize(base, "claude", c.version)
		if !r.Stashed || r.Composer != contract.ComposerDraft {
			t.Fatalf("%s: the base screen shows no chip over a draft", c.version)
		}
		chip := r.Region.Top - 1
		w, h := base.Size()
		cases := map[string]func(s *vt.Screen){
			"chip restyled": func(s *vt.Screen) { screentest.Restyle(s, chip, chip, grey) },
			"chip moved left": func(s *vt.Screen) {
				const shift = 80
				row := make([]vt.Cell, w)
				for x := range w {
					row[x] = s.Cell(x, chip)
				}
				screentest.BlankRow(s, chip)
				for x := shift; x < w; x++ {
					s.SetCell(x-shift, chip, row[x])
				}
			},
			"chip followed by text": func(s *vt.Screen) { screentest.SetText(s, w-2, chip, "x") },
		}
		for name, mutate := range cases {
			s := screentest.CopyScreen(base, 0, w, h)
			mutate(s)
			r := screentest.Recognize(s, "claude", c.version)
			if r.Stashed || r.Clear != nil {
				t.Errorf("%s %s: stashed=%v clear=%v, want neither", c.version, name, r.Stashed, r.Clear != nil)
			}
		}

		restoredScr := screentest.Shot{Agent: "claude", Version: c.version, Surface: "stash-send", Marker: 2}.Screen(t)
		r = screentest.Recognize(restoredScr, "claude", c.version)
		s := screentest.CopyScreen(restoredScr, 0, w, h)
		screentest.Restyle(s, r.Region.Top-1, r.Region.Top-1, grey)
		if r := screentest.Recognize(s, "claude", c.version); r.DraftRestored {
			t.Errorf("%s: a restyled notice reads as restored", c.version)
		}
		if r := screentest.Recognize(base, "claude", "2.1.999"); r.Clear != nil {
			t.Errorf("%s's screen under the generic profile offers a clear", c.version)
		}
	}
	draft := screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "draft", Marker: 0}.Screen(t)
	if r := screentest.Recognize(draft, "claude", "2.1.999"); r.Composer != contract.ComposerDraft || r.Clear != nil {
		t.Errorf("generic profile: composer %s clear %v, want a draft and no clear", r.Composer, r.Clear != nil)
	}
}
