// Package benchinput generates the deterministic terminal byte streams that
// akk's VT benchmarks (bench/) and differential tests feed to screen models:
// full-screen agent-TUI redraws and scrolling log lines, and cuts them into
// write-sized chunks the way tmux control mode hands pane output over.
//
// Every function is deterministic: the same arguments give the same bytes on
// every machine and Go version (the generators use their own PRNG, not
// math/rand), so figures measured on different days compare like with like.
package benchinput

import "strconv"

// Screen size the agent stream is drawn for.
const (
	Width  = 120
	Height = 40
)

// DefaultSize is the size of each benchmark input: 16 MiB (16.8 MB), as in
// the research benchmark anchors.
const DefaultSize = 16 << 20

// WideFraction is the share of printed characters in the agent stream that
// are wide (two-cell CJK ideographs and emoji). The generator aims at it; the
// tests hold the stream to within a percentage point of it.
const WideFraction = 0.06

// rng is a small, fixed PRNG (splitmix64) so that the streams never change
// when the standard library's generators do.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n), n > 0.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance reports true with probability p.
func (r *rng) chance(p float64) bool {
	return float64(r.next()>>11)/(1<<53) < p
}

// stream accumulates whole tokens (an escape sequence, a character, a log
// line) up to a byte budget, so a stream never ends inside a token.
type stream struct {
	buf  []byte
	n    int
	mark int
	full bool
}

func newStream(n int) *stream {
	if n < 0 {
		n = 0
	}
	return &stream{buf: make([]byte, 0, n), n: n}
}

// begin starts a token.
func (s *stream) begin() { s.mark = len(s.buf) }

// end finishes a token, dropping it and closing the stream when it does not
// fit the budget. Once closed, the stream drops every further token, even
// one small enough to fit: Agent(m) stays a prefix of Agent(n).
func (s *stream) end() {
	if s.full || len(s.buf) > s.n {
		s.buf = s.buf[:s.mark]
		s.full = true
	}
}

func (s *stream) str(t string) {
	s.begin()
	s.buf = append(s.buf, t...)
	s.end()
}

func (s *stream) rune(c rune) {
	s.begin()
	s.buf = appendRune(s.buf, c)
	s.end()
}

// appendRune appends the UTF-8 encoding of c (kept local so the package
// depends on nothing but strconv).
func appendRune(b []byte, c rune) []byte {
	switch {
	case c < 0x80:
		return append(b, byte(c))
	case c < 0x800:
		return append(b, 0xc0|byte(c>>6), 0x80|byte(c)&0x3f)
	case c < 0x10000:
		return append(b, 0xe0|byte(c>>12), 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
	default:
		return append(b, 0xf0|byte(c>>18), 0x80|byte(c>>12)&0x3f, 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
	}
}

func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }
