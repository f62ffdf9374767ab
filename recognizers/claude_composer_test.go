package recognizers_test

import (
	"bytes"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

var ctrlS = []byte{0x13}

type stashCase struct {
	shot
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
			{shot{"claude", v, "draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// A draft; stashed (the chip, an empty composer); another draft
			// typed under the chip; submitted: the stash is back with the
			// notice while the turn runs; the turn over, no notice.
			{shot{"claude", v, "stash-send", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			{shot{"claude", v, "stash-send", 1, 0}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			{shot{"claude", v, "stash-send", 0, chipDraft}, contract.ScreenIdle, contract.ComposerDraft, false, true, false},
			{shot{"claude", v, "stash-send", 2, 0}, contract.ScreenWorking, contract.ComposerDraft, true, false, true},
			{shot{"claude", v, "stash-send", 3, 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// ctrl+s on an empty composer brings the stash back (marker 2).
			{shot{"claude", v, "stash-empty", 1, 0}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			{shot{"claude", v, "stash-empty", 2, 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			// Two rows stash whole.
			{shot{"claude", v, "stash-multiline", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, true, false, false},
			{shot{"claude", v, "stash-multiline", 1, 0}, contract.ScreenIdle, contract.ComposerEmpty, false, true, false},
			// While a turn runs.
			{shot{"claude", v, "stash-working", 0, 0}, contract.ScreenWorking, contract.ComposerDraft, true, false, false},
			{shot{"claude", v, "stash-working", 1, 0}, contract.ScreenWorking, contract.ComposerEmpty, false, true, false},
			{shot{"claude", v, "stash-working", 0, workingChipDraft}, contract.ScreenWorking, contract.ComposerDraft, false, true, false},
		}...)
	}
	// Versions without a stash recording are offered no clear.
	cases = append(cases, []stashCase{
		{shot{"claude", "2.1.263", "draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, false, false, false},
		{shot{"claude", "2.1.266", "draft", 0, 0}, contract.ScreenIdle, contract.ComposerDraft, false, false, false},
	}...)
	for _, c := range cases {
		t.Run(c.shot.String(), func(t *testing.T) {
			r := recognize(c.screen(t), c.agent, c.version)
			if r.ScreenState != c.state || r.Composer != c.composer {
				t.Fatalf("read %s composer %s, want %s composer %s (%v)", r.ScreenState, r.Composer, c.state, c.composer, reasonCodes(r))
			}
			switch {
			case !c.clear && r.Clear != nil:
				t.Errorf("clear %q offered, want none", r.Clear.Keys)
			case c.clear && (r.Clear == nil || !bytes.Equal(r.Clear.Keys, ctrlS) || !r.Clear.Stash):
				t.Errorf("clear %+v, want ctrl+s with stash", r.Clear)
			}
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
		base := shot{"claude", c.version, "stash-send", 0, c.chipAt}.screen(t)
		r := recognize(base, "claude", c.version)
		if !r.Stashed || r.Composer != contract.ComposerDraft {
			t.Fatalf("%s: the base screen shows no chip over a draft", c.version)
		}
		chip := r.Region.Top - 1
		w, h := base.Size()
		cases := map[string]func(s *vt.Screen){
			"chip restyled": func(s *vt.Screen) { restyle(s, chip, chip, grey) },
			"chip moved left": func(s *vt.Screen) {
				const shift = 80
				row := make([]vt.Cell, w)
				for x := range w {
					row[x] = s.Cell(x, chip)
				}
				blankRow(s, chip)
				for x := shift; x < w; x++ {
					s.SetCell(x-shift, chip, row[x])
				}
			},
			"chip followed by text": func(s *vt.Screen) { setText(s, w-2, chip, "x") },
		}
		for name, mutate := range cases {
			s := copyScreen(base, 0, w, h)
			mutate(s)
			r := recognize(s, "claude", c.version)
			if r.Stashed || r.Clear != nil {
				t.Errorf("%s %s: stashed=%v clear=%v, want neither", c.version, name, r.Stashed, r.Clear != nil)
			}
		}

		restoredScr := shot{"claude", c.version, "stash-send", 2, 0}.screen(t)
		r = recognize(restoredScr, "claude", c.version)
		s := copyScreen(restoredScr, 0, w, h)
		restyle(s, r.Region.Top-1, r.Region.Top-1, grey)
		if r := recognize(s, "claude", c.version); r.DraftRestored {
			t.Errorf("%s: a restyled notice reads as restored", c.version)
		}
		if r := recognize(base, "claude", "2.1.999"); r.Clear != nil {
			t.Errorf("%s's screen under the generic profile offers a clear", c.version)
		}
	}
	draft := shot{"claude", "2.1.267", "draft", 0, 0}.screen(t)
	if r := recognize(draft, "claude", "2.1.999"); r.Composer != contract.ComposerDraft || r.Clear != nil {
		t.Errorf("generic profile: composer %s clear %v, want a draft and no clear", r.Composer, r.Clear != nil)
	}
}
