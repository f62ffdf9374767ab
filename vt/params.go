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

// params is a fixed, reused parameter list: splitting allocates nothing.
type params struct {
	list [maxParams]param
	n    int
	raw  []byte
}

// sub returns the text of colon parameter i.
func (ps *params) sub(i int) []byte {
	p := &ps.list[i]
	return ps.raw[p.start:p.end]
}

// split parses raw parameter bytes (digits, ':' and ';' only, at most
// maxParamBytes) in one pass, the way input_split does. It returns false
// when tmux would drop the whole sequence: a number above 2^31-1, or 24 or
// more parameters.
func (ps *params) split(raw []byte) bool {
	ps.n, ps.raw = 0, raw
	if len(raw) == 0 {
		return true
	}
	num, start := 0, 0
	colon, overflow := false, false
	for i := 0; i <= len(raw); i++ {
		if i < len(raw) && raw[i] != ';' {
			switch c := raw[i]; {
			case c == ':':
				colon = true
			case !colon:
				num = num*10 + int(c-'0')
				if num > maxInt32 {
					overflow, num = true, maxInt32
				}
			}
			continue
		}
		p := &ps.list[ps.n]
		switch {
		case i == start:
			p.kind = paramMissing
		case colon:
			p.kind, p.start, p.end = paramString, uint8(start), uint8(i)
		case overflow:
			return false
		default:
			p.kind, p.num = paramNumber, int32(num)
		}
		ps.n++
		if ps.n == maxParams {
			return false
		}
		num, start, colon, overflow = 0, i+1, false, false
	}
	return true
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
