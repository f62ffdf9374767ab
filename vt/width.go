package vt

import "sort"

// widthTableRunes bounds quickWidth: the Basic Multilingual Plane and
// plane 1, where the emoji agent TUIs print live (plane 2 and up hold CJK
// extensions, rare enough for the binary search).
const widthTableRunes = 0x20000

// quickWidth holds the width of every code point below widthTableRunes,
// 2 bits each (the width plus one), so that nearly every lookup is one
// load and a shift.
var quickWidth [widthTableRunes / 4]uint8

func init() {
	// Width 1 everywhere, then the ranges, then ASCII (as runeWidthSlow).
	for i := range quickWidth {
		quickWidth[i] = 0b10_10_10_10
	}
	set := func(r rune, w int) {
		sh := r & 3 * 2
		quickWidth[r>>2] = quickWidth[r>>2]&^(3<<sh) | uint8(w+1)<<sh
	}
	for _, wr := range widthRanges {
		for r := wr.lo; r <= wr.hi && r < widthTableRunes; r++ {
			set(r, int(wr.width))
		}
	}
	for r := rune(0); r < 0x80; r++ {
		set(r, runeWidthSlow(r))
	}
}

// widthRange is a run of code points sharing a width other than 1.
type widthRange struct {
	lo, hi rune
	width  int8
}

// runeWidth is the display width tmux 3.3a gives r: 0 (combines with the
// previous character), 1 or 2, or -1 when tmux drops the character
// (non-printable or unassigned). The table is generated from the C
// library tmux uses (see internal/widthgen).
func runeWidth(r rune) int {
	if r >= 0 && r < widthTableRunes {
		return int(quickWidth[r>>2]>>(r&3*2)&3) - 1
	}
	return runeWidthSlow(r)
}

func runeWidthSlow(r rune) int {
	if r < 0x80 {
		if r >= 0x20 && r < 0x7f {
			return 1
		}
		return -1
	}
	if r > 0x10ffff {
		return -1
	}
	i := sort.Search(len(widthRanges), func(i int) bool { return widthRanges[i].hi >= r })
	if i < len(widthRanges) && widthRanges[i].lo <= r {
		return int(widthRanges[i].width)
	}
	return 1
}

// RuneWidth reports the display width of r as tmux 3.3a computes it: 0 for
// a combining character, 1 or 2, and -1 for a character tmux drops.
func RuneWidth(r rune) int { return runeWidth(r) }
