package vt

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"
)

// fingerprintRef is Fingerprint's encoding written cell by cell without
// its shortcuts (same style index, ASCII), to pin that they change no
// digest.
func fingerprintRef(s *Screen, r Rect) [32]byte {
	r = s.clip(r)
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(r.W))
	b = binary.LittleEndian.AppendUint32(b, uint32(r.H))
	var prev pen
	for y := r.Y; y < r.Y+r.H; y++ {
		l := s.lines[y]
		for x := r.X; x < r.X+r.W; x++ {
			c := l.cells[x]
			if p := s.styles[c.style()]; (y == r.Y && x == r.X) || !s.samePen(p, prev) {
				b = s.appendPen(append(b, 1), p)
				prev = p
			} else {
				b = append(b, 0)
			}
			t := l.text(c)
			b = append(append(b, byte(c.width()), byte(len(t))), t...)
		}
	}
	return sha256.Sum256(b)
}

func TestFingerprintShortcuts(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"ascii", "hello world\r\n\x1b[1mbold\x1b[0m plain"},
		{"styles", "\x1b[31ma\x1b[32mb\x1b[31mc\x1b[38;5;1md\x1b[38;2;1;2;3me\x1b[0m \x1b[44m  \x1b[0m"},
		{"wide, graphemes, nul", "中文 e\u0301 👍🏽 \x00x\u00a0y"},
		{"line drawing", "\x1b(0lqqk x\u0301 ~\x1b(B q"},
		{"links", "\x1b]8;;http://a\x1b\\a\x1b]8;;http://b\x1b\\b\x1b]8;;\x1b\\c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(14, 3, Options{})
			fmt.Fprint(s, tc.in)
			for _, r := range []Rect{s.Bounds(), {X: 2, Y: 0, W: 5, H: 2}, {X: 0, Y: 1, W: 14, H: 1}} {
				if got, want := s.Fingerprint(r), fingerprintRef(s, r); got != want {
					t.Errorf("%+v: Fingerprint %x, reference %x", r, got[:8], want[:8])
				}
			}
		})
	}
}

// TestFingerprintDuplicatePens: one pen under two style indexes (the
// table may hold it twice) is one rendition in the digest.
func TestFingerprintDuplicatePens(t *testing.T) {
	a, b := New(4, 1, Options{}), New(4, 1, Options{})
	fmt.Fprint(a, "\x1b[31mxy")
	fmt.Fprint(b, "\x1b[31mxy")
	// In b, the second cell's pen sits under a second index.
	id := b.lines[0].cells[1].style()
	b.styles = append(b.styles, b.styles[id])
	b.lines[0].cells[1].setStyle(uint32(len(b.styles) - 1))
	if a.Fingerprint(a.Bounds()) != b.Fingerprint(b.Bounds()) {
		t.Error("a duplicated pen changes the digest")
	}
}
