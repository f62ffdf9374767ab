package streamgen

import (
	"math/rand/v2"
)

// Stream is one generated stream.
type Stream struct {
	Seed          int64
	Width, Height int
	Data          []byte
	Chunks        []int // lengths of the writes to feed Data in; they sum to len(Data)
	Ops           []Op  // the operations Data is made of, in order
	Families      Set   // every family in Ops, plus the chunk-split families
}

// Op is one operation of a stream: Data[Start:End] exercises Family.
type Op struct {
	Start, End int
	Family     Family
	kind       opKind
}

type opKind uint8

const (
	kindText opKind = iota // characters: a cut inside a multi-byte one is a UTF-8 split
	kindSeq                // an escape sequence or string: any cut inside is a sequence split
)

// ChunkData returns Data cut at the chunk boundaries.
func (s Stream) ChunkData() [][]byte {
	out := make([][]byte, 0, len(s.Chunks))
	off := 0
	for _, n := range s.Chunks {
		out = append(out, s.Data[off:off+n])
		off += n
	}
	return out
}

// gen is the state of one generation.
type gen struct {
	r    *rand.Rand
	w, h int
	buf  []byte
	ops  []Op
}

// Generate returns the stream for seed.
func Generate(seed int64) Stream {
	g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 0x616b6b2d7674))} // "akk-vt"
	g.w, g.h = g.size()
	n := 10 + g.r.IntN(220)
	if g.chance(1, 10) {
		n = 1000 + g.r.IntN(1000) // long streams reach states short ones do not
	}
	for range n {
		g.step()
	}
	s := Stream{Seed: seed, Width: g.w, Height: g.h, Data: g.buf, Ops: g.ops}
	s.Chunks = g.chunks(len(g.buf))
	s.Families = families(s)
	return s
}

// size picks a screen size: mostly ordinary, sometimes tiny.
func (g *gen) size() (w, h int) {
	widths := []int{1, 2, 3, 4, 5, 7, 8, 10, 12, 16, 20, 20, 24, 30, 40, 40, 60, 80, 80, 100, 132}
	heights := []int{1, 2, 3, 4, 5, 6, 8, 10, 10, 12, 16, 24, 24, 30}
	w = widths[g.r.IntN(len(widths))]
	h = heights[g.r.IntN(len(heights))]
	if w == 1 && g.r.IntN(2) == 0 {
		w = 2 // width 1 is legal but rare in life; keep it rarer
	}
	return w, h
}

// step appends one weighted random operation.
func (g *gen) step() {
	total := 0
	for _, o := range opTable {
		total += o.weight
	}
	n := g.r.IntN(total)
	for _, o := range opTable {
		if n < o.weight {
			start := len(g.buf)
			o.fn(g)
			if len(g.buf) > start {
				g.ops = append(g.ops, Op{Start: start, End: len(g.buf), Family: o.fam, kind: o.kind})
			}
			return
		}
		n -= o.weight
	}
}

// chunks cuts n bytes into writes: sometimes one write, sometimes one byte
// per write, mostly random lengths, so that boundaries land everywhere.
func (g *gen) chunks(n int) []int {
	var out []int
	mode := g.r.IntN(10)
	for n > 0 {
		var c int
		switch {
		case mode == 0:
			c = n
		case mode == 1:
			c = 1
		case mode < 5:
			c = 1 + g.r.IntN(8)
		default:
			c = 1 + g.r.IntN(256)
		}
		c = min(c, n)
		out = append(out, c)
		n -= c
	}
	return out
}

// families collects the families of a stream's ops and of its chunk cuts.
func families(s Stream) Set {
	var set Set
	for _, op := range s.Ops {
		set.Add(op.Family)
	}
	cut := 0
	i := 0
	for _, n := range s.Chunks[:max(len(s.Chunks)-1, 0)] {
		cut += n
		for i < len(s.Ops) && s.Ops[i].End <= cut {
			i++
		}
		if i == len(s.Ops) || s.Ops[i].Start >= cut {
			continue
		}
		switch s.Ops[i].kind {
		case kindSeq:
			set.Add(SplitSequence)
		case kindText:
			if s.Data[cut]&0xc0 == 0x80 {
				set.Add(SplitUTF8)
			}
		}
	}
	return set
}

func (g *gen) str(s string)    { g.buf = append(g.buf, s...) }
func (g *gen) bytes(b ...byte) { g.buf = append(g.buf, b...) }

// pick returns one of the choices.
func pick[T any](g *gen, choices ...T) T { return choices[g.r.IntN(len(choices))] }

// chance is true with probability num/den.
func (g *gen) chance(num, den int) bool { return g.r.IntN(den) < num }
