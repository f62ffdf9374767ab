package vt

// param is one CSI parameter as tmux 3.3a's input_split sees it: missing
// (empty), a number, or a string of colon-separated sub-parameters.
type param struct {
	kind paramKind
	num  int
	sub  []byte // the raw text of a colon parameter, aliasing the parser's buffer
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
}

// split parses raw parameter bytes (digits, ':' and ';' only) the way
// input_split does. It returns false when tmux would drop the whole
// sequence: a number above 2^31-1, or 24 or more parameters.
func (ps *params) split(raw []byte) bool {
	ps.n = 0
	if len(raw) == 0 {
		return true
	}
	start := 0
	for i := 0; i <= len(raw); i++ {
		if i < len(raw) && raw[i] != ';' {
			continue
		}
		if !ps.add(raw[start:i]) {
			return false
		}
		start = i + 1
	}
	return true
}

func (ps *params) add(field []byte) bool {
	p := &ps.list[ps.n]
	*p = param{}
	switch {
	case len(field) == 0:
		p.kind = paramMissing
	case indexByte(field, ':') >= 0:
		p.kind, p.sub = paramString, field
	default:
		n, ok := atoi(field)
		if !ok {
			return false
		}
		p.kind, p.num = paramNumber, n
	}
	ps.n++
	return ps.n < maxParams
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
	if p.num < min {
		return min
	}
	return p.num
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

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
