package vt

import "sort"

// bmpWidth holds the width of every code point below U+10000, 2 bits each
// (the width plus one), so the common case is one load and a shift.
var bmpWidth [0x10000 / 4]uint8

func init() {
	for r := rune(0); r < 0x10000; r++ {
		w := runeWidthSlow(r) + 1
		bmpWidth[r>>2] |= uint8(w) << (r & 3 * 2)
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
	if r >= 0 && r < 0x10000 {
		return int(bmpWidth[r>>2]>>(r&3*2)&3) - 1
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
