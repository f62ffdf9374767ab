package vt

import "testing"

// TestACSGlyphBytes pins acsGlyph to the UTF-8 bytes of tmux 3.3a's
// tty_acs_table (tty-acs.c), written the way tmux writes them, so a glyph
// that merely looks right cannot slip in.
func TestACSGlyphBytes(t *testing.T) {
	want := map[byte]string{
		'+': "\342\206\222", ',': "\342\206\220", '-': "\342\206\221", '.': "\342\206\223",
		'0': "\342\226\256", '`': "\342\227\206", 'a': "\342\226\222", 'b': "\342\220\211",
		'c': "\342\220\214", 'd': "\342\220\215", 'e': "\342\220\212", 'f': "\302\260",
		'g': "\302\261", 'h': "\342\220\244", 'i': "\342\220\213", 'j': "\342\224\230",
		'k': "\342\224\220", 'l': "\342\224\214", 'm': "\342\224\224", 'n': "\342\224\274",
		'o': "\342\216\272", 'p': "\342\216\273", 'q': "\342\224\200", 'r': "\342\216\274",
		's': "\342\216\275", 't': "\342\224\234", 'u': "\342\224\244", 'v': "\342\224\264",
		'w': "\342\224\254", 'x': "\342\224\202", 'y': "\342\211\244", 'z': "\342\211\245",
		'{': "\317\200", '|': "\342\211\240", '}': "\302\243", '~': "\302\267",
	}
	for b := 0; b < len(acsGlyph); b++ {
		if got := acsGlyph[b]; got != want[byte(b)] {
			t.Errorf("acsGlyph[%q] = %q, want %q", rune(b), got, want[byte(b)])
		}
	}
}
