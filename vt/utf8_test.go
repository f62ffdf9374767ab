package vt

import "testing"

// TestDecode3: the inlined three-byte decoder agrees with decodeWhole on
// every sequence a three-byte lead byte can start.
func TestDecode3(t *testing.T) {
	b := make([]byte, 3)
	for b0 := 0xe0; b0 <= 0xef; b0++ {
		for b1 := 0; b1 < 256; b1++ {
			for b2 := 0; b2 < 256; b2++ {
				b[0], b[1], b[2] = byte(b0), byte(b1), byte(b2)
				r3, w3 := decode3(b)
				r, w, size := decodeWhole(b)
				if w3 >= 0 && (size != 3 || r != r3 || w != w3) || w3 < 0 && size != 0 {
					t.Fatalf("% x: decode3 %U w%d, decodeWhole %U w%d size %d", b, r3, w3, r, w, size)
				}
			}
		}
	}
	if _, w := decode3([]byte{0xe4, 0xb8}); w != -1 {
		t.Errorf("a cut sequence decodes")
	}
}
