package recognizers_test

import (
	"os"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// fuzzSource is an actionable corpus screen and the cells its proof rests
// on: a change to any of them must leave nothing actionable.
type fuzzSource struct {
	agent, version string
	scr            *vt.Screen // the corpus screen, never changed
	// work is a copy changed one cell at a time and restored, read by an
	// incremental Recognizer: a mutation costs one row, not a screen.
	work  *vt.Screen
	rec   *recognizers.Recognizer
	cells []fuzzCell
}

// try changes cell c of the work copy, recognizes it and restores it. It
// reports whether the change was one and whether the result is
// actionable.
func (s *fuzzSource) try(c fuzzCell, change uint8) (changed, actionable bool) {
	old := s.scr.Cell(c.x, c.y)
	cell, changed := mutated(old, c, change)
	if !changed {
		return false, false
	}
	s.work.SetCell(c.x, c.y, cell)
	r := s.rec.Recognize(s.work)
	s.work.SetCell(c.x, c.y, old)
	return true, r.Actionable()
}

type fuzzCell struct {
	x, y  int
	style bool // a style change must break the proof too (else text only)
}

var (
	fuzzOnce    sync.Once
	fuzzSources []fuzzSource
)

func loadFuzzSources(t testing.TB) []fuzzSource {
	fuzzOnce.Do(func() {
		for _, agent := range []string{"claude", "codex", "opencode"} {
			srcs := map[string][]screentest.Source{"claude": claudeSources, "codex": codexSources, "opencode": openCodeSources}[agent]
			for _, src := range srcs {
				if agent == "opencode" && src.Name == "permission-w200" {
					// The session sidebar's text shares the dialog's rows
					// and is no part of the proof: a change there is none
					// (the adversarial suite covers the screen).
					continue
				}
				for _, v := range src.Versions {
					if _, err := os.Stat(screentest.CastPath(agent, v, src.Surface)); err != nil {
						continue
					}
					scr := screentest.MarkerScreen(t, agent, v, src.Surface, src.Marker)
					r := screentest.Recognize(scr, agent, v)
					if r.Actionable() {
						w, h := scr.Size()
						fuzzSources = append(fuzzSources, fuzzSource{agent: agent, version: v, scr: scr,
							work: screentest.CopyScreen(scr, 0, w, h), rec: recognizers.NewRecognizer(recognizers.Lookup(agent, v), recognizers.TestKey),
							cells: structuralCells(scr, &r)})
					}
				}
			}
		}
	})
	return fuzzSources
}

// structuralCells lists the cells a profile proves a prompt with: the
// frame's top row, the footer row, every option row's glyph and number,
// and the exact labels of the permission rows akk acts on. Claude proves
// styles everywhere there; Codex proves its footers and titles by text
// and its highlight by style.
func structuralCells(s *vt.Screen, r *recognizers.Recognition) []fuzzCell {
	w, _ := s.Size()
	claude := r.Agent == "claude"
	var out []fuzzCell
	row := func(y int, style bool) {
		for x := 0; x < w; x++ {
			if c := s.Cell(x, y); c.Text != " " && c.Width != 0 {
				out = append(out, fuzzCell{x, y, style})
			}
		}
	}
	if !r.Region.Empty() {
		row(r.Region.Top, claude)
		switch {
		case r.Interaction.Tool == contract.ToolPlan:
			// The plan's footer names its file: only the fixed start
			// "ctrl+g to edit in Vim · " and the ".md" prove anything.
			y, n := r.Region.Bottom(), utf8.RuneCountInString("   ctrl+g to edit in Vim · ")
			for x := 0; x < w; x++ {
				if c := s.Cell(x, y); c.Text != " " && c.Width != 0 && (x < n || s.Cell(x+3, y).Text == " ") {
					out = append(out, fuzzCell{x, y, true})
				}
			}
		case r.Interaction.Kind != contract.KindConfirmation || !claude:
			row(r.Region.Bottom(), claude)
		}
	}
	gx, gy, glyph := glyphCell(s, r)
	opts := screentest.Options(r)
	for i, o := range opts {
		nx := numberX(s, o)
		for x := 0; x <= nx+1; x++ {
			out = append(out, fuzzCell{x, o.Row, claude || glyph && x == gx && o.Row == gy})
		}
		if r.Interaction.Kind == contract.KindPermission && (i == 0 || i == len(opts)-1) {
			for x := nx + 3; x < nx+3+len(o.Label) && x < w; x++ {
				out = append(out, fuzzCell{x, o.Row, false})
			}
		}
	}
	return out
}

var (
	fuzzTexts  = []string{"x", " ", "─", "❯", "›", "1", "2", "4", ".", "·"}
	fuzzStyles = []vt.Style{
		{}, {Style: tcell.StyleDefault.Bold(true)}, {Style: tcell.StyleDefault.Dim(true)},
		{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(153))},
		{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(246))},
		{Style: tcell.StyleDefault.Foreground(tcell.PaletteColor(6)).Bold(true), Ext: vt.FgIndexed},
		{Style: tcell.StyleDefault.Reverse(true)},
	}
)

// FuzzRecognize feeds every profile random pane output (no panic, nothing
// actionable) and real actionable screens with one structural cell
// changed (nothing actionable) or any cell changed (no panic).
func FuzzRecognize(f *testing.F) {
	srcs := loadFuzzSources(f)
	if len(srcs) == 0 {
		f.Fatal("no actionable sources in the corpus")
	}
	for i := range srcs {
		f.Add(uint8(1), uint16(i), uint16(i*7), uint8(i), []byte("x"))
	}
	f.Add(uint8(0), uint16(0), uint16(0), uint8(0), []byte("\x1b[38;5;153m❯ 1. Yes\x1b[0m\r\n Esc to cancel · Tab to amend"))
	f.Add(uint8(2), uint16(3), uint16(999), uint8(5), []byte("\x1b[7m"))
	profiles := recognizers.Profiles()
	f.Fuzz(func(t *testing.T, mode uint8, pick, at uint16, change uint8, data []byte) {
		switch mode % 3 {
		case 0:
			scr := vt.New(120, 40, vt.Options{})
			scr.Write(data)
			for _, p := range profiles {
				if r := recognizers.Recognize(p, scr, recognizers.TestKey); r.Actionable() {
					t.Fatalf("random output actionable under %s: review whether it is a proven shape\n%s", p.ID(), scr)
				}
			}
		case 1:
			src := &srcs[int(pick)%len(srcs)]
			c := src.cells[int(at)%len(src.cells)]
			if _, actionable := src.try(c, change); actionable {
				t.Fatalf("%s@%s: cell %d,%d changed (%d) and still actionable", src.agent, src.version, c.x, c.y, change)
			}
		case 2:
			src := &srcs[int(pick)%len(srcs)]
			w, h := src.scr.Size()
			c := fuzzCell{int(at) % w, (int(at) / w) % h, true}
			old := src.scr.Cell(c.x, c.y)
			if cell, changed := mutated(old, c, change); changed {
				src.work.SetCell(c.x, c.y, cell)
				for _, p := range profiles {
					recognizers.Recognize(p, src.work, recognizers.TestKey)
				}
				src.work.SetCell(c.x, c.y, old)
			}
		}
	})
}

// mutated is cell old with its text, or (when c.style and the change
// says so) its style, changed. A space that stays a space in a style that
// paints nothing is no change.
func mutated(old vt.Cell, c fuzzCell, change uint8) (vt.Cell, bool) {
	cell := old
	if c.style && change&1 == 1 {
		cell.Style = fuzzStyles[int(change>>1)%len(fuzzStyles)]
	} else {
		cell.Text = fuzzTexts[int(change>>1)%len(fuzzTexts)]
		cell.Width = 1
	}
	if old.Width != 1 || cell.Text == old.Text && cell.Style == old.Style || isBlank(old) && isBlank(cell) {
		return old, false
	}
	return cell, true
}

func isBlank(c vt.Cell) bool {
	_, bg, attr := c.Style.Decompose()
	return (c.Text == " " || c.Text == "\u00a0") && bg == tcell.ColorDefault && attr&tcell.AttrReverse == 0 &&
		c.Style.GetUnderlineStyle() == tcell.UnderlineStyleNone
}

// TestStructuralCellsBreakTheProof runs the fuzz property over every
// structural cell of every source, deterministically: a text change and a
// style change each, cycling through the palettes.
func TestStructuralCellsBreakTheProof(t *testing.T) {
	n := 0
	srcs := loadFuzzSources(t)
	for i := range srcs {
		src := &srcs[i]
		for j, c := range src.cells {
			for _, change := range []uint8{uint8(2 * j), uint8(2*j + 1)} {
				changed, actionable := src.try(c, change)
				if changed {
					n++
				}
				if actionable {
					t.Errorf("%s@%s: cell %d,%d %q -> change %d: still actionable", src.agent, src.version, c.x, c.y, src.scr.Cell(c.x, c.y).Text, change)
				}
			}
		}
	}
	t.Logf("%d single-cell mutations of %d sources, none actionable", n, len(srcs))
	if n < 1000 {
		t.Errorf("only %d mutations", n)
	}
}
