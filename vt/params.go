package vt

// param is one CSI parameter as tmux 3.3a's input_split sees it: missing
// (empty), a number, or a string of colon-separated sub-parameters.
type param struct {
	kind       paramKind
	start, end uint8 // a colon parameter's text in params.raw
	num        int32
}

type paramKind uint8

const (
	paramMissing paramKind = iota
	paramNumber
	paramString
)

// params is a fixed, reused parameter list, filled while the parameter
// bytes arrive (so they are read once) with tmux 3.3a's input_split rules:
// allocates nothing.
type params struct {
	list [maxParams]param
	n    int
	raw  []byte // the raw parameter bytes, for colon parameters
	// The field being read.
	num             int
	start           uint8
	colon, overflow bool
	// bad: tmux drops the whole sequence (a number above 2^31-1, or 24 or
	// more parameters).
	bad bool
}

func (ps *params) reset() {
	ps.n, ps.raw, ps.num, ps.start = 0, nil, 0, 0
	ps.colon, ps.overflow, ps.bad = false, false, false
}

// add takes parameter byte c ('0'-'9', ':' or ';'), stored at raw[at].
func (ps *params) add(c byte, at int) {
	switch {
	case c <= '9':
		// Digits of a colon field count too; endField looks at colon first.
		ps.num = ps.num*10 + int(c-'0')
		if ps.num > maxInt32 {
			ps.overflow, ps.num = true, maxInt32
		}
	case c == ':':
		ps.colon = true
	default:
		ps.endField(at)
	}
}

// endField closes the field raw[start:at].
func (ps *params) endField(at int) {
	if !ps.bad {
		p := &ps.list[ps.n]
		switch {
		case at == int(ps.start):
			p.kind = paramMissing
		case ps.colon:
			p.kind, p.start, p.end = paramString, ps.start, uint8(at)
		case ps.overflow:
			ps.bad = true
		default:
			p.kind, p.num = paramNumber, int32(ps.num)
		}
		ps.n++
		if ps.n == maxParams {
			ps.bad = true
		}
	}
	ps.num, ps.start, ps.colon, ps.overflow = 0, uint8(at+1), false, false
}

// finish closes the last field of raw, all the parameter bytes, and
// reports whether tmux would act on the sequence.
func (ps *params) finish(raw []byte) bool {
	ps.raw = raw
	if len(raw) > 0 {
		ps.endField(len(raw))
	}
	return !ps.bad
}

// sub returns the text of colon parameter i.
func (ps *params) sub(i int) []byte {
	p := &ps.list[i]
	return ps.raw[p.start:p.end]
}

// get is tmux's input_get: the parameter at i, def when absent or missing,
// -1 for a colon parameter, raised to min.
func (ps *params) get(i, min, def int) int {
	if i >= ps.n {
		return def
	}
	p := &ps.list[i]
	switch p.kind {
	case paramMissing:
		return def
	case paramString:
		return -1
	}
	if int(p.num) < min {
		return min
	}
	return int(p.num)
}

const maxInt32 = 1<<31 - 1

// atoi parses decimal digits up to 2^31-1, as strtonum(s, 0, INT_MAX).
func atoi(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > maxInt32 {
			return 0, false
		}
	}
	return n, true
}
