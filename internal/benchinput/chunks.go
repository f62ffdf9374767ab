package benchinput

import "fmt"

// Cut says where Chunks may end a chunk.
type Cut int

const (
	// AnyByte ends chunks at arbitrary byte positions: escape sequences
	// and UTF-8 sequences are split across writes, as tmux's %output
	// blocks split them.
	AnyByte Cut = iota
	// RuneBoundary moves every cut back to the start of the UTF-8 sequence
	// it falls in, so no chunk ends inside a rune (escape sequences are
	// still split).
	RuneBoundary
)

// Cuts lists both modes, in the order benchmarks report them.
var Cuts = []Cut{AnyByte, RuneBoundary}

// String names the mode as benchmarks report it: "bytes" or "utf8".
func (c Cut) String() string {
	switch c {
	case AnyByte:
		return "bytes"
	case RuneBoundary:
		return "utf8"
	}
	return fmt.Sprintf("Cut(%d)", int(c))
}

// Chunks cuts data into consecutive chunks of about size bytes: each chunk's
// length is drawn from [size/2, 3*size/2] by a PRNG with a fixed seed, then,
// for RuneBoundary, shortened to the nearest rune start. The chunks are
// sub-slices of data (nothing is copied) and concatenate to data. The same
// arguments always give the same cuts.
func Chunks(data []byte, size int, mode Cut) [][]byte {
	if size < 2 {
		size = 2
	}
	r := &rng{s: 0xc0ffee}
	out := make([][]byte, 0, len(data)/size+1)
	for start := 0; start < len(data); {
		end := start + r.between(size/2, size+size/2)
		if end >= len(data) {
			end = len(data)
		} else if mode == RuneBoundary {
			// Back off continuation bytes (10xxxxxx): a UTF-8 sequence is
			// at most 4 bytes, so this stops within 3 steps on valid input.
			// On invalid input (long runs of continuation bytes) keep the
			// cut rather than produce an empty chunk.
			e := end
			for e > start && e > end-3 && data[e]&0xc0 == 0x80 {
				e--
			}
			if e > start && data[e]&0xc0 != 0x80 {
				end = e
			}
		}
		out = append(out, data[start:end])
		start = end
	}
	return out
}
