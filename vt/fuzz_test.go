package vt

import "testing"

// checkInvariants verifies what must hold after any input.
func checkInvariants(t *testing.T, s *Screen) {
	t.Helper()
	if s.cx < 0 || s.cx > s.w || s.cy < 0 || s.cy >= s.h {
		t.Fatalf("cursor %d,%d outside %dx%d", s.cx, s.cy, s.w, s.h)
	}
	if s.rupper < 0 || s.rlower >= s.h || s.rupper >= s.rlower && s.h > 1 {
		t.Fatalf("scroll region %d-%d on height %d", s.rupper, s.rlower, s.h)
	}
	if len(s.lines) != s.h {
		t.Fatalf("%d rows, want %d", len(s.lines), s.h)
	}
	for y, l := range s.lines {
		if len(l.cells) != cellsFor(s.w) || int(l.w) != s.w {
			t.Fatalf("row %d has %d cells of width %d, want %d", y, len(l.cells), l.w, s.w)
		}
		for x, c := range l.cells {
			if int(c.style()) >= len(s.styles) {
				t.Fatalf("cell %d,%d: style %d of %d", x, y, c.style(), len(s.styles))
			}
			if c.isExt() && int(c.ch()) >= len(l.ext) {
				t.Fatalf("cell %d,%d: grapheme %d of %d", x, y, c.ch(), len(l.ext))
			}
		}
	}
	for i, p := range s.styles {
		if int(p.link) >= len(s.links) {
			t.Fatalf("style %d: link %d of %d", i, p.link, len(s.links))
		}
	}
}

var fuzzSeeds = []string{
	"hello\r\nworld",
	"\x1b[1;31mred\x1b[0m \xe4\xb8\x96\xe7\x95\x8c e\u0301 \x1b]0;t\x07\x1b(0lqk\x1b(B",
	"\x1b[?1049h\x1b[2J\x1b[5;10r\x1b[6;1Hx\x1b[3L\x1b[2M\x1b[?1049l",
	"abc\x1b[2b\xf0\x9f\x8e\x89\x1b[38:2::10:20:30mrgb\x1b[4:3m~\x1b]8;id=1;http://x\x07link\x1b]8;;\x07",
	"\x1b[?7l" + "0123456789\xe4\xb8\x96\xe4\xb8\x96" + "\x1b[?7h\x1b[4h\xe4\xb8\x96ab\x1b[4l",
	"\x1b[3;5H\x1b[1@\x1b[2P\x1b[3X\x1b[1K\x1b[2K\x1b[J\x1b[1J\x1b[2J\x1b[3J\x1bM\x1bD\x1bE\x1bH\x1b[g\x1b[3g",
	"\x1b7\x1b[10;10H\x1b8\x1b[s\x1b[u\x1bc\x1b#8\x1b[Z\x1b[5Z\t\t\t",
	"\xf0\x9f\x91\xa8\u200d\xf0\x9f\x91\xa9 a\u200db",
	"\x1bP1$q\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\x1b_apc\x1b\\\x1bkname\x1b\\",
}

// FuzzScreen: no input may panic, break an invariant, or give a screen
// that depends on where the input was split.
func FuzzScreen(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(len(s)/2), uint8(12), uint8(5))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, w, h uint8) {
		width, height := int(w%40)+1, int(h%12)+1
		whole := New(width, height, Options{Scrollback: 8})
		whole.Write(data)
		checkInvariants(t, whole)
		checkRowCells(t, whole) // the compact reading agrees with Cell
		if whole.Fingerprint(whole.Bounds()) != fingerprintRef(whole, whole.Bounds()) {
			t.Fatalf("Fingerprint's shortcuts change the digest of:\n%s", whole)
		}

		split := New(width, height, Options{Scrollback: 8})
		at := int(cut) % (len(data) + 1)
		split.Write(data[:at])
		split.Write(data[at:])
		checkInvariants(t, split)
		if whole.Fingerprint(whole.Bounds()) != split.Fingerprint(split.Bounds()) || whole.Cursor() != split.Cursor() {
			t.Fatalf("split at %d changes the screen:\n%s\n----\n%s", at, whole, split)
		}
	})
}
