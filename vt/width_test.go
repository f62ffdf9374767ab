package vt

import "testing"

// TestQuickWidth: the table agrees with the ranges it is built from, for
// every code point it covers and those around its end.
func TestQuickWidth(t *testing.T) {
	for r := rune(-1); r < widthTableRunes+0x100; r++ {
		if got, want := runeWidth(r), runeWidthSlow(r); got != want {
			t.Fatalf("runeWidth(%U) = %d, want %d", r, got, want)
		}
	}
}
