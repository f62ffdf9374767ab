package vt

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// checkRowCells compares every row's compact cells with what Cell says
// about the same cells.
func checkRowCells(t *testing.T, s *Screen) {
	t.Helper()
	w, h := s.Size()
	var rcs []RowCell
	for y := range h {
		rcs = s.AppendRowCells(rcs[:0], y)
		if len(rcs) != w {
			t.Fatalf("row %d: %d cells, want %d", y, len(rcs), w)
		}
		for x, rc := range rcs {
			c := s.Cell(x, y)
			first, _ := utf8.DecodeRuneInString(c.Text)
			if c.Text == "" {
				first = 0
			}
			multi := utf8.RuneCountInString(c.Text) > 1
			if rc.Rune() != first || rc.Width() != int(c.Width) || rc.Multi() != multi {
				t.Errorf("%d,%d: RowCell %q w%d multi %v; Cell %q w%d", x, y, rc.Rune(), rc.Width(), rc.Multi(), c.Text, c.Width)
			}
			if got := s.StyleOf(rc.Style()); got != c.Style {
				t.Errorf("%d,%d: StyleOf = %+v, Cell style %+v", x, y, got, c.Style)
			}
			if want := c.Text == " " && c.Style == DefaultStyle; rc.DefaultSpace() && !want {
				t.Errorf("%d,%d: DefaultSpace %v for %q %+v", x, y, rc.DefaultSpace(), c.Text, c.Style)
			}
			if got := s.CellText(x, y); got != c.Text {
				t.Errorf("%d,%d: CellText %q, Cell %q", x, y, got, c.Text)
			}
		}
	}
}

func TestAppendRowCells(t *testing.T) {
	for _, tc := range []struct {
		name, in string
	}{
		{"ascii", "hello \x1b[1;31mred\x1b[0m plain"},
		{"wide", "a中b\x1b[7m文\x1b[0m"},
		{"combining", "e\u0301 a\u0308\u0323 x"},
		{"emoji", "👍🏽 ok ❯ 1. Yes"},
		{"acs", "\x1b(0lqqk\x1b(B x \x1b(0x\u0301\x1b(B"},
		{"styles", "\x1b[38;5;3ma\x1b[33mb\x1b[38;2;1;2;3;48;5;200mc\x1b[2;3;4;9md\x1b[0m \x1b[41m  \x1b[0m"},
		{"link", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ no"},
		{"padding cut", "中中\x1b[1G中\x1b[3Gz"},
		{"spaces", "  \x1b[1m \x1b[0m \x1b[44m \x1b[0m\x1b[K \x1b(0 \x1b(B\x1b[2;1H\x1b[41m\x1b[K"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(12, 3, Options{})
			s.Write([]byte(tc.in))
			checkRowCells(t, s)
		})
	}
}

// TestDefaultSpace: the fast test holds for written and erased default
// spaces and for nothing visible.
func TestDefaultSpace(t *testing.T) {
	s := New(8, 2, Options{})
	s.Write([]byte("a \x1b[1m \x1b[0m \x1b[44m \x1b[0m\x1b[K\x1b[2;1H\x1b[41m\x1b[K"))
	want := []bool{false, true, false, true, false, true, true, true}
	for x, rc := range s.AppendRowCells(nil, 0) {
		if rc.DefaultSpace() != want[x] {
			t.Errorf("row 0 column %d: DefaultSpace %v", x, rc.DefaultSpace())
		}
	}
	for x, rc := range s.AppendRowCells(nil, 1) {
		if rc.DefaultSpace() {
			t.Errorf("row 1 column %d (red background): DefaultSpace", x)
		}
	}
}

func TestAppendRowCellsOutside(t *testing.T) {
	s := New(4, 2, Options{})
	for _, y := range []int{-1, 2} {
		if got := s.AppendRowCells(nil, y); len(got) != 0 {
			t.Errorf("row %d: %d cells", y, len(got))
		}
	}
	if got := s.CellText(4, 0); got != " " {
		t.Errorf("CellText outside = %q", got)
	}
	if got := s.StyleOf(StyleID(1 << 20)); got != DefaultStyle {
		t.Errorf("StyleOf out of range = %+v", got)
	}
	for _, tc := range []struct {
		ch    rune
		width int
		multi bool
		want  rune
	}{{'x', 1, false, 'x'}, {'中', 2, false, '中'}, {'e', 1, true, 'e'}, {0, 0, false, 0}, {-1, 1, false, '\uFFFD'}, {0x110000, 1, false, '\uFFFD'}} {
		rc := MakeRowCell(tc.ch, tc.width, 7, tc.multi)
		if rc.Rune() != tc.want || rc.Width() != tc.width || rc.Multi() != tc.multi || rc.Style() != 7 {
			t.Errorf("MakeRowCell(%q, %d, 7, %v) = %q w%d multi %v style %d", tc.ch, tc.width, tc.multi, rc.Rune(), rc.Width(), rc.Multi(), rc.Style())
		}
	}
}

// TestStyleGeneration: handles of one generation name the same style
// until the table is compacted, which advances the generation; handles
// read afresh then resolve correctly again.
func TestStyleGeneration(t *testing.T) {
	s := New(20, 2, Options{})
	s.Write([]byte("\x1b[38;2;9;9;9mkeep\x1b[0m"))
	g0 := s.StyleGeneration()
	id := s.AppendRowCells(nil, 0)[0].Style()
	want := s.Cell(0, 0).Style
	// Many styles that no cell keeps: the table outgrows its limit.
	for i := range minStyleLimit + 10 {
		fmt.Fprintf(s, "\x1b[2;1H\x1b[38;2;%d;%d;1mx", i>>8&0xff, i&0xff)
		if s.StyleGeneration() == g0 && s.StyleOf(id) != want {
			t.Fatalf("after %d styles: handle resolves to another style within generation %d", i, g0)
		}
	}
	if s.StyleGeneration() == g0 {
		t.Fatal("the table was never compacted: generation unchanged")
	}
	fresh := s.AppendRowCells(nil, 0)[0].Style()
	if s.StyleOf(fresh) != want {
		t.Errorf("after compaction the fresh handle resolves to %+v", s.StyleOf(fresh))
	}
	checkRowCells(t, s)
}

func TestAppendRowCellsAllocs(t *testing.T) {
	s := New(120, 40, Options{})
	s.Write([]byte("\x1b[1mbold\x1b[0m 中文 e\u0301 👍 \x1b(0lqk\x1b(B"))
	buf := make([]RowCell, 0, 120)
	if n := testing.AllocsPerRun(50, func() {
		for y := range 40 {
			buf = s.AppendRowCells(buf[:0], y)
		}
	}); n != 0 {
		t.Errorf("%.0f allocations reading a screen", n)
	}
}

// BenchmarkReadRowCells is BenchmarkReadScreen through AppendRowCells.
func BenchmarkReadRowCells(b *testing.B) {
	s := New(120, 40, Options{})
	s.Write(benchinputAgentFrame())
	var row []RowCell
	b.ReportAllocs()
	for b.Loop() {
		for y := range 40 {
			row = s.AppendRowCells(row[:0], y)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/screen")
}

// TestLeadingTrailingSpaces: the word-at-a-time counts agree with
// DefaultSpace cell by cell, for rows mixing default spaces (cleared and
// grid-extended ones too) with cells that only look like them.
func TestLeadingTrailingSpaces(t *testing.T) {
	sp := MakeRowCell(' ', 1, 0, false)
	cleared, ext := sp, sp
	cleared.c.hi |= clearedFlag
	ext.c.hi |= gridExtFlag | clearedFlag
	acs := sp
	acs.c.hi |= acsFlag
	kinds := []RowCell{sp, cleared, ext, acs, MakeRowCell(' ', 1, 3, false), MakeRowCell('a', 1, 0, false),
		MakeRowCell(' ', 2, 0, false), MakeRowCell(' ', 1, 0, true), MakeRowCell(' '+1<<16, 1, 0, false), MakeRowCell(' ', 1, 1<<16, false)}
	naive := func(cells []RowCell) (lead, trail int) {
		for lead < len(cells) && cells[lead].DefaultSpace() {
			lead++
		}
		for trail < len(cells) && cells[len(cells)-1-trail].DefaultSpace() {
			trail++
		}
		return lead, trail
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		cells := make([]RowCell, rng.IntN(30))
		for j := range cells {
			cells[j] = kinds[0]
			if rng.IntN(4) == 0 {
				cells[j] = kinds[rng.IntN(len(kinds))]
			}
		}
		wl, wt := naive(cells)
		if l, tr := LeadingSpaces(cells), TrailingSpaces(cells); l != wl || tr != wt {
			t.Fatalf("case %d %v: leading %d trailing %d, want %d %d", i, cells, l, tr, wl, wt)
		}
	}
}
